import { describe, expect, it } from "vitest";
import type { ListedMarketStatus, MarketRecordStatus } from "../../../src/engine/ports.js";
import { feeNotingSigner, pullBestBid, refuseUnlessSignedWith } from "./support/fee-fakes.js";
import { Harness } from "./support/harness.js";

/*
 * review22 r3 (the fix: the sweep reads the record of a market its list shows with another fee than
 * the one held, and takes the record's fee, never the list's) — f48c0a8 made the open-market sweep take every OPEN market's feeTakerBps from its
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
  const state = {
    fee: 0,
    listFee: 0 as number | null | undefined,
    signed: new Map<string, number | null>(),
    reads: 0,
    /** The next record reads that fail. */
    failing: 0,
  };
  const h = new Harness({
    latencyMs: 50,
    options: { marketRecheckMs: RECHECK_MS },
    sign: feeNotingSigner(state.signed),
  });
  refuseUnlessSignedWith(h, state.signed, () => state.fee);
  // The record says the fee now; the list (GET /api/markets) still serves the old one.
  h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => {
    state.reads++;
    if (state.failing > 0) {
      state.failing--;
      throw new Error("socket hang up");
    }
    return { status: "OPEN", feeTakerBps: state.fee };
  };
  h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
    h.venue.markets().map((m) => ({
      marketId: m.marketId,
      status: m.status,
      ...(state.listFee === undefined ? {} : { feeTakerBps: state.listFee }),
    }));
  return { h, state };
}

const badSignatures = (h: Harness) =>
  h.eventsOf("place_outcome").filter((e) => e.code === "bad_signature").length;

/** lagging(), its first token quoted against a crowd at 0.48/0.52, the engine started. */
async function quotingLagging() {
  const { h, state } = lagging();
  const [a] = h.tokens();
  if (a === undefined) throw new Error("no token");
  h.crowdQuote(a, "0.48", "0.52");
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  return { h, state, a };
}

describe("open-market sweep: its list's fee lagging the market's record", () => {
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

  it("a list whose fee lags is read against the record each period, said once at info", async () => {
    const { h, state, a } = await quotingLagging();
    // The list shows the fee held (0): no difference, no read.
    await h.run(RECHECK_MS * 2);
    expect(state.reads).toBe(0);
    // The list says 30, the record still 0 (the record lags the list, or the list is wrong): not taken.
    state.listFee = 30;
    await h.run(RECHECK_MS * 3);
    expect(state.reads).toBe(3);
    expect([...state.signed.values()].every((f) => f === 0)).toBe(true);
    expect(h.logs.text()).not.toContain("market's feeTakerBps changed");
    const lag = "the market list shows another feeTakerBps than the market's record";
    expect(h.logs.records().filter((r) => String(r.msg).startsWith(lag))).toHaveLength(1);
    // The record comes to say 30: taken at the next period's read.
    state.fee = 30;
    await h.run(RECHECK_MS);
    expect(h.logs.text()).toContain(
      "market's feeTakerBps changed (its record, read by the open-market sweep)",
    );
    expect(h.botQuotes(a)).toHaveLength(2);
  });

  it("a list entry with no fee, or a null one, is no difference: no read, the fee held kept", async () => {
    const { h, state, a } = await quotingLagging();
    state.fee = 30; // the record would say 30: only a read of it would change the fee
    state.listFee = undefined;
    await h.run(RECHECK_MS * 2);
    state.listFee = null;
    await h.run(RECHECK_MS * 2);
    expect(state.reads).toBe(0);
    expect(h.logs.text()).not.toContain("market's feeTakerBps changed");
    expect(h.botQuotes(a)).toHaveLength(2);
  });

  it("a record read that fails leaves the fee held, the list's not taken; read again next period", async () => {
    const { h, state, a } = await quotingLagging();
    state.fee = 1500;
    state.listFee = 1500;
    state.failing = 1;
    await h.run(RECHECK_MS);
    expect(state.reads).toBe(1);
    expect(h.logs.text()).not.toContain("market's feeTakerBps changed");
    expect(h.botQuotes(a)).toHaveLength(2); // not held on the list's word
    await h.run(RECHECK_MS);
    expect(state.reads).toBe(2);
    expect(h.botQuotes(a)).toEqual([]); // held once its record says 1500
    expect(badSignatures(h)).toBe(0);
  });
});
