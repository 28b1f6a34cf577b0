import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BacktestError } from "../../../src/backtest/errors.js";
import { summaryJson } from "../../../src/backtest/report/summary.js";
import type { PathResult } from "../../../src/backtest/synthetic/run-path.js";
import { runSynthetic } from "../../../src/backtest/synthetic/run-synthetic.js";
import { parseScenario } from "../../../src/backtest/synthetic/scenario.js";
import { meanStd, meanStdJson } from "../../../src/backtest/synthetic/stats.js";
import { packageRoot } from "../../../src/config/paths.js";

const read = (name: string): unknown =>
  JSON.parse(readFileSync(join(packageRoot(), "config/backtest", name), "utf8"));

/** A small A–S scenario: 20 steps of 1 s, a volatile mid and generous fill rates. */
const TINY = {
  seed: 5,
  paths: 3,
  process: { s0: "0.5", sigma: 0.002, dtMs: 1_000, horizonMs: 20_000, increments: "normal" },
  fills: { A: 0.5, k: 200, probability: "exponential", size: "1" },
  market: { tick: "0.000001", minSize: "0.000001" },
  strategy: { name: "avellaneda-stoikov", params: { gamma: 5, k: 200, orderSize: "1", sigma: 0.002 } },
  wallet: { usdc: "100", shares: "100" },
};

describe("meanStd", () => {
  it("gives the mean and the sample standard deviation (hand-checked)", () => {
    const s = meanStd(["1", "2", "4"]);
    expect(s.mean.toFixed(12)).toBe("2.333333333333");
    expect(s.std.toFixed(12)).toBe(Math.sqrt(7 / 3).toFixed(12)); // Σ(x − 7/3)² / 2 = 7/3
    expect(meanStdJson(meanStd(["0.5"]))).toEqual({ mean: "0.5", std: "0" });
  });
});

describe("runSynthetic", () => {
  it("summarises 3 tiny paths with the mean and standard deviation of their own figures", async () => {
    const paths: PathResult[] = [];
    const { summary } = await runSynthetic(parseScenario([TINY]), { onPathResult: (p) => paths.push(p) });
    expect(paths).toHaveLength(3);
    expect(summary.perPath.map((p) => p.path)).toEqual([0, 1, 2]);
    const pnl = summary.perPath.map((p) => Number(p.pnl));
    const inv = summary.perPath.map((p) => Number(p.finalInventory));
    const hand = ([a = 0, b = 0, c = 0]: number[]) => {
      const m = (a + b + c) / 3;
      return { m, s: Math.sqrt(((a - m) ** 2 + (b - m) ** 2 + (c - m) ** 2) / 2) };
    };
    expect(Number(summary.pnl.mean)).toBeCloseTo(hand(pnl).m, 9);
    expect(Number(summary.pnl.std)).toBeCloseTo(hand(pnl).s, 9);
    expect(Number(summary.finalInventory.mean)).toBeCloseTo(hand(inv).m, 9);
    expect(Number(summary.finalInventory.std)).toBeCloseTo(hand(inv).s, 9);
    expect(summary.perPath.every((p) => p.fills > 0)).toBe(true);
    expect(summary.openOrdersAtEnd).toBe(0);
    // Each path's total is its cash plus its position at the final mid, to the last digit.
    for (const p of paths) {
      const t = p.summary.tokens[0];
      const total = Number(p.summary.pnl.cash) + Number(t?.position) * Number(t?.mark);
      expect(Number(p.summary.pnl.total)).toBeCloseTo(total, 9);
    }
  });

  it("is deterministic: the same scenario and seed give byte-identical summaries, another seed does not", async () => {
    const sc = parseScenario([TINY]);
    const a = summaryJson((await runSynthetic(sc, { paths: 2 })).summary);
    const b = summaryJson((await runSynthetic(sc, { paths: 2 })).summary);
    const c = summaryJson((await runSynthetic(sc, { paths: 2, seed: 6 })).summary);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });

  it("reproduces Avellaneda & Stoikov (2008): the inventory strategy has a lower spread of PnL and inventory", async () => {
    const paths = 200;
    const inventory = (await runSynthetic(parseScenario([read("as-paper.json")]), { paths })).summary;
    const symmetric = (
      await runSynthetic(parseScenario([read("as-paper.json"), read("as-paper-symmetric.json")]), { paths })
    ).summary;
    const n = (s: string) => Number(s);
    // The paper's Table (γ = 0.1), scaled by 1/200: inventory 62.94 ± 5.89, q σ 2.80;
    // symmetric 67.21 ± 13.43, q σ 8.66.
    expect(n(inventory.pnl.std)).toBeLessThan(n(symmetric.pnl.std) * 0.7);
    expect(n(inventory.finalInventory.std)).toBeLessThan(n(symmetric.finalInventory.std) * 0.6);
    expect(n(inventory.pnl.mean)).toBeLessThan(n(symmetric.pnl.mean));
    const near = (x: string, paper: number, tol: number) =>
      expect(Math.abs(n(x) / paper - 1)).toBeLessThan(tol);
    near(inventory.pnl.mean, 62.94 / 200, 0.1);
    near(symmetric.pnl.mean, 67.21 / 200, 0.1);
    near(inventory.pnl.std, 5.89 / 200, 0.3);
    near(symmetric.pnl.std, 13.43 / 200, 0.3);
    near(inventory.finalInventory.std, 2.8, 0.3);
    near(symmetric.finalInventory.std, 8.66, 0.3);
    expect(inventory.openOrdersAtEnd + symmetric.openOrdersAtEnd).toBe(0);
    // config/backtest/README.md quotes these runs' figures (it once kept an earlier run's: inventory
    // 0.3237 ± 0.0332, σ(q) 2.89, where mm gives 0.3236 ± 0.0331, σ(q) 2.91).
    const quoted = (s: typeof inventory) =>
      `${n(s.pnl.mean).toFixed(4)} ± ${n(s.pnl.std).toFixed(4)}, σ(q) ${n(s.finalInventory.std).toFixed(2)}`;
    const doc = readFileSync(join(packageRoot(), "config/backtest/README.md"), "utf8").replace(/\s+/g, " ");
    const line = `This project, ${paths} paths, seed 2008: inventory ${quoted(inventory)}; symmetric ${quoted(symmetric)}`;
    expect(doc.includes(line), line).toBe(true);
  }, 180_000);
});

