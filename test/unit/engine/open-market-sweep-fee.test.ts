import { describe, expect, it } from "vitest";
import { assertFeeBps } from "../../../src/core/fees.js";
import type { ListedMarketStatus } from "../../../src/engine/ports.js";
import { SWEEP_HOW } from "../../../src/engine/sweep-words.js";
import { Harness } from "./support/harness.js";
import { testSign } from "./support/sign.js";
import { twoQuoted } from "./support/sweep-rig.js";

/*
 * The open-market sweep's list (GET /api/markets, once a period) carries each market's feeTakerBps,
 * and the sweep now takes it (fee-recheck.ts takeRecordFee). Before, it dropped it: a market held
 * for a fee above the cap (fee-cap.ts) was let go only by a read that a bad_signature, a refusal or
 * a drift prompted, none of which a market with nothing placed there makes, so the hold lasted until
 * a restart (review22, rmark); and a fee raised above the cap was learnt only from a refused order.
 * The list's fee is not taken itself (it can lag the record: open-market-sweep-fee-lag.test.ts): a
 * fee there other than the one held has the market's record read, and the record's fee is taken.
 */

const RECHECK_MS = 5_000;

/**
 * A harness of two markets whose list and records say `fees`' fee per market (`reads`: the markets
 * whose record was read), its signer checking the fee as the real one does.
 */
function listing(fees: Map<string, number>, start: (i: number) => number) {
  const signed: { marketId: string; fee: number | null | undefined }[] = [];
  const reads: string[] = [];
  const h = new Harness({
    markets: 2,
    latencyMs: 50,
    fee: start,
    options: { marketRecheckMs: RECHECK_MS },
    sign: (markets) => async (i, market) => {
      signed.push({ marketId: i.marketId, fee: market?.feeTakerBps });
      assertFeeBps(market?.feeTakerBps ?? 0);
      return testSign(i, markets);
    },
  });
  h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
    h.venue
      .markets()
      .map((m) => ({ marketId: m.marketId, status: m.status, feeTakerBps: fees.get(m.marketId) ?? 0 }));
  h.exchange.marketRecord = async ({ marketId }) => {
    reads.push(marketId);
    return { status: "OPEN", feeTakerBps: fees.get(marketId) ?? 0 };
  };
  return { h, signed, reads };
}

const signFailures = (h: Harness) =>
  h.logs.records().filter((r) => r.msg === "placement not sent: signing failed").length;
const failedPlacements = (h: Harness) => h.eventsOf("place_outcome").filter((e) => e.code !== undefined);

describe("open-market sweep: the list's feeTakerBps", () => {
  it("lifts a fee hold within a period of the fee coming back within the cap; the market is signed with it", async () => {
    const fees = new Map([
      ["m1", 1500],
      ["m2", 0],
    ]);
    const { h, signed, reads } = listing(fees, (i) => (i === 1 ? 1500 : 0));
    const [a] = h.tokens(1);
    const [b] = h.tokens(2);
    h.crowdQuote(a, "0.48", "0.52");
    h.crowdQuote(b, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.botQuotes(a)).toEqual([]);
    expect(h.botQuotes(b)).toHaveLength(2);
    // Still above the cap at the next period: still held, no second warning.
    await h.run(RECHECK_MS);
    expect(h.botQuotes(a)).toEqual([]);
    expect(reads).toEqual([]); // the list shows the fees held: no record read
    fees.set("m1", 30);
    await h.run(RECHECK_MS);
    expect(h.botQuotes(a)).toHaveLength(2);
    expect(reads).toEqual(["m1"]); // the list's 30 had its record read, whose 30 was taken
    expect(h.logs.text()).toContain(`market's feeTakerBps changed (its record, read ${SWEEP_HOW})`);
    expect(
      h.logs.records().filter((r) => r.msg === "market's feeTakerBps is within the cap again: quoted"),
    ).toHaveLength(1);
    expect(new Set(signed.filter((s) => s.marketId === "m1").map((s) => s.fee))).toEqual(new Set([30]));
    expect(signFailures(h)).toBe(0);
  });

  it("holds a quoted market whose fee the list shows raised above the cap, before any order there fails", async () => {
    const fees = new Map([
      ["m1", 0],
      ["m2", 0],
    ]);
    const { h, reads } = listing(fees, () => 0);
    const { a, b } = await twoQuoted(h);
    fees.set("m1", 1500);
    await h.run(RECHECK_MS);
    expect(h.botQuotes(a)).toEqual([]);
    expect(reads).toEqual(["m1"]);
    expect(h.botQuotes(b)).toHaveLength(2);
    expect(
      h.logs.records().filter((r) => String(r.msg).startsWith("market's feeTakerBps 1500 is above the cap")),
    ).toHaveLength(1);
    // Its quotes cancelled for the hold, nothing signed with the fee, nothing refused.
    expect(h.eventsOf("cancel_requested").map((e) => e.reason)).toEqual([
      "market_unquotable",
      "market_unquotable",
    ]);
    expect(signFailures(h)).toBe(0);
    expect(failedPlacements(h)).toEqual([]);
    expect(h.logs.text()).not.toContain("error_rate_halt");
  });
});
