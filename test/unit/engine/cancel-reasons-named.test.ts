import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import { namedCancels } from "../../../src/engine/cancel-reasons.js";
import type { PlaceIntent } from "../../../src/execution/intents.js";
import { OrderManager } from "../../../src/execution/order-manager.js";
import { applyPlaceOutcome, markPlacementSent } from "../../../src/execution/order-manager-outcomes.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { quoteDecision } from "../../../src/risk/decision.js";
import { MARKET, TOKEN } from "../execution/reconcile-support.js";

/*
 * namedCancels names the diff's `not_desired` cancels by what emptied the level. An open order's
 * cancel becomes risk_limit (the guard dropped the level) or requote (the in-flight fit held its
 * replacement). A queued placement withdrawn unsent (review 22: it was always `superseded`) becomes
 * risk_limit for the guard's drop and superseded for the fit's hold (a newer quote for the level
 * replaced it; it only waits), and stays not_desired when the strategy simply stopped quoting.
 */

const token = { tokenId: TOKEN, marketId: MARKET, tickMicro: 10_000 };
const bid: DesiredQuote = { side: "buy", level: 0, priceMicro: 480_000, sizeMicro: 10_000_000n };
const ask: DesiredQuote = { side: "sell", level: 0, priceMicro: 520_000, sizeMicro: 10_000_000n };
const market = { tokenId: TOKEN, marketId: MARKET };

/** A bid resting open and an ask still queued (never sent), then a diff with no desired quote. */
function emptied() {
  const store = new OrderStore();
  const om = new OrderManager({ session: "s1", store });
  const [b] = om.diff(token, [bid], 0) as PlaceIntent[];
  const id = b?.clientOrderId ?? "";
  markPlacementSent(store, id, 0);
  applyPlaceOutcome(
    store,
    id,
    {
      kind: "accepted",
      result: { orderId: "ob", status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] },
      requestId: undefined,
    },
    0,
  );
  om.diff(token, [bid, ask], 1); // the ask is queued
  const intents = om.diff(token, [], 2);
  return { store, intents };
}

const reasons = (is: readonly { kind: string; reason?: string }[]) => is.map((i) => `${i.kind} ${i.reason}`);

describe("namedCancels", () => {
  it("leaves a level the strategy stopped quoting not_desired, open or queued", () => {
    const { store, intents } = emptied();
    expect(reasons(intents)).toEqual(["cancel not_desired", "cancel not_desired"]);
    expect(namedCancels(intents, store, [], [])).toBe(intents);
  });

  it("names the guard's drops risk_limit, open or queued", () => {
    const { store, intents } = emptied();
    const guard = [
      quoteDecision("order_size_exceeded", "drop", market, bid),
      quoteDecision("order_size_exceeded", "drop", market, ask),
    ];
    expect(reasons(namedCancels(intents, store, guard, []))).toEqual([
      "cancel risk_limit",
      "cancel risk_limit",
    ]);
  });

  it("names the fit's holds requote for an open order, superseded for a queued placement", () => {
    const { store, intents } = emptied();
    const fit = [
      quoteDecision("in_flight_held", "drop", market, bid),
      quoteDecision("in_flight_held", "drop", market, ask),
    ];
    const named = namedCancels(intents, store, [], fit);
    // The withdrawn ask is listed first: retires come before the diff's cancels of open orders.
    expect(named.map((i) => (i.kind === "cancel" ? [i.orderId, i.reason] : []))).toEqual([
      [undefined, "superseded"],
      ["ob", "requote"],
    ]);
  });
});
