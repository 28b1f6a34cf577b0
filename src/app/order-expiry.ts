import type { OrderBuilder } from "../signing/order-builder.js";

/**
 * The builder with each order's on-chain expiry set when it is signed: none (`seconds` 0), or
 * `seconds` from that moment as unix seconds on the exchange's clock. The exchange refuses an order
 * whose expiration has passed (400 `expired`) by its own clock, so `serverNow` is its estimate
 * (ServerClock.serverNow, from the answers' X-Server-Time; our clock until one came): on the local
 * clock, a host running more than `seconds` behind the exchange had every placement refused
 * `expired`, one running ahead signed orders living longer than configured.
 * @example
 * const b = withExpiry(builder, 3600, () => client.serverClock.serverNow());
 * await b.build({ ...request, expiry: 0 }); // expiry = ⌊serverNow / 1000⌋ + 3600
 */
export function withExpiry(
  builder: OrderBuilder,
  seconds: number,
  serverNow: () => number,
): Pick<OrderBuilder, "build"> {
  if (seconds === 0) return builder;
  return { build: (req) => builder.build({ ...req, expiry: Math.floor(serverNow() / 1000) + seconds }) };
}
