import { describe, expect, it } from "vitest";
import type { PlaceOrderRequest } from "../../../src/core/types.js";
import type { ListedMarketStatus, MarketRecordStatus } from "../../../src/engine/ports.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import { CROWD, Harness } from "../engine/support/harness.js";
import { testSign } from "../engine/support/sign.js";

/*
 * review22 r3 — f48c0a8 makes the open-market sweep take every OPEN market's feeTakerBps from its
 * once-a-period list. The list can lag the record (the sweep's own #confirm says so for the status:
 * "a list that disagrees with the record (served stale after a resume, say)"), and for the status a
 * list alone never holds (nor, for a market held closed, reopens) a market: its record is read first.
 * The fee path takes the list's word alone, in both directions. So once a bad_signature's record
 * read has learnt the market's new fee, each period of a list still showing the old one puts the
 * old fee back: a market held for a fee above the cap is let go ("within the cap again: quoted") and
 * its placements are signed with the stale fee and refused bad_signature — each counted towards the
 * wallet-wide error-rate halt, the very thing the fee hold is there to avoid (fee-cap.ts) — then held
 * again by the next recheck, every period while the list lags. Before f48c0a8 the hold stayed.
 */

const RECHECK_MS = 12_000; // over FEE_RECHECK_EVERY_MS: each period's refusals get their own read

function lagging() {
  const state = { fee: 0, listFee: 0, signed: new Map<string, number | null>() };
  const h = new Harness({
    latencyMs: 50,
    options: { marketRecheckMs: RECHECK_MS },
    sign: (markets) => async (i, market) => {
      state.signed.set(i.clientOrderId, market === undefined ? null : market.feeTakerBps);
      return testSign(i, markets);
    },
  });
  const place = h.exchange.place.bind(h.exchange);
  h.exchange.place = async (req: PlaceOrderRequest): Promise<PlaceOrderOutcome> => {
    if (state.signed.get(req.clientOrderId ?? "") === state.fee) return place(req);
    const error = new ExchangeError({
      code: "bad_signature",
      message: "EIP-712 recovery failed",
      outcome: "rejected",
      endpoint: "POST /api/orders/place",
      httpStatus: 400,
    });
    return { kind: "rejected", code: "bad_signature", retryable: false, error };
  };
  // The record says the fee now; the list (GET /api/markets) still serves the old one.
  h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => ({
    status: "OPEN",
    feeTakerBps: state.fee,
  });
  h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
    h.venue.markets().map((m) => ({ marketId: m.marketId, status: m.status, feeTakerBps: state.listFee }));
  return { h, state };
}

function pullBestBid(h: Harness, tokenId: string): void {
  const best = h.venue
    .openOrders(CROWD)
    .filter((o) => o.tokenId === tokenId && o.side === "buy")
    .sort((x, y) => Number(y.price - x.price))[0];
  if (best !== undefined) h.venue.cancel(CROWD, best.id);
}

const badSignatures = (h: Harness) =>
  h.eventsOf("place_outcome").filter((e) => e.code === "bad_signature").length;

describe("review r3: the sweep's list fee lagging the market's record", () => {
  it("a fee hold learnt from the record is not lifted each period by a list still showing the old fee", async () => {
    const { h, state } = lagging();
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    for (const p of ["0.47", "0.46", "0.45", "0.44", "0.43", "0.42", "0.41", "0.40", "0.39"])
      h.crowdOrder(a, "buy", p);
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.botQuotes(a)).toHaveLength(2);

    // The operator raises the fee above the cap: the record says so at once, the list lags.
    state.fee = 1500;
    pullBestBid(h, a);
    await h.run(1_000);
    expect(badSignatures(h)).toBeGreaterThan(0); // the first refusals: how mm learns it
    expect(h.botQuotes(a)).toEqual([]); // held by the recheck's record
    const learnt = badSignatures(h);

    // Three periods of a list still at 0, the book moving meanwhile.
    for (let i = 0; i < 3; i++) {
      await h.run(RECHECK_MS);
      pullBestBid(h, a);
      await h.run(1_000);
    }
    expect(
      h.logs.records().filter((r) => r.msg === "market's feeTakerBps is within the cap again: quoted"),
    ).toEqual([]);
    expect(badSignatures(h)).toBe(learnt);
    expect(h.botQuotes(a)).toEqual([]);
  });

  it("a fee within the cap learnt from the record is not put back by a lagging list (refusals every period)", async () => {
    const { h, state } = lagging();
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    for (const p of ["0.47", "0.46", "0.45", "0.44", "0.43", "0.42", "0.41", "0.40", "0.39"])
      h.crowdOrder(a, "buy", p);
    const starting = h.engine.start();
    await h.run(500);
    await starting;

    state.fee = 30;
    pullBestBid(h, a);
    await h.run(2_000);
    expect(h.botQuotes(a)).toHaveLength(2); // re-signed with 30 after the recheck
    const learnt = badSignatures(h);

    for (let i = 0; i < 3; i++) {
      await h.run(RECHECK_MS);
      pullBestBid(h, a);
      await h.run(1_000);
    }
    expect(badSignatures(h)).toBe(learnt);
    expect([...state.signed.values()].at(-1)).toBe(30);
  });
});
