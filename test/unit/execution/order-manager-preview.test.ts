import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import type { Intent, PlaceIntent } from "../../../src/execution/intents.js";
import { OrderManager } from "../../../src/execution/order-manager.js";
import { applyPlaceOutcome, markPlacementSent } from "../../../src/execution/order-manager-outcomes.js";
import type { TrackedOrder } from "../../../src/execution/order-state.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { MARKET, TOKEN } from "./reconcile-support.js";

/*
 * The engine's in-flight fit previews the step's diff (engine-in-flight.ts); when the fit changes
 * nothing, the order manager applies that preview instead of diffing again — with the same intents,
 * ids and store changes as a fresh diff, and only while the token's orders are as previewed.
 */

/** A real store counting the reads of a token's live orders (one per diff worked out). */
class CountingStore extends OrderStore {
  reads = 0;
  override live(tokenId: string): TrackedOrder[] {
    this.reads++;
    return super.live(tokenId);
  }
}

const token = { tokenId: TOKEN, marketId: MARKET, tickMicro: 10_000 };
const quote = (side: "buy" | "sell", level: number, priceMicro: number): DesiredQuote => ({
  side,
  level,
  priceMicro,
  sizeMicro: 10_000_000n,
});
const accepted = (orderId: string): PlaceOrderOutcome => ({
  kind: "accepted",
  result: { orderId, status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] },
  requestId: undefined,
});

/** A bid 0.47 resting, an ask 0.53 queued: the next step moves both and adds a second bid level. */
function setup(): { store: CountingStore; om: OrderManager } {
  const store = new CountingStore();
  const om = new OrderManager({ session: "s1", store });
  const [bid] = om.diff(token, [quote("buy", 0, 470_000)], 0) as PlaceIntent[];
  const cid = bid?.clientOrderId ?? "";
  markPlacementSent(store, cid, 1);
  applyPlaceOutcome(store, cid, accepted("o1"), 2);
  om.diff(token, [quote("buy", 0, 470_000), quote("sell", 0, 530_000)], 3);
  store.reads = 0;
  return { store, om };
}

const NEXT = [quote("buy", 0, 480_000), quote("buy", 1, 470_000), quote("sell", 0, 540_000)];

function orders(store: OrderStore): unknown[] {
  return [...store.all()].map((o) => ({ ...o }));
}

describe("OrderManager: a previewed diff is applied without diffing again", () => {
  it("applies the preview as a fresh diff would, reading the orders once", () => {
    const fresh = setup();
    const expected = fresh.om.diff(token, NEXT, 10);
    const { store, om } = setup();
    const preview = om.preview(token, NEXT, 10);
    expect(store.reads).toBe(1);
    const intents: Intent[] = om.diff(token, NEXT, 10, preview);
    expect(store.reads).toBe(1); // not worked out again
    expect(intents).toEqual(expected);
    expect(intents.map((i) => i.kind)).toEqual(["cancel", "cancel", "place", "place", "place"]);
    expect(orders(store)).toEqual(orders(fresh.store));
    expect(om.nextSeq).toBe(fresh.om.nextSeq);
  });

  it("a preview changes nothing: no order, no id, no sequence number", () => {
    const { store, om } = setup();
    const before = orders(store);
    const seq = om.nextSeq;
    const preview = om.preview(token, NEXT, 10);
    expect(preview.result.places.map((p) => p.clientOrderId)).toEqual(["", "", ""]);
    expect(orders(store)).toEqual(before);
    expect(om.nextSeq).toBe(seq);
  });

  it("diffs again when the token's orders changed since the preview", () => {
    const { store, om } = setup();
    const preview = om.preview(token, NEXT, 10);
    // The queued ask goes on the wire meanwhile: it can no longer be superseded, only waited for.
    const ask = store.live(TOKEN).find((o) => o.side === "sell");
    markPlacementSent(store, ask?.clientOrderId ?? "", 5);
    store.reads = 0;
    const intents = om.diff(token, NEXT, 10, preview);
    expect(store.reads).toBe(1);
    expect(intents.map((i) => i.kind)).toEqual(["cancel", "place", "place"]); // no ask placed
  });

  it("ignores a preview of other desired quotes", () => {
    const { store, om } = setup();
    const preview = om.preview(token, NEXT, 10);
    const fewer = NEXT.slice(0, 1);
    store.reads = 0;
    const intents = om.diff(token, fewer, 10, preview);
    expect(store.reads).toBe(1);
    expect(intents.filter((i) => i.kind === "place")).toHaveLength(1);
  });
});
