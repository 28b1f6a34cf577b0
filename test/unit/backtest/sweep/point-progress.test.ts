import { describe, expect, it } from "vitest";
import { runSweepPoint } from "../../../../src/backtest/sweep/point.js";
import { runSynthetic } from "../../../../src/backtest/synthetic/run-synthetic.js";
import { parseScenario } from "../../../../src/backtest/synthetic/scenario.js";

/** A calm bounded scenario; `horizonMs / dtMs + 1` book frames a path. */
const scenario = (paths: number, horizonMs: number) => ({
  seed: 5,
  paths,
  process: { s0: "0.5", sigma: 0.0001, dtMs: 1_000, horizonMs, increments: "normal", bounded: true },
  fills: { A: 0.04, k: 300, probability: "linear", size: "1" },
  market: { tick: "0.000001", minSize: "0.000001" },
  strategy: { name: "avellaneda-stoikov", params: { gamma: 20, k: 300, orderSize: "1", sigma: 0.0001 } },
  wallet: { usdc: "100", shares: "100" },
});

// A sweep's progress moved only when a synthetic path ended, so a sweep of a few long paths showed
// 0 events/s and no ETA for minutes. Frames now count as they are fed, within a path.
describe("synthetic progress within a path", () => {
  it("runSynthetic reports every progressEvery frames over the whole run, across paths", async () => {
    const seen: number[] = [];
    const r = await runSynthetic(parseScenario([scenario(2, 10_000)]), {
      onProgress: (frames) => seen.push(frames),
      progressEvery: 5,
    });
    // 11 frames a path: the snapshot and 10 updates.
    expect(seen).toEqual([5, 10, 15, 20]);
    expect(r.summary.paths).toBe(2);
  });

  it("a sweep point of one long path reports before the path ends, and the exact total at its end", async () => {
    const raw = scenario(1, 4_500_000); // 4,501 frames
    const seen: number[] = [];
    const r = await runSweepPoint(
      { kind: "synthetic", scenarioLayers: [raw], strategy: raw.strategy },
      (events) => seen.push(events),
    );
    expect(r.events).toBe(4_501);
    expect(seen).toEqual([2_000, 4_000, 4_501]);
  });

  it("the summary does not depend on whether progress is listened to", async () => {
    const sc = parseScenario([scenario(2, 10_000)]);
    const quiet = await runSynthetic(sc);
    const loud = await runSynthetic(sc, { onProgress: () => {}, progressEvery: 1 });
    expect(JSON.stringify(loud.summary)).toBe(JSON.stringify(quiet.summary));
  });
});
