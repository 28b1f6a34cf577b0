import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import type { PositionsAt } from "../../../src/engine/ports.js";
import { weiToString } from "../../../src/venue/wire.js";
import { Harness } from "./support/harness.js";

/**
 * A fill still settling is not corrected away when the same drift figures come back for a different
 * fill. A market maker quotes a fixed size, so its position goes 0 → 4 → 0 → 4 within a period as bid
 * and ask fill in turn, and the exchange's positions follow a few seconds behind (they move at
 * on-chain settlement). Two periodic checks 30 s apart then both see (local +4, remote +0): the first
 * for fill A, the second for fill C, matched a moment ago. The drift's age alone would call it 30 s
 * old; the check also holds back a token with a fill matched less than reconcile.driftSettleMs before
 * the positions read. Corrected, C would go (4 → 0) and, once settled, come back at the mark: its
 * edge gone from PnL, the kill switch and the journal.
 */
describe("drift settle window: a fixed-size round trip between two checks", () => {
  it("does not correct away a fill matched just before the second check (same figures, different fill)", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();

    // The exchange's positions: the real ones minus the fills not yet settled on chain.
    const real = h.exchange.positionsAt.bind(h.exchange);
    const unsettled: bigint[] = []; // signed micro-shares of yes
    h.exchange.positionsAt = async (): Promise<PositionsAt> => {
      const r = await real();
      const lag = unsettled.reduce((a, b) => a + b, 0n);
      return {
        ...r,
        positions: r.positions.map((p) =>
          p.tokenId === yes ? { ...p, quantity: weiToString(toWei(p.quantity, "qty") - lag) } : p,
        ),
      };
    };

    // Fill A: our bid 0.47 buys 4; still settling at the next check.
    h.take(yes, "sell", "0.47", "104");
    h.crowdQuote(yes, "0.48", "0.52");
    unsettled.push(4_000_000n);
    await h.run();
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
    h.engine.onReconnect(); // check 1: drift (local +4, remote +0), fill A settling
    await h.run(1_000);
    expect(h.eventsOf("reconcile").at(-1)?.summary.drifts).toHaveLength(1);

    // Within the period: A settles, our ask sells 4 (B) which settles, our bid buys 4 again (C).
    await h.run(5_000);
    unsettled.length = 0; // A settled
    h.take(yes, "buy", "0.53", "104");
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run(5_000); // B settled at once (nothing in `unsettled`)
    expect(h.engine.positionOf(yes)).toBe(0n);
    await h.run(17_000);
    h.take(yes, "sell", "0.47", "104");
    h.crowdQuote(yes, "0.48", "0.52");
    unsettled.push(4_000_000n); // C, matched now, settles in a few seconds
    await h.run();
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
    const pnlAfterC = h.engine.status().pnlMicro;

    // The periodic check lands while C is settling (about 1 s old).
    await h.run(5_000);
    expect(h.eventsOf("reconcile").length).toBeGreaterThanOrEqual(3);
    // C is not corrected away.
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
    expect(h.eventsOf("reconcile").every((e) => e.summary.corrections.length === 0)).toBe(true);

    // C settles: the exchange agrees, and the fill's PnL stands.
    unsettled.length = 0;
    await h.engine.reconcileNow();
    await h.run(100);
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
    expect(h.engine.status().pnlMicro).toBe(pnlAfterC);
  });
});
