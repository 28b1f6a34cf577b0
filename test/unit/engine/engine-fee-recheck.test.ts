import { describe, expect, it } from "vitest";
import type { PlaceOrderRequest } from "../../../src/core/types.js";
import { FEE_RECHECK_EVERY_MS } from "../../../src/engine/fee-recheck.js";
import { MARKET_REFUSED_COOLDOWN_MS } from "../../../src/engine/market-refusals.js";
import type { MarketRecordStatus } from "../../../src/engine/ports.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import { feeNotingSigner, pullBestBid, refuseUnlessSignedWith } from "./support/fee-fakes.js";
import { Harness } from "./support/harness.js";

/**
 * The spec on `bad_signature`: "the usual cause is feeRateBps not equal to the market's
 * feeTakerBps". mm reads feeTakerBps with the market list at start; an operator changing a market's
 * fee then had every order there refused until a restart, the error-rate halt tripping again after
 * each cool-down. A `bad_signature` now re-reads the market's record (fee-recheck.ts), and the next
 * placement is signed with the fee it says.
 */

/** An exchange that refuses, `bad_signature`, a placement not signed with the market's fee now. */
function feeCheckingExchange(initialFee: number) {
  const state = { fee: initialFee, reads: 0, signed: new Map<string, number | null>() };
  const h = new Harness({ sign: feeNotingSigner(state.signed) });
  refuseUnlessSignedWith(h, state.signed, () => state.fee);
  h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => {
    state.reads++;
    return { status: "OPEN", feeTakerBps: state.fee };
  };
  return { h, state };
}

async function quotingWithDepth(h: Harness, tokenId: string): Promise<void> {
  h.crowdQuote(tokenId, "0.48", "0.52");
  for (const p of ["0.47", "0.46", "0.45", "0.44", "0.43", "0.42", "0.41"]) h.crowdOrder(tokenId, "buy", p);
  await h.engine.start();
  await h.run();
  expect(h.botQuotes(tokenId)).toHaveLength(2);
}

const badSignatures = (h: Harness) =>
  h.eventsOf("place_outcome").filter((e) => e.code === "bad_signature").length;

describe("engine: a placement refused bad_signature re-reads the market's fee", () => {
  it("signs the next placement with the fee the record says, and the quotes rest again", async () => {
    const { h, state } = feeCheckingExchange(0);
    const [a] = h.tokens();
    await quotingWithDepth(h, a);
    expect(state.reads).toBe(0);

    // The operator raises the fee; the crowd moves, the engine requotes with the fee it knew.
    state.fee = 30;
    pullBestBid(h, a);
    await h.run(1_000);
    expect(badSignatures(h)).toBeGreaterThan(0);
    expect(state.reads).toBe(1);
    // The record's fee is taken, and the market requoted with it: accepted, resting.
    await h.run(1_000);
    expect(h.botQuotes(a)).toHaveLength(2);
    expect([...state.signed.values()].at(-1)).toBe(30);
    expect(h.logs.records().some((r) => String(r.msg).startsWith("market's feeTakerBps changed"))).toBe(true);
    expect(h.logs.records().some((r) => r.msg === "risk: error_rate_halt")).toBe(false);
  });

  it("takes a changed fee from the record read for another refusal (market_not_open) too", async () => {
    const { h, state } = feeCheckingExchange(0);
    const [a] = h.tokens();
    await quotingWithDepth(h, a);
    // The operator pauses the market and raises its fee; the first placement after is refused
    // market_not_open, and the record read for that refusal says OPEN again, at the new fee.
    state.fee = 30;
    const checked = h.exchange.place.bind(h.exchange);
    let paused = true;
    h.exchange.place = async (req: PlaceOrderRequest): Promise<PlaceOrderOutcome> => {
      if (!paused) return checked(req);
      paused = false;
      const error = new ExchangeError({
        code: "market_not_open",
        message: "market is not open",
        outcome: "rejected",
        endpoint: "POST /api/orders/place",
        httpStatus: 409,
      });
      return { kind: "rejected", code: "market_not_open", retryable: false, error };
    };
    pullBestBid(h, a);
    await h.run(1_000);
    expect(state.reads).toBe(1);
    // Quoting again after the refusal's cool-down: signed with the new fee at once, none refused.
    await h.run(MARKET_REFUSED_COOLDOWN_MS + 1_000);
    expect(badSignatures(h)).toBe(0);
    expect([...state.signed.values()].at(-1)).toBe(30);
    expect(h.botQuotes(a)).toHaveLength(2);
  });

  it("reads at most once per FEE_RECHECK_EVERY_MS, however many placements it refused", async () => {
    const { h, state } = feeCheckingExchange(0);
    const [a] = h.tokens();
    await quotingWithDepth(h, a);
    // A refusal for another reason (the record's fee is the one signed): the read changes nothing.
    h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => {
      state.reads++;
      return { status: "OPEN", feeTakerBps: 0 };
    };
    state.fee = 30;
    for (let i = 0; i < 4; i++) {
      pullBestBid(h, a);
      await h.run(1_000);
    }
    expect(badSignatures(h)).toBeGreaterThan(2);
    expect(state.reads).toBe(1);
    await h.run(FEE_RECHECK_EVERY_MS);
    pullBestBid(h, a);
    await h.run(1_000);
    expect(state.reads).toBe(2);
    expect(h.botQuotes(a)).toEqual([]);
  });
});
