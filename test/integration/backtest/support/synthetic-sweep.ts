import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/*
 * The synthetic sweep of the `mm backtest --sweep` tests (sweep.test.ts, sweep-rank-by.test.ts):
 * an Avellaneda-Stoikov scenario of two 30 s paths and a 2 × 2 grid over gamma and k.
 */

/** The scenario's strategy: the grid sets gamma and k over these. */
export const STRATEGY = {
  name: "avellaneda-stoikov",
  params: { gamma: 1, k: 100, orderSize: "1", sigma: 0.0005 },
};

/** Two 30 s paths, a reconcile period longer than a path. */
export const SCENARIO = {
  seed: 11,
  paths: 2,
  process: { s0: "0.5", sigma: 0.0005, dtMs: 1000, horizonMs: 30_000 },
  fills: { A: 0.5, k: 100, size: "1" },
  market: { tick: "0.000001", minSize: "0.000001" },
  strategy: STRATEGY,
  wallet: { usdc: "1000", shares: "1000" },
  engine: { reconcileIntervalMs: 600_000 },
};

/** Four points: gamma 0.5 and 5 by k 50 and 100. */
export const GRID = { gamma: [0.5, 5], k: [50, 100] };

/** Writes `content` (a string as is, else as JSON) to `dir`/`name`; returns the path. */
export function writeIn(dir: string, name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

/**
 * A fresh temporary folder (named from `prefix`) holding scenario.json (SCENARIO) and sweep.json
 * (GRID for the scenario's strategy). The caller removes `dir`.
 */
export function syntheticSweepFiles(prefix: string): { dir: string; scenario: string; sweep: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    scenario: writeIn(dir, "scenario.json", SCENARIO),
    sweep: writeIn(dir, "sweep.json", { strategy: "avellaneda-stoikov", grid: GRID }),
  };
}
