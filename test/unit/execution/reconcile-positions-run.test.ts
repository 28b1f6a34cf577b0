import { describe, expect, it } from "vitest";
import { checkPositions, type PositionDrift } from "../../../src/execution/reconcile-positions.js";

/*
 * A token's drift run: how long it has disagreed with the exchange at every check, whatever the
 * figures (mm_reconcile_position_drift_seconds, alert MmPositionDriftLasting at 15 minutes). It is
 * per token: on a busy bot some fill is settling somewhere at every check, so a count of drifting
 * tokens is above 0 at every check without any drift lasting, and an alert on it fired falsely.
 */

const SETTLE_MS = 30_000;
const PERIOD_MS = 30_000;
/** MmPositionDriftLasting's threshold. */
const LASTING_MS = 15 * 60_000;

/** One check at `nowMs` of `local` against `remote` (token → shares), after `prior`. */
function check(
  nowMs: number,
  prior: readonly PositionDrift[],
  remote: Record<string, string>,
  local: ReadonlyMap<string, bigint> = new Map([
    ["A", 4_000_000n],
    ["B", 4_000_000n],
  ]),
) {
  const rows = Object.entries(remote).map(([tokenId, quantity]) => ({ tokenId, quantity }));
  return checkPositions(local, rows, prior, { nowMs, settleMs: SETTLE_MS });
}

describe("checkPositions: a token's drift run", () => {
  it("keeps the run of a token drifting at every check while its figures change (its settle age restarts)", () => {
    const first = check(1_000, [], { A: "0", B: "4" });
    expect(first.drifts.map((d) => [d.tokenId, d.runSinceMs, d.runMs])).toEqual([["A", 1_000, 0]]);
    // Part of it settled: a different drift (sinceMs anew), the same run.
    const moved = check(31_000, first.drifts, { A: "2", B: "4" });
    expect(moved.drifts.map((d) => [d.sinceMs, d.runSinceMs, d.runMs])).toEqual([[31_000, 1_000, 30_000]]);
    // Figures changing at every check for 15 minutes: the run reaches it.
    let prior = moved.drifts;
    for (let k = 2; k <= 30; k++)
      prior = check(1_000 + k * PERIOD_MS, prior, { A: String(k % 3), B: "4" }).drifts;
    expect(prior.map((d) => [d.tokenId, d.runSinceMs, d.runMs])).toEqual([["A", 1_000, LASTING_MS]]);
  });

  it("ends the run at a check that finds the token agreeing; the next drift starts a new one", () => {
    const first = check(0, [], { A: "0", B: "4" });
    const still = check(600_000, first.drifts, { A: "1", B: "4" });
    expect(still.drifts[0]?.runMs).toBe(600_000);
    const clean = check(630_000, still.drifts, { A: "4", B: "4" });
    expect(clean.drifts).toEqual([]);
    const again = check(660_000, clean.drifts, { A: "0", B: "4" });
    expect(again.drifts.map((d) => [d.runSinceMs, d.runMs])).toEqual([[660_000, 0]]);
  });

  it("never lets two tokens settling at alternate checks reach the threshold, though some token drifts at every check", () => {
    let prior: readonly PositionDrift[] = [];
    let longest = 0;
    for (let k = 0; k <= 80; k++) {
      // A's fill settles between checks while B fills, then the other way round: 40 minutes.
      const c = check(k * PERIOD_MS, prior, k % 2 === 0 ? { A: "0", B: "4" } : { A: "4", B: "0" });
      expect(c.drifts).toHaveLength(1); // a count of drifting tokens never falls to 0
      for (const d of c.drifts) longest = Math.max(longest, d.runMs);
      prior = c.drifts;
    }
    expect(longest).toBe(0);
  });

  it("runs each token on its own: a token joining another's run starts at its own first check", () => {
    const first = check(0, [], { A: "0", B: "4" });
    const both = check(30_000, first.drifts, { A: "0", B: "0" });
    expect(both.drifts.map((d) => [d.tokenId, d.runSinceMs, d.runMs])).toEqual([
      ["A", 0, 30_000],
      ["B", 30_000, 0],
    ]);
  });
});
