import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import { USDC } from "../../../src/venue/ledger.js";
import { parseStrategyConfig } from "../../../strategies/registry.js";
import { BOT, Harness, T0 } from "./support/harness.js";

/*
 * review21 r3 — 4511a12: a book frame counts as a market change only when the book without our
 * orders (marketBook) changes. But marketBook takes out every order the store holds IN_BOOK,
 * "cancelling" included: when the feed's frame removing our cancelled ask arrives before the
 * cancel's answer (the venue broadcasts as it cancels; here the SimVenue does so synchronously),
 * the net book shows the crowd's level less our size — a "change" — and the next frame, after the
 * answer, shows it back: another. On a book where our moving ask rests at a crowd price, each of
 * its clock-driven requotes restarts the refused bid's back-off run, and the bid goes back to one
 * refusal per period: the error-rate halt trips, as in r2a's defect 1.
 */
describe("refusal back-off vs our own cancelled ask netted out of a crowd level (review r3)", () => {
  it("a bid refused insufficient_funds does not halt the wallet while the ask moves through crowd-held prices", async () => {
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
    for (let c = 61; c <= 98; c++) h.crowdOrder(yes, "sell", (c / 100).toFixed(2), "50");
    const { available } = h.venue.balances(BOT).usdc;
    h.venue.debit(BOT, USDC, available - toWei("0.5", "usdc"));
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
    expect(acceptedAsks).toBeGreaterThanOrEqual(3);
    const halts = h.eventsOf("decision").filter((e) => e.decision.reason === "error_rate_halt");
    // Today: refused at 0, 0, 1, 3, 3, 4, 6, 6, 7, 9, 9 s — each ask requote (every ~3 s) shows
    // the crowd's level at the old and new ask price less our 10 (the cancelling old ask already
    // gone from the frame, the placing new one not yet in it), two "changes" of a book the crowd
    // never touched — and the wallet halts at 9 s.
    expect(halts.map((e) => e.atMs - T0)).toEqual([]);
    expect(refusedAt.filter((t) => t < 30_000).length).toBeLessThan(10);
  });
});
