import { describe, expect, it } from "vitest";
import type { MarketRecordStatus } from "../../../src/engine/ports.js";
import type { Harness } from "./support/harness.js";
import { heldRecord, restartedAfterResolution, YES_WINS } from "./support/settlement.js";

/**
 * A position restored in a market listed settled at start without its payouts had no mark at all:
 * the market's book is never watched, so it counted at cost until the payouts were read, and for
 * good if they never came (a marked loss of the earlier run vanished from the PnL and the metrics).
 * It is now marked at the token's last journaled mark (restore.marks) until the payouts pin it. The
 * kill switch sees neither the restored mark nor its replacement by the payouts as this run's gain
 * or loss (the resolution happened while mm was down), as when the payouts are in the record at start.
 */
const NO_WINS = { "0": "0", "1": "1" } as const;

/** The earlier run bought 20 YES of market 1 at 0.47 and last marked them at `markMicro`. */
function restarted(o: { markMicro: number; status?: "RESOLVED" | "OPEN"; maxDrawdown?: string }): Harness {
  return restartedAfterResolution({
    ...(o.status === undefined ? {} : { status: o.status }),
    risk: { killSwitch: { maxDrawdown: o.maxDrawdown ?? "1" } },
    restore: { marks: new Map([["11", o.markMicro]]) },
  });
}

async function start(h: Harness): Promise<void> {
  const starting = h.engine.start();
  await h.run(500);
  await starting;
}

describe("settlement: a restored position in a market listed settled without payouts", () => {
  it("is marked at its last journaled mark from the start (PnL, snapshots), logged once", async () => {
    const h = restarted({ markMicro: 300_000 });
    heldRecord(h); // the payouts never come
    await start(h);
    // 20 × (0.30 − 0.47): the earlier run's marked loss is still there.
    expect(h.engine.status()).toMatchObject({ pnlMicro: -3_400_000n, killSwitch: false, drawdownMicro: 0n });
    expect(h.engine.accounts().find((a) => a.tokenId === "11")?.markMicro).toBe(300_000);
    const lines = h.logs.records().filter((r) => String(r.msg).includes("last journaled mark"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, tokens: [{ tokenId: "11", outcome: "YES", mark: "0.3" }] });
    const [yes2] = h.tokens(2);
    expect(h.botQuotes(yes2).length).toBeGreaterThan(0);
  });

  it("the payouts read a minute later replace it: no drawdown either way (the resolution is not this run's)", async () => {
    for (const [payouts, pnl] of [
      [NO_WINS, -9_400_000n],
      [YES_WINS, 10_600_000n],
    ] as const) {
      const h = restarted({ markMicro: 500_000, maxDrawdown: "0.5" });
      h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => ({ status: "RESOLVED", payouts });
      await start(h);
      expect(h.engine.status().pnlMicro).toBe(600_000n); // 20 × (0.50 − 0.47)
      await h.run(61_000);
      expect(h.engine.status()).toMatchObject({ pnlMicro: pnl, killSwitch: false, drawdownMicro: 0n });
      const [yes2] = h.tokens(2);
      expect(h.botQuotes(yes2).length).toBeGreaterThan(0);
    }
  });

  it("a market not settled waits for its book's mid: the journal's mark is not used", async () => {
    const h = restarted({ markMicro: 300_000, status: "OPEN" });
    const [yes1] = h.tokens(1);
    h.crowdQuote(yes1, "0.48", "0.52");
    await start(h);
    // At the mid 0.50 (20 × 0.03), and the first mid moved the peak with it: no drawdown.
    expect(h.engine.status()).toMatchObject({ pnlMicro: 600_000n, drawdownMicro: 0n });
    expect(h.logs.text()).not.toContain("last journaled mark");
  });
});
