import { describe, expect, it } from "vitest";
import { clientOrderId } from "../../../src/core/ids.js";
import type { DesiredQuote } from "../../../src/core/trading.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import type { PlaceIntent } from "../../../src/execution/intents.js";
import { OrderManager } from "../../../src/execution/order-manager.js";
import { MISSING_LIVE_URGENCY } from "../../../src/execution/order-manager-diff.js";
import {
  applyCancelAllOutcome,
  applyCancelOutcome,
  applyPlaceOutcome,
  markPlacementDropped,
  markPlacementSent,
} from "../../../src/execution/order-manager-outcomes.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { MARKET, TOKEN } from "./reconcile-support.js";

const token = { tokenId: TOKEN, marketId: MARKET, tickMicro: 10_000 };
const bid: DesiredQuote = { side: "buy", level: 0, priceMicro: 480_000, sizeMicro: 10_000_000n };
const ask: DesiredQuote = { side: "sell", level: 0, priceMicro: 520_000, sizeMicro: 10_000_000n };

const err = (code: string, outcome: "rejected" | "retryable" | "ambiguous") =>
  new ExchangeError({ code, message: code, outcome, endpoint: "POST /api/orders/place" });
const accepted = (orderId: string): PlaceOrderOutcome => ({
  kind: "accepted",
  result: { orderId, status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] },
  requestId: undefined,
});

function setup() {
  const store = new OrderStore();
  return { store, om: new OrderManager({ session: "s1", store }) };
}

describe("OrderManager", () => {
  it("mints deterministic clientOrderIds with a per-manager monotonic seq", () => {
    const { om } = setup();
    const intents = om.diff(token, [bid, ask], 0) as PlaceIntent[];
    expect(intents.map((i) => i.clientOrderId)).toEqual([
      clientOrderId({ session: "s1", tokenId: TOKEN, side: "buy", level: 0, seq: 1 }),
      clientOrderId({ session: "s1", tokenId: TOKEN, side: "sell", level: 0, seq: 2 }),
    ]);
    expect(om.nextSeq).toBe(3);
  });

  it("a second diff before any answer repeats nothing", () => {
    const { om, store } = setup();
    const first = om.diff(token, [bid], 0) as PlaceIntent[];
    markPlacementSent(store, first[0]?.clientOrderId ?? "", 1);
    expect(om.diff(token, [bid], 2)).toEqual([]);
    expect(om.diff(token, [{ ...bid, priceMicro: 470_000 }], 3)).toEqual([]); // in flight: wait for the answer
  });

  it("cancel-replace after acceptance; the cancel is not repeated while in flight", () => {
    const { om, store } = setup();
    const [p] = om.diff(token, [bid], 0) as PlaceIntent[];
    const cid = p?.clientOrderId ?? "";
    markPlacementSent(store, cid, 1);
    applyPlaceOutcome(store, cid, accepted("o1"), 2);
    const moved = { ...bid, priceMicro: 470_000 };
    const intents = om.diff(token, [moved], 3);
    expect(intents.map((i) => i.kind)).toEqual(["cancel", "place"]);
    expect(intents[0]).toMatchObject({ clientOrderId: cid, orderId: "o1", reason: "requote" });
    expect(store.get(cid)?.state).toBe("cancelling");
    expect(om.diff(token, [moved], 4)).toEqual([]);
  });

  it("a superseded queued placement is retired and the queue told to drop it", () => {
    const { om, store } = setup();
    const [p] = om.diff(token, [bid], 0) as PlaceIntent[];
    const intents = om.diff(token, [{ ...bid, priceMicro: 470_000 }], 1);
    expect(intents[0]).toMatchObject({
      kind: "cancel",
      clientOrderId: p?.clientOrderId,
      orderId: undefined,
      reason: "superseded",
    });
    // Nothing of ours rests on the level (the placement it replaces was never sent): a missing quote.
    expect(intents[1]).toMatchObject({ kind: "place", urgencyTicks: MISSING_LIVE_URGENCY });
    expect(store.get(p?.clientOrderId ?? "")?.state).toBe("cancelled");
    expect(markPlacementDropped(store, p?.clientOrderId ?? "", 2)).toBe(true);
    expect(store.illegalTransitions).toBe(0);
  });

  it("a queued placement on a level no longer quoted is withdrawn `not_desired`, not superseded", () => {
    // Nothing replaced it (review 22): the engine names a risk limit's drop apart (namedCancels).
    const { om, store } = setup();
    const [p] = om.diff(token, [bid], 0) as PlaceIntent[];
    const intents = om.diff(token, [], 1);
    expect(intents).toEqual([
      {
        kind: "cancel",
        tokenId: TOKEN,
        marketId: MARKET,
        clientOrderId: p?.clientOrderId,
        orderId: undefined,
        reason: "not_desired",
      },
    ]);
    expect(store.get(p?.clientOrderId ?? "")?.state).toBe("cancelled");
  });

  it("cancelAllFor pulls open quotes and queued placements of one token only", () => {
    const { om, store } = setup();
    const other = { ...token, tokenId: "2002" };
    const [a] = om.diff(token, [bid], 0) as PlaceIntent[];
    markPlacementSent(store, a?.clientOrderId ?? "", 0);
    applyPlaceOutcome(store, a?.clientOrderId ?? "", accepted("oa"), 0);
    om.diff(token, [bid, ask], 1); // ask queued
    om.diff(other, [bid], 1);
    const out = om.cancelAllFor(TOKEN, "book_stale", 2);
    expect(out.map((c) => [c.orderId, c.reason])).toEqual([
      ["oa", "book_stale"],
      [undefined, "book_stale"],
    ]);
    expect(store.live("2002")).toHaveLength(1);
    expect(om.cancelMarket(MARKET, "market_not_open", 3)).toHaveLength(1); // the other token's queued one
  });

  it("killAll sends one wallet-wide cancel-all; its answer cancels what was open", () => {
    const { om, store } = setup();
    const [a] = om.diff(token, [bid], 0) as PlaceIntent[];
    const cid = a?.clientOrderId ?? "";
    markPlacementSent(store, cid, 0);
    applyPlaceOutcome(store, cid, accepted("oa"), 0);
    expect(om.killAll("kill_switch", 1)).toEqual([
      { kind: "cancel_all", marketId: undefined, reason: "kill_switch" },
    ]);
    expect(applyCancelAllOutcome(store, undefined, 2)).toBe(1);
    expect(store.get(cid)?.state).toBe("cancelled");
  });
});

