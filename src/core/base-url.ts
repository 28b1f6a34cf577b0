/**
 * One spelling of a base URL (exchange.baseUrl, exchange.wsUrl), as WHATWG URL parsing reads it:
 * the scheme and host lowercased, the scheme's default port dropped (`:443` for https/wss, `:80`
 * for http/ws), the path prefix kept as written (paths are case-sensitive) without its trailing
 * slashes. Two spellings of one origin then name one exchange: the journal's account and its run
 * lock are keyed on it. A text that does not parse, or that holds what a base URL may not (user
 * info, a query, a fragment: refused at load), is only trimmed of trailing slashes: nothing of it
 * is dropped.
 * @example canonicalBaseUrl("HTTPS://API.Exchange.example:443/v1/") // "https://api.exchange.example/v1"
 */
export function canonicalBaseUrl(raw: string): string {
  const trimmed = raw.trim().replace(/\/+$/, "");
  let u: URL;
  try {
    u = new URL(trimmed);
  } catch {
    return trimmed;
  }
  if (u.username !== "" || u.password !== "" || u.search !== "" || u.hash !== "") return trimmed;
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}`;
}
