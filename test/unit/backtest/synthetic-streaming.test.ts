import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { PathResult } from "../../../src/backtest/synthetic/run-path.js";
import { runSynthetic } from "../../../src/backtest/synthetic/run-synthetic.js";
import { parseScenario } from "../../../src/backtest/synthetic/scenario.js";
import { meanStd, meanStdJson, RunningMeanStd } from "../../../src/backtest/synthetic/stats.js";

/** The tiny scenario of synthetic-runs.test.ts: 20 steps of 1 s, generous fills. */
const TINY = {
  seed: 5,
  paths: 7,
  process: { s0: "0.5", sigma: 0.002, dtMs: 1_000, horizonMs: 20_000, increments: "normal" },
  fills: { A: 0.5, k: 200, probability: "exponential", size: "1" },
  market: { tick: "0.000001", minSize: "0.000001" },
  strategy: { name: "avellaneda-stoikov", params: { gamma: 5, k: 200, orderSize: "1", sigma: 0.002 } },
  wallet: { usdc: "100", shares: "100" },
};

/** A seeded LCG: the same "random" decimals every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

function running(xs: readonly string[], decimals?: number) {
  const r = new RunningMeanStd();
  for (const x of xs) r.add(x);
  return meanStdJson(r.result(), decimals);
}

// A synthetic run kept every path's whole summary until the end to take the mean and standard
// deviation across paths: near the 1,000,000-path cap that is gigabytes. The statistics are now
// running sums in decimal.js (constant memory), and must give the summary's figures unchanged.
describe("RunningMeanStd", () => {
  it("gives meanStd's figures to the digit, for money of 6 and 12 decimals and any count", () => {
    const u = lcg(42);
    for (let c = 0; c < 400; c++) {
      const n = c % 41;
      const places = c % 2 === 0 ? 6 : 12;
      const scale = [1, 1_000, 0.001][c % 3] as number;
      const xs = Array.from({ length: n }, () => ((u() - 0.4) * scale).toFixed(places));
      for (const decimals of [9, 6]) {
        expect(running(xs, decimals), `${n} values: ${xs.join(",")}`).toEqual(
          meanStdJson(meanStd(xs), decimals),
        );
      }
    }
  });

  it("is exact where the mean is a finite decimal, and 0 for equal values or fewer than two", () => {
    expect(running(["1", "2", "3"])).toEqual({ mean: "2", std: "1" });
    expect(running(["0.1", "0.1", "0.1", "0.1", "0.1", "0.1", "0.1"])).toEqual({ mean: "0.1", std: "0" });
    expect(running(["-0.25"])).toEqual({ mean: "-0.25", std: "0" });
    expect(running([])).toEqual({ mean: "0", std: "0" });
    const r = new RunningMeanStd();
    r.add(0.5); // a number (Sharpe, uptime) at its shortest spelling
    r.add("1.5");
    expect(meanStdJson(r.result())).toEqual({ mean: "1", std: "0.707106781" });
  });
});

describe("runSynthetic across paths", () => {
  it("gives the same figures as the paths' own, held all at once (7 paths: a mean that does not terminate)", async () => {
    const paths: PathResult[] = [];
    const { summary } = await runSynthetic(parseScenario([TINY]), { onPathResult: (p) => paths.push(p) });
    const want = (xs: (string | number | null | undefined)[]) => {
      const present = xs.flatMap((x) => (x === null || x === undefined ? [] : [String(x)]));
      return { paths: present.length, ...meanStdJson(meanStd(present)) };
    };
    const s = paths.map((p) => p.summary);
    const { paths: n, ...pnl } = want(s.map((x) => x.pnl.total));
    expect(n).toBe(7);
    expect(summary.pnl).toEqual(pnl);
    expect(summary.fills).toEqual(meanStdJson(meanStd(s.map((x) => String(x.fills.count))), 6));
    expect(summary.finalInventory).toEqual(meanStdJson(meanStd(s.map((x) => x.tokens[0]?.position ?? "0"))));
    const a = summary.acrossPaths;
    expect(a.realised).toEqual(want(s.map((x) => x.pnl.realised)));
    expect(a.unrealised).toEqual(want(s.map((x) => x.pnl.unrealised)));
    expect(a.fees).toEqual(want(s.map((x) => x.fees.value)));
    expect(a.takerVolume).toEqual(want(s.map((x) => x.fills.taker.volume)));
    expect(a.inventory.maxAbs).toEqual(want(s.map((x) => x.inventory[0]?.maxAbs)));
    expect(a.maxDrawdown).toEqual(want(s.map((x) => x.drawdown.max)));
    expect(a.quoteUptime).toEqual(want(s.map((x) => x.quoteUptime)));
    expect(a.markouts[0]?.total).toEqual(want(s.map((x) => x.markouts[0]?.total)));
    expect(a.markouts[1]?.perShare).toEqual(want(s.map((x) => x.markouts[1]?.perShare)));
    expect(summary.perPath.map((p) => p.pnl)).toEqual(s.map((x) => x.pnl.total));
  });

  it("keeps no path's summary once the path is folded in", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const refs: WeakRef<object>[] = [];
    const r = await runSynthetic(parseScenario([{ ...TINY, paths: 6 }]), {
      onPathResult: (p) => refs.push(new WeakRef(p.summary)),
    });
    // WeakRefs made in a job hold their targets until it ends: collect after a macrotask.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(r.summary.paths).toBe(6);
    expect(refs).toHaveLength(6);
    expect(refs.filter((w) => w.deref() !== undefined)).toHaveLength(0);
  });
});
