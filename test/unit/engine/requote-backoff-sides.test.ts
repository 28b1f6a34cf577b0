import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import { USDC } from "../../../src/venue/ledger.js";
import { parseStrategyConfig } from "../../../strategies/registry.js";
import { BOT, Harness, T0 } from "./support/harness.js";

/*
 * The requote timer's back-off for a level whose placement keeps being refused, on an A–S token
 * that reads the clock: on a quiet book its quotes move with T − t, so the timer's back-off steps
 * requote the *other* side. The bid the wallet cannot fund must not be re-sent every ~period again
 * because of them, each refusal counted towards the wallet-wide error-rate halt: the halt would
 * trip, exactly what the back-off is there to prevent (README "Time-driven requotes": "7 refusals
 * in the first minute, then 2 a minute").
 *
 * δ/2 = γσ²τ/2 + (1/γ)ln(1 + γ/k) ≈ 0.0033·τ + 0.001: the quotes move a tick about every 3 s; at
 * τ = 120 s they are ~0.10 / ~0.90, inside (0, 1), around the crowd's mid 0.50.
 */
async function refusedBidRun(crowdAsks: boolean) {
  const h = new Harness({
    configured: parseStrategyConfig({
      name: "avellaneda-stoikov",
      params: { gamma: 2, k: 1000, orderSize: "10", sigma: Math.sqrt(0.0033) },
    }),
    closesAt: () => T0 + 120_000,
    options: { requoteIntervalMs: 1_000 },
  });
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.40", "0.60");
  // The crowd also rests asks at every tick the bot's ask passes through (0.61 … 0.98): a quiet
  // book, nothing of the crowd's moves for the whole run.
  if (crowdAsks) for (let c = 61; c <= 98; c++) h.crowdOrder(yes, "sell", (c / 100).toFixed(2), "50");
  const { available } = h.venue.balances(BOT).usdc;
  h.venue.debit(BOT, USDC, available - toWei("0.5", "usdc")); // a 10-share bid at ≥ 0.10 needs ≥ 1 USDC
  await h.engine.start();
  await h.run();
  await h.run(60_000);
  const refusedAt = h
    .eventsOf("place_outcome")
    .filter((e) => e.code === "insufficient_funds")
    .map((e) => e.atMs - T0);
  const acceptedAsks = h
    .eventsOf("place_outcome")
    .filter((e) => e.outcome === "accepted" && e.intent.quote.side === "sell").length;
  const halts = h.eventsOf("decision").filter((e) => e.decision.reason === "error_rate_halt");
  return { refusedAt, acceptedAsks, halts };
}

describe("refusal back-off vs the other side's accepted requotes (review r2a)", () => {
  /*
   * bf217af kept the back-off per token, and an accepted placement of the token ended the run:
   * refused at 0, 0, 1, 3, 3, 4, 6, 6, 7, 9, 9 s, and the wallet halted at 9 s.
   */
  it("a bid refused insufficient_funds does not trip the error-rate halt while the ask moves on the clock", async () => {
    const { refusedAt, acceptedAsks, halts } = await refusedBidRun(false);
    // The ask did move on the clock (precondition of the scenario): re-placed every ~3 s.
    expect(acceptedAsks).toBeGreaterThanOrEqual(3);
    expect(halts.map((e) => e.atMs - T0)).toEqual([]);
    expect(refusedAt.filter((t) => t < 30_000).length).toBeLessThan(10);
  });
});

describe("refusal back-off vs our own cancelled ask netted out of a crowd level (review r3)", () => {
  /*
   * 4511a12 ended a run on a change of the book without our orders; but when the feed's frame
   * removing our cancelled ask arrives before the cancel's answer, the netted book shows the crowd's
   * level less our size, and the next frame shows it back: two "changes" of a book the crowd never
   * touched at each ask requote, the bid back to one refusal per period, the halt at 9 s. A book
   * frame no longer ends a run.
   */
  it("a bid refused insufficient_funds does not halt the wallet while the ask moves through crowd-held prices", async () => {
    const { refusedAt, acceptedAsks, halts } = await refusedBidRun(true);
    expect(acceptedAsks).toBeGreaterThanOrEqual(3);
    expect(halts.map((e) => e.atMs - T0)).toEqual([]);
    expect(refusedAt.filter((t) => t < 30_000).length).toBeLessThan(10);
  });
});
