import { describe, expect, it } from "vitest";
import type { MarketRecordStatus } from "../../../src/engine/ports.js";
import type { Harness } from "./support/harness.js";
import { restartedAfterResolution } from "./support/settlement.js";

/**
 * A restored position's first mark may be a settled market's payout (a market that resolved while
 * mm was down is listed resolved at start, its book never watched). Like a book's first mid, it
 * values what the run started with, so the kill switch's peak moves with it: the same position is
 * no drawdown whether the start-up record carries the payouts or a read a minute later does (a
 * review found the second case tripping the switch, every market halted).
 */
const NO_WINS = { "0": "0", "1": "1" } as const;

/** NO won while mm was down; the record says so at start, or only when read a minute later. */
function restarted(payoutsAtStart: boolean): Harness {
  const h = restartedAfterResolution({
    risk: { killSwitch: { maxDrawdown: "1" } },
    ...(payoutsAtStart ? { payouts: (i: number) => (i === 1 ? NO_WINS : undefined) } : {}),
  });
  h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => ({
    status: "RESOLVED",
    payouts: NO_WINS,
  });
  return h;
}

describe("engine kill switch: a restored position's first mark is a settled market's payout", () => {
  it("control: payouts in the start-up record: no drawdown, quoting goes on", async () => {
    const h = restarted(true);
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    await h.run(61_000);
    expect(h.engine.status()).toMatchObject({ pnlMicro: -9_400_000n, killSwitch: false, drawdownMicro: 0n });
  });

  it("payouts read a minute after start: the same resolution (while mm was down) must not trip", async () => {
    const h = restarted(false);
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.engine.status().pnlMicro).toBe(0n); // at cost: no book, no payout yet
    const [yes2] = h.tokens(2);
    expect(h.botQuotes(yes2).length).toBeGreaterThan(0);
    await h.run(61_000); // the closed-market watch reads the record: 20 × (0 − 0.47)
    expect(h.engine.status().pnlMicro).toBe(-9_400_000n);
    expect(h.engine.status()).toMatchObject({ killSwitch: false, drawdownMicro: 0n });
    expect(h.botQuotes(yes2).length).toBeGreaterThan(0);
  });
});
