import { canonicalBaseUrl } from "../core/base-url.js";

/**
 * The account string a run is journaled under (runs.account) and its run lock is named by: the
 * exchange's base URL in its one spelling (canonicalBaseUrl) and the maker wallet, lowercased. Two
 * spellings of one exchange (`HTTPS://API.x:443/`, `https://api.x`) are one account, so a restart
 * restores the same PnL, orders and tripped kill switch and meets the same lock.
 * @example accountName("HTTP://127.0.0.1:80/", "0xAbC…") // "http://127.0.0.1|0xabc…"
 */
export function accountName(baseUrl: string, maker: string): string {
  return `${canonicalBaseUrl(baseUrl)}|${maker.toLowerCase()}`;
}

/**
 * A stored account string (runs.account, as any mm wrote it) in the spelling accountName gives the
 * same exchange and wallet today. Before it, the base URL was kept as configured (only a trailing
 * slash trimmed): such a row names the account its canonical form does. The wallet follows the
 * last `|` (an address never holds one); a string without one is returned as it is.
 * @example canonicalAccountName("https://API.x:443|0xabc") // "https://api.x|0xabc"
 */
export function canonicalAccountName(stored: string): string {
  const bar = stored.lastIndexOf("|");
  if (bar < 0) return stored;
  return accountName(stored.slice(0, bar), stored.slice(bar + 1));
}
