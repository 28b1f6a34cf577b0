import { resolve } from "node:path";
import { readConfigFile } from "./files.js";
import { settings } from "./schema.js";

/**
 * Where the operator set the setting at `path`, worded as the load's own issues word it: `from env
 * MM_X` when its variable is set (the environment wins over every file), else `in <file>` for the
 * last of `files` (the --config files, resolved against `cwd`) that sets it; undefined when neither
 * does (its default: config/default.json or the schema's). For an issue found after the load (a
 * metrics port that cannot be bound), whose value may not be where the operator looks first.
 * @example settingSource("metrics.port", [], { MM_METRICS_PORT: "9464" }, cwd) // "from env MM_METRICS_PORT"
 */
export function settingSource(
  path: string,
  files: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string | undefined {
  const spec = settings().find((s) => s.path === path)?.spec;
  if (spec !== undefined && env[spec.env] !== undefined) return `from env ${spec.env}`;
  // The files were read and checked by the load already; here only which settings each one sets.
  const file = files.map((f) => resolve(cwd, f)).findLast((f) => readConfigFile(f).paths.includes(path));
  return file === undefined ? undefined : `in ${file}`;
}
