import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBacktestCli } from "../../../integration/backtest/support/cli.js";

/*
 * README: a sweep file's problems are named in one sweep_invalid error. A bad `rankBy` in the file
 * was checked only once its other problems were fixed (review22-rcli), a second round for one file.
 * It is now named with them, blamed like a refused grid value (`rankBy = "x": …`); alone it is still
 * rank_by_invalid, and a --rank-by flag (which overrides the file's) is not the file's problem.
 */
const SCENARIO = {
  seed: 5,
  paths: 1,
  process: { s0: "0.5", sigma: 0.002, dtMs: 1_000, horizonMs: 10_000, increments: "normal" },
  fills: { A: 0.5, k: 200, probability: "exponential", size: "1" },
  market: { tick: "0.000001", minSize: "0.000001" },
  strategy: { name: "avellaneda-stoikov", params: { gamma: 5, k: 200, orderSize: "1", sigma: 0.002 } },
  wallet: { usdc: "100", shares: "100" },
};

describe("a sweep file's bad rankBy is named with its other problems", () => {
  let dir: string;
  let scenario: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "mm-rank-file-"));
    scenario = join(dir, "scenario.json");
    writeFileSync(scenario, JSON.stringify(SCENARIO));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const sweep = async (file: unknown, ...extra: string[]) => {
    const path = join(dir, "sweep.json");
    writeFileSync(path, JSON.stringify(file));
    return runBacktestCli("--scenario", scenario, "--sweep", path, "--progress", "none", ...extra);
  };

  it("a repeated grid value and an unknown metric: both in one sweep_invalid error", async () => {
    const r = await sweep({ grid: { gamma: [1, 1] }, rankBy: "sharpee" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("(code sweep_invalid):");
    expect(r.stderr).toContain("grid.gamma[1]: repeats grid.gamma[0] (1)");
    expect(r.stderr).toMatch(/rankBy = "sharpee": neither a metric/);
  });

  it("with the points not checked (a grid for another strategy), a metric of the other kind still is", async () => {
    const r = await sweep({ strategy: "glft", grid: { gamma: [1, 2] }, rankBy: "fees" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("strategy: the sweep is for");
    expect(r.stderr).toMatch(/rankBy = "fees": fees is a replay-only metric/);
  });

  it("alone, it is rank_by_invalid as before; under --rank-by, the file's is not checked", async () => {
    const alone = await sweep({ grid: { gamma: [1, 2] }, rankBy: "sharpee" });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("(code rank_by_invalid)");
    const flag = await sweep({ grid: { gamma: [1, 1] }, rankBy: "sharpee" }, "--rank-by", "pnl");
    expect(flag.code).toBe(2);
    expect(flag.stderr).not.toContain("sharpee");
  });
});
