/**
 * The code an error line names: an MmError's own, or a Node system error's (ENOENT, EACCES…); bad
 * options (node:util parseArgs) are `usage_error` like the CLI's UsageError; anything else, a bug,
 * `unexpected_error`.
 * @example errorCode(new MmError("book_crossed", "…")) // "book_crossed"
 */
export function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || code === "") return "unexpected_error";
  return code.startsWith("ERR_PARSE_ARGS_") ? "usage_error" : code;
}

/**
 * `text` with ` (code <code>)` ending its first line, as every mm error line on stderr ends, for a
 * grep or a log shipper to key on. A first line ending in a colon (a list of problems, or a stack
 * follows) gets the code before that colon: `sweep file is invalid (code sweep_invalid):`.
 * @example withCode("the stop overran 10000 ms: exiting with code 1", "stop_overran")
 * // "the stop overran 10000 ms: exiting with code 1 (code stop_overran)"
 */
export function withCode(text: string, code: string): string {
  const cut = text.indexOf("\n");
  const first = cut < 0 ? text : text.slice(0, cut);
  const rest = cut < 0 ? "" : text.slice(cut);
  const tagged = first.endsWith(":") ? `${first.slice(0, -1)} (code ${code}):` : `${first} (code ${code})`;
  return `${tagged}${rest}`;
}
