import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PathResult } from "../../../src/backtest/synthetic/run-path.js";
import { runSynthetic } from "../../../src/backtest/synthetic/run-synthetic.js";
import { parseScenario } from "../../../src/backtest/synthetic/scenario.js";
import { meanStd, meanStdJson } from "../../../src/backtest/synthetic/stats.js";
import { packageRoot } from "../../../src/config/paths.js";

/**
 * Issue 6 item 4's report figures in a synthetic run's JSON summary, as README "Backtesting" says:
 * every figure a replay reports, each as its mean and standard deviation across paths
 * (`acrossPaths`). Found by a user-acceptance review: the summary used to drop all but PnL total,
 * final inventory, fill count, drawdown and uptime, though every path computed them.
 */
const README = readFileSync(join(packageRoot(), "README.md"), "utf8");

/** The same tiny scenario as test/unit/backtest/synthetic-runs.test.ts, one path. */
const TINY = {
  seed: 5,
  paths: 1,
  process: { s0: "0.5", sigma: 0.002, dtMs: 1_000, horizonMs: 20_000, increments: "normal" },
  fills: { A: 0.5, k: 200, probability: "exponential", size: "1" },
  market: { tick: "0.000001", minSize: "0.000001" },
  strategy: { name: "avellaneda-stoikov", params: { gamma: 5, k: 200, orderSize: "1", sigma: 0.002 } },
  wallet: { usdc: "100", shares: "100" },
};

/** Every key path of a JSON value, arrays collapsed to [0]. */
function keyPaths(v: unknown, at = ""): string[] {
  if (Array.isArray(v)) return v.length === 0 ? [] : keyPaths(v[0], `${at}[0]`);
  if (typeof v !== "object" || v === null) return [];
  return Object.entries(v).flatMap(([k, x]) => [`${at}.${k}`, ...keyPaths(x, `${at}.${k}`)]);
}

describe("synthetic JSON summary vs README", () => {
  it("holds the figures the README says every JSON summary holds (fees, Sharpe, markouts, …)", async () => {
    expect(README).toContain("`acrossPaths`");
    const { summary } = await runSynthetic(parseScenario([TINY]));
    const paths = keyPaths(JSON.parse(JSON.stringify(summary)));
    const has = (re: RegExp) => paths.some((p) => re.test(p));
    const missing = [
      ["fees", /\.fees\b/],
      ["realised PnL", /\.realised$/],
      ["unrealised PnL", /\.unrealised$/],
      ["maker volume", /maker/i],
      ["taker volume", /taker/i],
      ["inventory mean", /\.inventory(\[0\])?\.mean$/],
      ["Sharpe", /sharpe/i],
      ["markouts", /markouts/i],
    ]
      .filter(([, re]) => !has(re as RegExp))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it("gives each figure's exact mean and sample standard deviation over the paths that have it", async () => {
    const paths: PathResult[] = [];
    const { summary } = await runSynthetic(parseScenario([{ ...TINY, paths: 4, seed: 9 }]), {
      onPathResult: (p) => paths.push(p),
    });
    const across = summary.acrossPaths;
    const want = (xs: string[]) => ({ paths: xs.length, ...meanStdJson(meanStd(xs)) });
    expect(across.realised).toEqual(want(paths.map((p) => p.summary.pnl.realised)));
    expect(across.makerVolume).toEqual(want(paths.map((p) => p.summary.fills.maker.volume)));
    expect(across.inventory.mean).toEqual(want(paths.map((p) => p.summary.inventory[0]?.mean ?? "x")));
    expect(across.quoteUptime).toEqual(want(paths.map((p) => String(p.summary.quoteUptime))));
    expect(across.markouts.map((m) => m.horizonMs)).toEqual([1_000, 10_000, 60_000]);
    // A 20 s path has no 60 s sample: no Sharpe, and no markout resolved at 60 s.
    expect(across.sharpe).toEqual({ paths: 0, mean: null, std: null });
    expect(across.markouts[2]?.perShare).toEqual({ paths: 0, mean: null, std: null });
    const resolved = paths.filter((p) => p.summary.markouts[0]?.perShare !== null).length;
    expect(resolved).toBeGreaterThan(0);
    expect(across.markouts[0]?.perShare.paths).toBe(resolved);
    // Like a replay's markouts: the fills counted and those left unresolved, summed over the paths
    // (every fill of a 20 s path is unresolved at 60 s).
    const sum = (i: number, k: "fills" | "unresolved") =>
      paths.reduce((n, p) => n + (p.summary.markouts[i]?.[k] ?? 0), 0);
    expect(across.markouts.map((m) => [m.horizonMs, m.fills, m.unresolved])).toEqual(
      [0, 1, 2].map((i) => [across.markouts[i]?.horizonMs, sum(i, "fills"), sum(i, "unresolved")]),
    );
    expect(across.markouts[2]?.fills).toBe(0);
    expect(across.markouts[2]?.unresolved).toBeGreaterThan(0);
    expect(Object.keys(across.markouts[0] ?? {})).toEqual(Object.keys(paths[0]?.summary.markouts[0] ?? {}));
  });
});
