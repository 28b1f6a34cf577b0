import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBacktestCli } from "./support/cli.js";

/*
 * `process.clamped` is in a synthetic summary only for an unbounded mid (process.bounded false;
 * aggregate.ts), and bounded is the default. The scenario is known before any point runs, so on a
 * bounded one `--rank-by process.clamped.steps` is refused there (exit 2) — review r20: it was
 * accepted, every point ran, and the sweep exited 0 with a table in grid order and a warning.
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
