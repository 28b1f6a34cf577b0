import { describe, expect, it } from "vitest";
import type { PositionsAt } from "../../../src/engine/ports.js";
import { Harness } from "./support/harness.js";

/**
 * A fill still settling is not corrected away. The spec: user_fill is "a match-time notice, emitted
 * before on-chain settlement", and positions (GET /api/me/positions) move at settlement, so a fresh
 * fill shows as a drift for a while. Reconciles can run 250 ms apart (a reconnect, an ambiguous
 * answer, the 2 s follow-up while an unknown order is pending): a drift is corrected only once seen
 * in consecutive checks AND first seen reconcileDriftSettleMs ago (default 30 s). Corrected inside
 * the window, the fill would go (position 4 → 0), and once settled its shares would come back at the
 * mark, not the fill price: its edge gone from PnL for good.
 */
describe("reconcile: a fill still settling is not corrected away by two quick reconciles", () => {
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
