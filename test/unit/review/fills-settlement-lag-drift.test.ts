import { describe, expect, it } from "vitest";
import type { PositionsAt } from "../../../src/engine/ports.js";
import { Harness } from "../engine/support/harness.js";

/**
 * The spec: user_fill is "a match-time notice, emitted before on-chain settlement", and positions
 * (GET /api/me/positions) move at settlement. reconcile-positions.ts guards against that lag by
 * correcting only a drift "seen twice in a row", but two reconciles can run 250 ms apart (a
 * reconnect, an ambiguous answer, the 2 s follow-up while an unknown order is pending), well inside
 * a settlement window. The fill is then "corrected" away, and when settlement lands its shares come
 * back at the mark instead of the fill price: the fill's edge vanishes from PnL for good.
 */
describe("review fills: a fill still settling is not corrected away by two quick reconciles", () => {
  it("keeps the fill's position and its PnL when the positions read lags the user_fill by a few seconds", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    // From here the exchange's positions read shows the holdings as they were before the fill
    // (the fill is matched, not yet settled on chain).
    const real = h.exchange.positionsAt.bind(h.exchange);
    const before: PositionsAt = await real();
    let settled = false;
    h.exchange.positionsAt = async () => (settled ? real() : before);

    h.take(yes, "sell", "0.47", "104"); // our bid at 0.47 buys 4
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run();
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
    const pnlAfterFill = h.engine.status().pnlMicro; // 4 × (0.50 − 0.47) = 0.12
    expect(pnlAfterFill).toBe(120_000n);

    // Two reconciles within a second (a reconnect, then another trigger), settlement still pending.
    h.engine.onReconnect();
    await h.run(400);
    h.engine.onReconnect();
    await h.run(400);
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);

    // Settlement lands; later reconciles see the exchange agree.
    settled = true;
    await h.engine.reconcileNow();
    await h.engine.reconcileNow();
    await h.run(100);
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
    expect(h.engine.status().pnlMicro).toBe(pnlAfterFill);
    expect(h.eventsOf("reconcile").every((e) => e.summary.corrections.length === 0)).toBe(true);
  });
});
