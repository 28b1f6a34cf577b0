import type { ConfigIssue } from "./errors.js";
import type { MmConfig } from "./types.js";

/**
 * The exchange URLs that would carry the API key unencrypted beyond this machine: `http://` or
 * `ws://` to a host that is not loopback. Every request sends the key as X-Api-Key, and the
 * WebSocket upgrade does too, so anyone on the path (a shared network, a proxy) reads it; a typo of
 * `https://` is enough. Loopback stays allowed: the mock exchange, or a local TLS proxy (stunnel,
 * a sidecar) that encrypts the rest of the way. For the commands that send the key (mm run,
 * mm record); `setBy` names where each URL was set, as the load's own issues do.
 * @example cleartextKeyIssues(config) // [{ field: "exchange.baseUrl", message: "http:// would send …" }]
 */
export function cleartextKeyIssues(config: Pick<MmConfig, "exchange" | "setBy">): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const check = (field: string, raw: string, plain: string, secure: string, how: string) => {
    const url = new URL(raw);
    if (url.protocol !== `${plain}:` || isLoopbackHost(url.hostname)) return;
    const where = config.setBy[field];
    issues.push({
      field,
      message:
        `${plain}:// would send the API key unencrypted to ${url.host} (${how}): use ${secure}://, ` +
        `or a TLS proxy on a loopback address${where === undefined ? "" : ` (${where})`}`,
    });
  };
  check("exchange.baseUrl", config.exchange.baseUrl, "http", "https", "X-Api-Key on every request");
  check("exchange.wsUrl", config.exchange.wsUrl, "ws", "wss", "X-Api-Key on the WebSocket upgrade");
  return issues;
}

/** localhost (and its subdomains, which resolvers keep on loopback), 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "::1" || host === "::ffff:7f00:1") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
