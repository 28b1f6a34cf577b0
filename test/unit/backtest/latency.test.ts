import { describe, expect, it } from "vitest";
import { layerConfigs } from "../../../src/backtest/config-reader.js";
import { BacktestError } from "../../../src/backtest/errors.js";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import {
  LATENCY_MAX_MS,
  LatencyLane,
  type LatencySpec,
  LOGNORMAL_CAP_MEDIANS,
  latencyEcho,
  latencyLane,
  latencySampler,
} from "../../../src/backtest/sim/latency.js";
import { uniformSeq } from "./support/uniform-seq.js";

const BANDS = { name: "bands", params: { bands: [{ margin: "0.02", size: "10" }] } };

function draws(spec: LatencySpec, count: number, ...u: number[]): number[] {
  const next = latencySampler(spec, uniformSeq(...u));
  return Array.from({ length: count }, () => next());
}

function issues(latency: unknown): string[] {
  try {
    parseReplayConfig([{ strategy: BANDS, latency }]);
  } catch (err) {
    expect(err).toBeInstanceOf(BacktestError);
    return (err as BacktestError).details.issues as string[];
  }
  return [];
}

describe("latency samplers (whole ms, values by hand)", () => {
  it("uniform: minMs + ⌊u·(maxMs − minMs + 1)⌋", () => {
    expect(draws({ type: "uniform", minMs: 2, maxMs: 4 }, 3, 0, 0.34, 0.999)).toEqual([2, 3, 4]);
  });

  it("lognormal: medianMs·e^(σZ), Z by Box–Muller from two uniforms", () => {
    // u = 0.5, 0 → Z = √(−2 ln 0.5)·cos 0 = 1.177410; 20·e^(0.5·1.177410) = 36.04 → 36.
    // u = 0.5, 0.25 → Z = √(2 ln 2)·cos(π/2) ≈ 0 → the median, 20.
    expect(draws({ type: "lognormal", medianMs: 20, sigma: 0.5 }, 2, 0.5, 0, 0.5, 0.25)).toEqual([36, 20]);
  });

  it("lognormal: each draw capped at maxMs, by default 100 medians (a lane keeps its order)", () => {
    // u → 1, 0: Z = √(−2 ln(1 − u)) ≈ 8.6 → 20·e^(5·8.6) ≈ 10^20 ms without the cap.
    const tiny = [1 - 2 ** -53, 0];
    expect(LOGNORMAL_CAP_MEDIANS).toBe(100);
    expect(draws({ type: "lognormal", medianMs: 20, sigma: 5 }, 1, ...tiny)).toEqual([2_000]);
    expect(draws({ type: "lognormal", medianMs: 20, sigma: 5, maxMs: 5_000 }, 1, ...tiny)).toEqual([5_000]);
    // A day still bounds it: a median of 20 minutes gets no cap of 33 hours.
    expect(draws({ type: "lognormal", medianMs: 1_200_000, sigma: 5 }, 1, ...tiny)).toEqual([LATENCY_MAX_MS]);
    // An explicit cap up to a day keeps the tail (and its stalls).
    expect(draws({ type: "lognormal", medianMs: 20, sigma: 5, maxMs: LATENCY_MAX_MS }, 1, ...tiny)).toEqual([
      LATENCY_MAX_MS,
    ]);
    expect(draws({ type: "lognormal", medianMs: 20, sigma: 0.5, maxMs: 30 }, 2, 0.5, 0, 0.5, 0.25)).toEqual([
      30, 20,
    ]);
  });

  it("empirical: one of the samples, equally likely, rounded", () => {
    expect(draws({ type: "empirical", samplesMs: [5, 7.4, 9.6] }, 3, 0, 0.4, 0.9)).toEqual([5, 7, 10]);
  });

  it("a constant never draws", () => {
    expect(latencySampler(7, uniformSeq())()).toBe(7);
  });

  it("lognormal draws centre on the median (20,001 seeded draws)", () => {
    const lane = latencyLane({ type: "lognormal", medianMs: 40, sigma: 0.6 }, 3, "entry");
    // Each message sent 1 s after the previous one: the ordering rule never binds.
    const xs = Array.from({ length: 20_001 }, (_, i) => lane.next(i * 1_000)).sort((a, b) => a - b);
    expect(xs[10_000]).toBeGreaterThanOrEqual(39);
    expect(xs[10_000]).toBeLessThanOrEqual(41);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean).toBeGreaterThan(40 * Math.exp(0.18) * 0.97); // e^(σ²/2) = e^0.18
    expect(mean).toBeLessThan(40 * Math.exp(0.18) * 1.03);
  });
});

