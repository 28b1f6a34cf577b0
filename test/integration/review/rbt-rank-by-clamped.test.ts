import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBacktestCli } from "../backtest/support/cli.js";

/*
 * Review r20 (rbt): efb242b says every --rank-by path is judged before any point runs, the parts
 * that echo settings against the sweep's own. `process.clamped` is such a part: the synthetic
 * summary has it only for an unbounded mid (process.bounded false; aggregate.ts), and bounded is
 * the default. On a bounded scenario `--rank-by process.clamped.steps` is accepted, every point
 * runs, and the sweep exits 0 with a table in grid order and a warning — what the commit set out
 * to end. The scenario is known before any point runs, so the path can be refused (exit 2).
 */

const SCENARIO = {
  seed: 11,
  paths: 1,
  process: { s0: "0.5", sigma: 0.0005, dtMs: 1000, horizonMs: 10_000 },
  fills: { A: 0.5, k: 100, size: "1" },
  market: { tick: "0.000001", minSize: "0.000001" },
  strategy: { name: "avellaneda-stoikov", params: { gamma: 1, k: 100, orderSize: "1", sigma: 0.0005 } },
  wallet: { usdc: "1000", shares: "1000" },
  engine: { reconcileIntervalMs: 600_000 },
};

let dir: string;
let scenario: string;
let sweep: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-review-rbt-"));
  scenario = join(dir, "scenario.json");
  sweep = join(dir, "sweep.json");
  writeFileSync(scenario, JSON.stringify(SCENARIO));
  writeFileSync(sweep, JSON.stringify({ strategy: "avellaneda-stoikov", grid: { gamma: [0.5, 5] } }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mm backtest --sweep --rank-by process.clamped on a bounded scenario", () => {
  it("is refused before any point runs: a bounded run's summary has no process.clamped", async () => {
    const r = await runBacktestCli(
      "--scenario",
      scenario,
      "--sweep",
      sweep,
      "--rank-by",
      "process.clamped.steps",
      "-w",
      "1",
      "--progress",
      "none",
    );
    expect(r.stderr).not.toContain("sweep of");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/rank_by_invalid|process\.clamped/);
  }, 60_000);
});