describe("parseScenario", () => {
  it("lists every bad field at once", () => {
    const bad = {
      ...TINY,
      paths: 0,
      process: { ...TINY.process, s0: "1.5", horizonMs: 20_500, increments: "levy" },
      fills: { ...TINY.fills, probability: "sometimes" },
      strategy: { name: "avellaneda-stoikov", params: { gamma: -1, k: 200, orderSize: "1" } },
      extra: true,
    };
    let err: unknown;
    try {
      parseScenario([bad]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BacktestError);
    const issues = (err as BacktestError).details.issues as string[];
    for (const field of [
      "paths",
      "process.s0",
      "process.horizonMs",
      "process.increments",
      "fills.probability",
      "extra",
    ]) {
      expect(
        issues.some((i) => i.startsWith(`${field}:`)),
        `${field} in ${issues.join("; ")}`,
      ).toBe(true);
    }
    expect(issues.some((i) => i.startsWith("strategy.") && i.includes("gamma"))).toBe(true);
  });

  it("says a horizon shorter than one step is too short, not a fraction of steps", () => {
    const issuesOf = (process: Record<string, unknown>): string[] => {
      try {
        parseScenario([{ ...TINY, process: { ...TINY.process, ...process } }]);
      } catch (e) {
        return (e as BacktestError).details.issues as string[];
      }
      return [];
    };
    expect(issuesOf({ dtMs: 1_000, horizonMs: 500 })).toContain(
      "process.horizonMs: must be at least one dtMs step (1000 ms)",
    );
    expect(issuesOf({ dtMs: 1_000, horizonMs: 1_500 })).toContain(
      "process.horizonMs: must be a whole number of dtMs steps (1000 ms)",
    );
  });

  it("refuses an A–S run with no horizon at all: the market never closes and no horizonSeconds", () => {
    const noClose = { ...TINY, market: { ...TINY.market, closesAtHorizon: false } };
    expect(() => parseScenario([noClose])).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({
          issues: [
            expect.stringMatching(
              /^market\.closesAtHorizon: false leaves avellaneda-stoikov without a horizon/,
            ),
          ],
        }),
      }),
    );
    const fixed = { ...TINY.strategy, params: { ...TINY.strategy.params, horizonSeconds: 60 } };
    expect(parseScenario([{ ...noClose, strategy: fixed }]).market.closesAtHorizon).toBe(false);
  });
});
