import type { ConfigIssue } from "./errors.js";
import { jsonTypeOf } from "./formats.js";
import { settings } from "./schema.js";

/**
 * What is wrong with JSON text that does not parse, without a word of the text: V8's own message
 * quotes the input ('Unexpected token …, "<text>" is not valid JSON'), and the text may hold a
 * key typed by hand next to a missing bracket. Only the position is said, by `where` (given V8's
 * 0-based offset; by default the 1-based character and the length, for a one-line variable).
 * @example jsonSyntaxProblem('["a", "b"') // 'is not valid JSON: it ends before it is complete (a missing bracket or quote?)'
 */
export function jsonSyntaxProblem(
  text: string,
  where: (offset: number) => string = (at) => `character ${at + 1} of ${text.length}`,
): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    const message = e instanceof Error ? e.message : "";
    if (text.trim() === "") return "is empty, not JSON";
    const at = /position (\d+)/.exec(message)?.[1];
    const ended = at === undefined ? /unexpected end/i.test(message) : Number(at) >= text.trimEnd().length;
    if (ended) return "is not valid JSON: it ends before it is complete (a missing bracket or quote?)";
    const place = at === undefined ? "" : ` at ${where(Number(at))}`;
    return `is not valid JSON${place} (JSON has no comments and no trailing commas)`;
  }
}

/**
 * JSON-valued MM_* variables whose text does not parse: removed from `env` (convict would keep the
 * raw text, and the setting's validator then echoes it in "got …" and adds follow-on errors about
 * fields inside it) and reported once on their setting, with the paths so the other checks skip
 * them. engine.markets also takes a comma-separated list, so there only text starting with `[` is
 * JSON.
 */
export function unparsableJsonEnv(env: NodeJS.ProcessEnv): { issues: ConfigIssue[]; paths: Set<string> } {
  const issues: ConfigIssue[] = [];
  const paths = new Set<string>();
  for (const { path, spec } of settings()) {
    const raw = env[spec.env];
    const type = jsonTypeOf(spec.format);
    if (raw === undefined || !["object", "json", "array"].includes(type)) continue;
    if (type === "array" && !raw.trim().startsWith("[")) continue;
    const problem = jsonSyntaxProblem(raw);
    if (problem === null) continue;
    issues.push({ field: path, message: `${problem} (from env ${spec.env})` });
    paths.add(path);
    delete env[spec.env];
  }
  return { issues, paths };
}