describe("LatencyLane: one ordered connection", () => {
  it("never delivers a message before the one sent ahead of it", () => {
    // Draws 10 then 0: the second message, sent at 103, waits for the first (due at 110).
    const lane = new LatencyLane({ type: "empirical", samplesMs: [10, 0] }, uniformSeq(0, 0.9, 0.9));
    expect(lane.next(100)).toBe(10);
    expect(lane.next(103)).toBe(7);
    expect(lane.next(120)).toBe(0);
  });

  it("is deterministic per (seed, stream), and streams are independent", () => {
    const spec: LatencySpec = { type: "uniform", minMs: 0, maxMs: 1_000 };
    const run = (seed: number, stream: string) => {
      const lane = latencyLane(spec, seed, stream);
      return Array.from({ length: 50 }, (_, i) => lane.next(i * 10_000));
    };
    expect(run(7, "entry")).toEqual(run(7, "entry"));
    expect(run(7, "entry")).not.toEqual(run(7, "response"));
    expect(run(7, "entry")).not.toEqual(run(8, "entry"));
  });

  it("gives a constant its value whatever the timing", () => {
    const lane = latencyLane(5, 1, "market");
    expect([lane.next(0), lane.next(0), lane.next(3)]).toEqual([5, 5, 5]);
  });
});

describe("latency config", () => {
  it("reads numbers (the original form), constant objects as numbers, and distributions", () => {
    const c = parseReplayConfig([
      {
        strategy: BANDS,
        latency: {
          feedMs: { type: "constant", ms: 12 },
          entryMs: { type: "lognormal", medianMs: 20, sigma: 0.5 },
          responseMs: { type: "empirical", samplesMs: [3, 4, 9] },
        },
      },
    ]);
    expect(c.latency).toEqual({
      feedMs: 12,
      entryMs: { type: "lognormal", medianMs: 20, sigma: 0.5 },
      responseMs: { type: "empirical", samplesMs: [3, 4, 9] },
    });
    const capped = { type: "lognormal", medianMs: 20, sigma: 2, maxMs: 1_000 };
    expect(parseReplayConfig([{ strategy: BANDS, latency: { entryMs: capped } }]).latency.entryMs).toEqual(
      capped,
    );
    expect(issues({ entryMs: { ...capped, maxMs: -1 } })).toEqual(["latency.entryMs.maxMs: must be >= 0"]);
    // A cap under the median would flatten the distribution into a constant: refused, named.
    expect(issues({ entryMs: { ...capped, maxMs: 19 } })).toEqual([
      "latency.entryMs.maxMs: must be >= medianMs",
    ]);
    expect(issues({ entryMs: { ...capped, maxMs: 20 } })).toEqual([]);
    expect(parseReplayConfig([{ strategy: BANDS, latency: { entryMs: 20 } }]).latency).toEqual({
      feedMs: 0,
      entryMs: 20,
      responseMs: 0,
    });
  });

  it("lists every bad distribution field", () => {
    const found = issues({
      feedMs: { type: "gamma", k: 2 },
      entryMs: { type: "uniform", minMs: 9, maxMs: 3 },
      responseMs: { type: "lognormal", sigma: -1, extra: 1 },
    });
    expect(found).toEqual([
      'latency.feedMs.type: must be one of "constant", "uniform", "lognormal", "empirical"',
      "latency.entryMs.maxMs: must be >= minMs",
      "latency.responseMs.extra: unknown setting",
      "latency.responseMs.medianMs: is required",
      "latency.responseMs.sigma: must be >= 0",
    ]);
    expect(issues({ feedMs: { type: "empirical", samplesMs: [] }, entryMs: { type: "constant" } })).toEqual([
      "latency.feedMs.samplesMs: must be a non-empty array (at most 1000000) of ms in [0, 86400000]",
      "latency.entryMs.ms: is required",
    ]);
    expect(issues({ feedMs: 1.5 })).toEqual(["latency.feedMs: must be an integer"]);
  });

  it("replaces a distribution whole when layering (never a mix of two)", () => {
    const merged = layerConfigs([
      { latency: { entryMs: { type: "lognormal", medianMs: 20, sigma: 0.5 }, feedMs: 5 } },
      { latency: { entryMs: { type: "uniform", minMs: 1, maxMs: 2 } } },
      { latency: { feedMs: { type: "constant", ms: 3 } } },
    ]);
    expect(merged).toEqual({
      latency: { entryMs: { type: "uniform", minMs: 1, maxMs: 2 }, feedMs: { type: "constant", ms: 3 } },
    });
  });

  it("echoes constants as numbers and summarises empirical samples in the summary", () => {
    expect(latencyEcho(5)).toBe(5);
    expect(latencyEcho({ type: "uniform", minMs: 1, maxMs: 2 })).toEqual({
      type: "uniform",
      minMs: 1,
      maxMs: 2,
    });
    expect(latencyEcho({ type: "empirical", samplesMs: [4, 1, 9] })).toEqual({
      type: "empirical",
      samples: 3,
      minMs: 1,
      maxMs: 9,
    });
  });
});
