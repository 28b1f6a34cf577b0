import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DesiredQuote, LocalOrderState } from "../../../src/core/trading.js";
import type { CancelIntent, CancelReason, PlaceIntent } from "../../../src/execution/intents.js";
import {
  type DiffInput,
  type DiffResult,
  diffQuotes,
  type LiveOrder,
  MISSING_LIVE_URGENCY,
  withinTolerance,
} from "../../../src/execution/order-manager-diff.js";

/*
 * diffQuotes keeps its levels in order without a map of string keys or a sort, and reads each
 * level's orders in place. Against the plain rule it replaced (levels by "side:level" key, sorted,
 * each level's open and queued orders listed apart), on any mix of desired quotes and live orders
 * in any state, it asks for exactly the same intents in the same order.
 */
function reference<T extends LiveOrder>(input: DiffInput<T>): DiffResult<T> {
  const levels = new Map<string, { side: string; level: number; want?: DesiredQuote; orders: T[] }>();
  for (const q of input.desired) {
    const key = `${q.side}:${q.level}`;
    const l = levels.get(key);
    if (l === undefined) levels.set(key, { side: q.side, level: q.level, want: q, orders: [] });
    else l.want ??= q;
  }
  for (const o of input.live) {
    if (["filled", "cancelled", "rejected", "expired"].includes(o.state)) continue;
    const key = `${o.side}:${o.level}`;
    const l = levels.get(key);
    if (l === undefined) levels.set(key, { side: o.side, level: o.level, orders: [o] });
    else l.orders.push(o);
  }
  const close = (o: T, want: DesiredQuote) => withinTolerance(o, want, input.tickMicro, input.tolerance);
  const cancel = (o: T, reason: CancelReason): CancelIntent => ({
    kind: "cancel",
    tokenId: input.tokenId,
    marketId: input.marketId,
    clientOrderId: o.clientOrderId,
    orderId: o.orderId,
    reason,
    level: { side: o.side, level: o.level },
  });
  const cancels: CancelIntent[] = [];
  const places: PlaceIntent[] = [];
  const superseded: T[] = [];
  const withdrawn: T[] = [];
  const sorted = [...levels.values()].sort((a, b) =>
    a.side === b.side ? a.level - b.level : a.side < b.side ? -1 : 1,
  );
  for (const l of sorted) {
    const open = l.orders.filter((o) => o.state === "open");
    const queued = l.orders.filter((o) => o.state === "placing" && o.queued === true);
    const inDoubt = l.orders.some(
      (o) =>
        o.state === "unknown" ||
        (o.state === "placing" && o.queued !== true) ||
        (o.state === "cancelling" && (o.needsReconcile === true || o.cancelDoubted === true)),
    );
    const want = l.want;
    if (want === undefined) {
      for (const o of open) cancels.push(cancel(o, "not_desired"));
      withdrawn.push(...queued);
      continue;
    }
    const keepOpen = open.find((o) => close(o, want));
    const blocked = inDoubt || (keepOpen === undefined && open.some((o) => o.cancelDoubted === true));
    const keep = keepOpen ?? (blocked ? undefined : queued.find((o) => close(o, want)));
    for (const o of open) if (o !== keep) cancels.push(cancel(o, close(o, want) ? "duplicate" : "requote"));
    for (const o of queued) if (o !== keep) superseded.push(o);
    if (keep !== undefined || blocked) continue;
    // Urgency is measured from what rests on the book: open orders, not queued (unsent) placements.
    const replaced = open;
    places.push({
      kind: "place",
      tokenId: input.tokenId,
      marketId: input.marketId,
      clientOrderId: input.newClientOrderId(want),
      quote: want,
      urgencyTicks:
        replaced.length === 0
          ? MISSING_LIVE_URGENCY
          : Math.min(
              ...replaced.map((o) => Math.floor(Math.abs(o.priceMicro - want.priceMicro) / input.tickMicro)),
            ),
    });
  }
  // No `expiring` here: no order is renewed cancel-then-place.
  return { cancels, places, superseded, withdrawn, cancelFirst: [] };
}

const TICK = 10_000;
const side = fc.constantFrom("buy" as const, "sell" as const);
const level = fc.integer({ min: 0, max: 2 });
const price = fc.integer({ min: 40, max: 44 }).map((t) => t * TICK);
const size = fc.integer({ min: 9, max: 11 }).map((n) => BigInt(n) * 1_000_000n);
const desired = fc.record({ side, level, priceMicro: price, sizeMicro: size });
// Open orders and placements (queued or in flight) weighted up: the rules are about them.
const state = fc.constantFrom<LocalOrderState>(
  "placing",
  "placing",
  "placing",
  "open",
  "open",
  "open",
  "cancelling",
  "unknown",
  "filled",
  "cancelled",
  "rejected",
  "expired",
);
const live = fc.record({
  side,
  level,
  priceMicro: price,
  sizeMicro: size,
  filled: fc.integer({ min: 0, max: 3 }),
  state,
  queued: fc.boolean(),
  flagged: fc.boolean(),
  doubted: fc.boolean(),
});

describe("diffQuotes against the plain rule it replaced", () => {
  it("asks for the same intents, in the same order, for any desired quotes and live orders", () => {
    fc.assert(
      fc.property(
        fc.array(desired, { maxLength: 8 }),
        fc.array(live, { maxLength: 12 }),
        fc.constantFrom(0, 1, 2),
        (want, have, priceTicks) => {
          const orders: LiveOrder[] = have.map((o, i) => ({
            clientOrderId: `c${i}`,
            orderId: `o${i}`,
            tokenId: "t",
            marketId: "m",
            side: o.side,
            level: o.level,
            priceMicro: o.priceMicro,
            sizeMicro: o.sizeMicro,
            filledMicro: BigInt(o.filled) * 100_000n,
            state: o.state,
            updatedAtMs: 0,
            ...(o.state === "placing" ? { queued: o.queued } : {}),
            ...(o.state === "cancelling" ? { needsReconcile: o.flagged } : {}),
            ...(o.state === "open" || o.state === "cancelling" ? { cancelDoubted: o.doubted } : {}),
          }));
          const input = (): DiffInput => {
            let n = 0;
            return {
              tokenId: "t",
              marketId: "m",
              tickMicro: TICK,
              desired: want,
              live: orders,
              tolerance: { priceTicks, sizeFraction: 0.25 },
              newClientOrderId: (q) => `new-${q.side}${q.level}-${++n}`,
            };
          };
          expect(diffQuotes(input())).toEqual(reference(input()));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
