import { describe, expect, it } from "vitest";
import type { DesiredQuote, TokenMarket } from "../../../src/core/trading.js";
import type { EngineCore } from "../../../src/engine/engine-core.js";
import { fitToLiveOrders } from "../../../src/engine/engine-in-flight.js";
import type { TokenSlot } from "../../../src/engine/engine-tokens.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import { OrderManager } from "../../../src/execution/order-manager.js";
import { applyPlaceOutcome, markPlacementSent } from "../../../src/execution/order-manager-outcomes.js";
import type { TrackedOrder } from "../../../src/execution/order-state.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { parseRiskConfig } from "../../../src/risk/config.js";
import { RiskGuard } from "../../../src/risk/guard.js";

/*
 * When the caps bind, the in-flight fit previews the step's diff to learn which placements it makes
 * (engine-in-flight.ts). If the fit then changes nothing, the order manager applies that preview:
 * one diff per quoting step, not two.
 */

/** A real store counting the reads of a token's live orders (each diff worked out reads them once). */
class CountingStore extends OrderStore {
  reads = 0;
  override live(tokenId: string): TrackedOrder[] {
    this.reads++;
    return super.live(tokenId);
  }
}

const market: TokenMarket = {
  tokenId: "11",
  marketId: "1",
  conditionId: "0x01",
  outcome: "YES",
  outcomeIndex: 0,
  tickMicro: 10_000,
  minSizeMicro: 1_000_000n,
  feeTakerBps: null,
  negRisk: false,
  closesAtMs: undefined,
  status: "OPEN",
};
const token = { tokenId: market.tokenId, marketId: market.marketId, tickMicro: market.tickMicro };
const flat = { positionMicro: 0n, marketGrossMicro: 0n, totalGrossMicro: 0n, heldMicro: 0n };
const accepted: PlaceOrderOutcome = {
  kind: "accepted",
  result: { orderId: "o1", status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] },
  requestId: undefined,
};
const bid = (priceMicro: number): DesiredQuote => ({
  side: "buy",
  level: 0,
  priceMicro,
  sizeMicro: 10_000_000n,
});

function setup(): { core: EngineCore; slot: TokenSlot; store: CountingStore } {
  const store = new CountingStore();
  const om = new OrderManager({ session: "s1", store });
  const risk = new RiskGuard(parseRiskConfig({ inventory: { perMarket: { soft: "15", hard: "15" } } }));
  // fitToLiveOrders reads the store, the order manager and the guard of the core, the market of the slot.
  const core = { store, om, risk } as unknown as EngineCore;
  return { core, slot: { market } as unknown as TokenSlot, store };
}

describe("engine: the in-flight fit's diff is the step's diff", () => {
  it("hands the order manager the diff it previewed when the fit changes nothing", () => {
    const { core, slot, store } = setup();
    core.om.diff(token, [bid(470_000)], 0); // a bid of 10 queued, not yet sent
    // The requote's 10 plus the queued 10 pass the cap of 15, so the fit previews the diff: the
    // queued bid is superseded (never sent), so the new one fits as it is.
    const allowed = [bid(480_000)];
    const fit = fitToLiveOrders(core, slot, token, flat, allowed, 1);
    expect(fit.decisions).toEqual([]);
    expect(fit.desired).toBe(allowed);
    expect(fit.preview).toBeDefined();
    const reads = store.reads;
    const intents = core.om.diff(token, fit.desired, 1, fit.preview);
    expect(store.reads).toBe(reads); // the diff was not worked out again
    expect(intents.map((i) => i.kind)).toEqual(["cancel", "place"]);
  });

  it("leaves the order manager to diff the fitted quotes when the fit clipped one", () => {
    const { core, slot } = setup();
    const [placed] = core.om.diff(token, [bid(470_000)], 0);
    const cid = placed?.kind === "place" ? placed.clientOrderId : "";
    markPlacementSent(core.store, cid, 0);
    applyPlaceOutcome(core.store, cid, accepted, 0);
    // Resting: it stays live until its cancel lands, so the replacement is clipped to the 5 left.
    const fit = fitToLiveOrders(core, slot, token, flat, [bid(480_000)], 1);
    expect(fit.decisions.map((d) => d.reason)).toEqual(["in_flight_clipped"]);
    expect(fit.preview).toBeUndefined();
  });

  it("previews nothing when every live order and desired quote fit anyway", () => {
    const { core, slot, store } = setup();
    const fit = fitToLiveOrders(core, slot, token, flat, [bid(480_000)], 1);
    expect(fit.preview).toBeUndefined();
    expect(store.reads).toBe(1);
  });
});