describe("outcomes", () => {
  it("rejected (definite or retryable) → rejected; the level is placed afresh under a new id", () => {
    const { om, store } = setup();
    const [p] = om.diff(token, [bid], 0) as PlaceIntent[];
    const cid = p?.clientOrderId ?? "";
    markPlacementSent(store, cid, 0);
    const out = {
      kind: "rejected",
      code: "rate_limited",
      retryable: true,
      error: err("rate_limited", "retryable"),
    } as const;
    expect(applyPlaceOutcome(store, cid, out, 1)).toEqual({ applied: true, reconcile: false });
    const [again] = om.diff(token, [bid], 2) as PlaceIntent[];
    expect(again?.clientOrderId).not.toBe(cid);
  });

  it("an ambiguous placement is never turned into a second placement while unresolved", () => {
    const { om, store } = setup();
    const [p] = om.diff(token, [bid], 0) as PlaceIntent[];
    const cid = p?.clientOrderId ?? "";
    markPlacementSent(store, cid, 0);
    const eff = applyPlaceOutcome(
      store,
      cid,
      { kind: "ambiguous", error: err("exchange_transport_error", "ambiguous") },
      1,
    );
    expect(eff).toEqual({ applied: true, reconcile: true });
    for (let t = 2; t < 50; t++) {
      const q = { ...bid, priceMicro: 400_000 + (t % 7) * 10_000 };
      expect(om.diff(token, [q, ask], t).filter((i) => i.kind === "place" && i.quote.side === "buy")).toEqual(
        [],
      );
      expect(om.cancelAllFor(TOKEN, "book_stale", t).some((c) => c.clientOrderId === cid)).toBe(false);
    }
    // Resolved by the reconciler (found open by clientOrderId): now it is diffed like any order.
    store.reconcile({ clientOrderId: cid, orderId: "o1", state: "open", reason: "found_open" }, 60);
    const after = om.diff(token, [{ ...bid, priceMicro: 470_000 }], 61);
    expect(after.map((i) => i.kind)).toEqual(["cancel", "place"]);
  });

  it("cancel answers: ok → cancelled; retryable → open (cancelled again next diff); not_cancellable → reconcile", () => {
    const { om, store } = setup();
    const ids = (om.diff(token, [bid, ask], 0) as PlaceIntent[]).map((p) => p.clientOrderId);
    ids.forEach((c, i) => {
      markPlacementSent(store, c, 0);
      applyPlaceOutcome(store, c, accepted(`o${i}`), 0);
    });
    om.diff(token, [], 1);
    const [b = "", s = ""] = ids;
    expect(applyCancelOutcome(store, b, { ok: false, error: err("rate_limited", "retryable") }, 2)).toEqual({
      applied: true,
      reconcile: false,
    });
    expect(om.diff(token, [], 3).map((i) => i.kind === "cancel" && i.clientOrderId)).toEqual([b]);
    expect(
      applyCancelOutcome(store, s, { ok: false, error: err("not_cancellable", "rejected") }, 4).reconcile,
    ).toBe(true);
    expect(store.get(s)).toMatchObject({ state: "cancelling", needsReconcile: true });
    applyCancelOutcome(store, b, { ok: true }, 5);
    expect(store.get(b)?.state).toBe("cancelled");
    expect(() => applyCancelOutcome(store, b, { ok: false, error: new Error("bug") }, 6)).toThrow("bug");
  });
});
