import { describe, expect, it } from "vitest";
import {
  checkPositions,
  DRIFT_AGE_SLACK_MS,
  type PositionDrift,
} from "../../../src/execution/reconcile-positions.js";

/*
 * The settlement window of the position check: a drift is corrected only when the previous check saw
 * the same figures AND it was first seen at least `settleMs` ago. Counting checks alone let two
 * reconciles 250 ms apart correct a fill still settling (its edge then left PnL).
 */

const SETTLE_MS = 30_000;
const local = new Map([["A", 4_000_000n]]);
const lagging = [{ tokenId: "A", quantity: "0" }];

/** One check at `nowMs` after `prior`. */
function check(nowMs: number, prior: readonly PositionDrift[], remote = lagging) {
  return checkPositions(local, remote, prior, { nowMs, settleMs: SETTLE_MS });
}

describe("checkPositions: a drift's age", () => {
  it("leaves an identical drift younger than the window uncorrected, and corrects it once old enough", () => {
    const first = check(1_000, []);
    expect(first.drifts).toEqual([
      {
        tokenId: "A",
        localMicro: 4_000_000n,
        remoteMicro: 0n,
        driftMicro: -4_000_000n,
        sinceMs: 1_000,
        runSinceMs: 1_000,
        runMs: 0,
      },
    ]);
    // Seen again 250 ms later (a reconnect's reconcile): still settling, not corrected.
    const quick = check(1_250, first.drifts);
    expect(quick.corrections).toEqual([]);
    expect(quick.drifts[0]?.sinceMs).toBe(1_000);
    // Just short of the window (less the timer slack).
    const almost = check(1_000 + SETTLE_MS - DRIFT_AGE_SLACK_MS - 1, quick.drifts);
    expect(almost.corrections).toEqual([]);
    // At the window, unchanged since its first sighting: corrected, still dated from then.
    const settled = check(1_000 + SETTLE_MS, almost.drifts);
    expect(settled.corrections.map((d) => [d.tokenId, d.sinceMs])).toEqual([["A", 1_000]]);
  });

  it("corrects at a check a timer fired a millisecond early (window equal to the reconcile period)", () => {
    const first = check(0, []);
    expect(check(SETTLE_MS - 1, first.drifts).corrections).toHaveLength(1);
    expect(DRIFT_AGE_SLACK_MS).toBeLessThan(1_000); // far below any settlement
  });

  it("restarts the age when the figures change", () => {
    const first = check(0, []);
    // Half the fill settled: a different drift, first seen now.
    const moved = check(20_000, first.drifts, [{ tokenId: "A", quantity: "2" }]);
    expect(moved.corrections).toEqual([]);
    expect(moved.drifts[0]?.sinceMs).toBe(20_000);
    // 40 s after the first sighting but only 20 s after this drift's own: not corrected.
    const later = check(40_000, moved.drifts, [{ tokenId: "A", quantity: "2" }]);
    expect(later.corrections).toEqual([]);
    expect(check(50_000, later.drifts, [{ tokenId: "A", quantity: "2" }]).corrections).toHaveLength(1);
  });

  it("still wants consecutive checks: a drift that vanished and came back is first seen anew", () => {
    const first = check(0, []);
    // The drift vanished at one check, then the same figures came back: its age starts again.
    const gone = checkPositions(local, [{ tokenId: "A", quantity: "4" }], first.drifts, {
      nowMs: 10_000,
      settleMs: SETTLE_MS,
    });
    expect(gone.drifts).toEqual([]);
    const back = check(60_000, gone.drifts);
    expect(back.corrections).toEqual([]);
    expect(back.drifts[0]?.sinceMs).toBe(60_000);
    // With no window at all, the second identical sighting corrects (the old rule).
    const again = checkPositions(local, lagging, first.drifts, { nowMs: 1, settleMs: 0 });
    expect(again.corrections).toHaveLength(1);
  });
});

describe("checkPositions: a token's latest fill", () => {
  /** A check at `nowMs` whose positions read stands at `asOfMs`, the token's last fill at `lastFillMs`. */
  function withFill(nowMs: number, prior: readonly PositionDrift[], asOfMs: number, lastFillMs?: number) {
    return checkPositions(local, lagging, prior, {
      nowMs,
      settleMs: SETTLE_MS,
      fills: { asOfMs, lastFillMs: (t) => (t === "A" ? lastFillMs : undefined) },
    });
  }

  it("holds back an old drift while a fill of its token is younger than the window, reporting it", () => {
    // The same figures for 30 s, but the token filled 3 s before the read (a fixed-size round trip:
    // the +4 now is a different fill from the one first seen).
    const first = withFill(0, [], 100_000, 70_000);
    const held = withFill(SETTLE_MS, first.drifts, 130_000, 127_000);
    expect(held.drifts).toHaveLength(1);
    expect(held.drifts[0]?.sinceMs).toBe(0);
    expect(held.corrections).toEqual([]);
    // One millisecond short of the window, still held; at the window, corrected.
    expect(withFill(SETTLE_MS, first.drifts, 130_000, 100_001).corrections).toEqual([]);
    expect(withFill(SETTLE_MS, first.drifts, 130_000, 100_000).corrections).toHaveLength(1);
    // A token that never filled: the age rule alone.
    expect(withFill(SETTLE_MS, first.drifts, 130_000).corrections).toHaveLength(1);
  });

  it("with no window (settleMs 0) keeps the old rule whatever the fills", () => {
    const opts = { nowMs: 1, settleMs: 0, fills: { asOfMs: 10, lastFillMs: () => 10 } };
    const first = checkPositions(local, lagging, [], opts);
    expect(checkPositions(local, lagging, first.drifts, opts).corrections).toHaveLength(1);
  });
});
