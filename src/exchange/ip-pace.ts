import { type Clock, monotonicNow } from "../core/clock.js";
import type { RequestGate } from "./caller.js";
import { rateLimitsFor } from "./rate-limits.js";
import type { HttpMethod } from "./transport.js";

/**
 * A request gate (ExchangeHttpClient.gateRequests) for a client that sends no API key: each
 * request waits until its IP bucket of the spec's rate-limit table (GET /api/markets: 600 per 60 s)
 * allows it, the sends of one bucket spaced evenly (window / limit apart), so no window of the
 * server's holds more than the limit whatever its alignment. A keyless request is held to the IP
 * bucket only ("a key is accepted and raises the rate ceiling"); an endpoint the table gives no IP
 * limit goes at once. Time is the injected Clock's; a wait ends early when the client closes (the
 * caller then fails with client_closed).
 * @example client.gateRequests(ipPacedGate(clock)); // keyless public reads at the spec's IP rate
 */
export function ipPacedGate(clock: Clock): RequestGate {
  /** Per bucket: the earliest moment (monotonic) its next request may leave. */
  const nextAt = new Map<string, number>();
  return (method: HttpMethod, route: string, signal?: AbortSignal) => {
    const ip = rateLimitsFor(method, route).find((r) => r.rule.scope === "ip");
    if (ip === undefined) return undefined;
    const spacing = Math.ceil(ip.windowMs / ip.limit);
    const now = monotonicNow(clock);
    const at = Math.max(now, nextAt.get(ip.rule.bucket) ?? now);
    nextAt.set(ip.rule.bucket, at + spacing);
    if (at <= now) return undefined;
    return new Promise<undefined>((resolve) => {
      const timer = clock.setTimer(at - now, () => {
        signal?.removeEventListener("abort", onAbort);
        resolve(undefined);
      });
      const onAbort = () => {
        clock.cancelTimer(timer);
        resolve(undefined);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  };
}
