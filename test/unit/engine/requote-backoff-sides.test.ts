import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import { USDC } from "../../../src/venue/ledger.js";
import { parseStrategyConfig } from "../../../strategies/registry.js";
import { BOT, Harness, T0 } from "./support/harness.js";

/*
 * review21 r2a — bf217af: the requote timer's back-off for a token whose placement keeps being
 * refused was per token, and an accepted placement of the token (`RequoteTimer.reset`) ended the
 * run; so did our own ask showing in the book feed (a "book change"). Now per (token, side, level),
 * ended by that level's accepted placement or a change of the market's book without our orders.
 * A–S reads the clock: on a quiet book its quotes move with T − t, so the timer's back-off steps
 * requote the *other* side (accepted), which resets the refused side's run to one period. The bid
 * the wallet cannot fund is then re-sent every ~period again, each refusal counted towards the
 * wallet-wide error-rate halt: the halt trips, exactly what the back-off is there to prevent (README
 * "Time-driven requotes": "7 refusals in the first minute, then 2 a minute").
 */
describe("refusal back-off vs the other side's accepted requotes (review r2a)", () => {
  it("a bid refused insufficient_funds does not trip the error-rate halt while the ask moves on the clock", async () => {
    // δ/2 = γσ²τ/2 + (1/γ)ln(1 + γ/k) ≈ 0.0033·τ + 0.001: the quotes move a tick about every 3 s;
    // at τ = 120 s they are ~0.10 / ~0.90, inside (0, 1), around the crowd's mid 0.50.
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
    // The ask did move on the clock (precondition of the scenario): re-placed every ~3 s.
    expect(acceptedAsks).toBeGreaterThanOrEqual(3);
    const halts = h.eventsOf("decision").filter((e) => e.decision.reason === "error_rate_halt");
    // The back-off's promise: a refusal that persists on a quiet book does not halt the wallet.
    // Today: refused at 0, 0, 1, 3, 3, 4, 6, 6, 7, 9, 9 s (each accepted ask resets the run to one
    // period) and the wallet halts at 9 s.
    expect(halts.map((e) => e.atMs - T0)).toEqual([]);
    expect(refusedAt.filter((t) => t < 30_000).length).toBeLessThan(10);
  });
});
