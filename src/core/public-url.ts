/**
 * A URL fit for a log or an error line: no user name, password, query or fragment (where a
 * credential could hide).
 * @example publicUrl("https://u:p@ex.example/api?t=1") // "https://ex.example/api"
 */
export function publicUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return "(unparsable URL)";
  }
  // new URL adds a "/" path to a bare origin: keep the URL as the operator wrote it.
  const path = u.pathname === "/" && !raw.endsWith("/") ? "" : u.pathname;
  return `${u.protocol}//${u.host}${path}`;
}
