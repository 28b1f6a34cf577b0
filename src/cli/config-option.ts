import { loadConfig } from "../config/load.js";
import type { MmConfig } from "../config/types.js";
import type { CliIo } from "./command.js";

/** The `--config FILE` option (repeatable, later files win) shared by every command that loads config. */
export const CONFIG_OPTION = {
  config: { type: "string", short: "c", multiple: true },
} as const;

export const CONFIG_OPTION_HELP =
  "  -c, --config FILE   Layer FILE over config/default.json; repeat to layer several, later wins.";

/**
 * Loads the configuration from the files given with --config and the process environment.
 * Throws ConfigError (exit code 2 in the CLI) when anything is wrong.
 */
export function loadConfigFromFlags(files: readonly string[] | undefined, io: CliIo): MmConfig {
  return loadConfig({ files: files ?? [], env: io.env, cwd: io.cwd });
}
