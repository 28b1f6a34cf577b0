import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summaryJson } from "../../../src/backtest/report/summary.js";
import { runSweepCommand } from "../../../src/cli/backtest-sweep.js";
import { packageRoot } from "../../../src/config/paths.js";
import { captureIo, runBacktestCli } from "./support/cli.js";
import { writeRecording } from "./support/recording.js";
import { STRATEGY, syntheticSweepFiles, writeIn } from "./support/synthetic-sweep.js";

/* `mm backtest --sweep`: grid points on real worker threads, compared with single runs. */

let dir: string;
let scenario: string;
let sweep: string;
const file = (name: string, content: unknown) => writeIn(dir, name, content);
beforeAll(() => {
  ({ dir, scenario, sweep } = syntheticSweepFiles("mm-sweep-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = runBacktestCli;

interface Results {
  kind: string;
  points: number;
  failed: number;
  rankBy: { metric: string; field: string; order: string };
  ranking: { rank: number; point: number; params: Record<string, number>; value: string | null }[];
  results: {
    point: number;
    params: Record<string, number>;
    status: string;
    summary?: unknown;
    error?: { code: string; message: string };
  }[];
}

/** The table's rows as [rank, point, gamma, k, metric]. */
const rows = (table: string) =>
  table
    .trim()
    .split("\n")
    .slice(2)
    .filter((l) => /^\s+\d/.test(l))
    .map((l) => l.trim().split(/\s+/).slice(0, 5));

describe("mm backtest --sweep (synthetic)", () => {
  let first: { stdout: string; out: string; results: Results };

  it("runs the grid on 2 workers, ranks it, and each point equals its run alone", async () => {
    const out = join(dir, "sweep-2.json");
    const r = await run(
      "--scenario",
      scenario,
      "--sweep",
      sweep,
      "--workers",
      "2",
      "--progress",
      "lines",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^mm backtest: sweep of 4 points on 2 workers\n/);
    expect(r.stderr).toMatch(
      /^sweep: 4\/4 points done, 248 events, \d+ events\/s, [\d.]+ s elapsed, ETA 0 s$/m,
    );
    expect(r.stderr).toMatch(/mm backtest: sweep of 4 points \(0 failed\) in [\d.]+ s, 248 events/);
    const results = JSON.parse(readFileSync(out, "utf8")) as Results;
    expect(results).toMatchObject({
      kind: "synthetic",
      points: 4,
      failed: 0,
      rankBy: { metric: "pnl", field: "pnl.mean", order: "desc" },
    });
    expect(results.results.map((p) => [p.point, p.params, p.status])).toEqual([
      [1, { gamma: 0.5, k: 50 }, "ok"],
      [2, { gamma: 0.5, k: 100 }, "ok"],
      [3, { gamma: 5, k: 50 }, "ok"],
      [4, { gamma: 5, k: 100 }, "ok"],
    ]);
    // Ranked by mean PnL, largest first, ties in grid order.
    const values = results.ranking.map((x) => Number(x.value));
    for (let i = 1; i < values.length; i++) {
      const [a, b] = [results.ranking[i - 1], results.ranking[i]];
      expect(values[i - 1] ?? 0, "ranked").toBeGreaterThanOrEqual(values[i] ?? 0);
      if (values[i - 1] === values[i]) expect(a?.point ?? 0).toBeLessThan(b?.point ?? 0);
    }
    expect(new Set(values).size, "the grid should move PnL").toBeGreaterThan(1);
    // The table lists the same ranking with the parameters and the metric to 6 decimals.
    expect(r.stdout.split("\n")[0]).toBe("ranked by pnl (pnl.mean, largest first): 4 points, 0 failed");
    expect(rows(r.stdout)).toEqual(
      results.ranking.map((x) => [
        String(x.rank),
        String(x.point),
        String(x.params.gamma),
        String(x.params.k),
        Number(x.value)
          .toFixed(6)
          .replace(/\.?0+$/, ""),
      ]),
    );
    expect(r.stdout).not.toMatch(/ - /);
    // Determinism across threads: each point's summary is the one a single run writes.
    for (const p of results.results) {
      const layer = file(`point-${p.point}.json`, {
        strategy: { ...STRATEGY, params: { ...STRATEGY.params, ...p.params } },
      });
      const single = await run("--scenario", scenario, "--scenario", layer);
      expect(single.code, single.stderr).toBe(0);
      expect(summaryJson(p.summary), `point ${p.point}`).toBe(single.stdout);
    }
    first = { stdout: r.stdout, out: readFileSync(out, "utf8"), results };
  }, 60_000);

  it("gives the same table and bytes on one worker under `node --import tsx` (as npm run mm)", async () => {
    expect(first, "needs the previous test").toBeDefined();
    const out = join(dir, "sweep-1.json");
    const r = await promisify(execFile)(
      process.execPath,
      [
        "--import",
        "tsx",
        "src/cli/main.ts",
        "backtest",
        "--scenario",
        scenario,
        "--sweep",
        sweep,
        "-w",
        "1",
        "--out",
        out,
      ],
      { cwd: packageRoot(), env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } },
    );
    expect(r.stderr).toMatch(/sweep of 4 points on 1 worker\n/);
    expect(r.stderr).toMatch(/^sweep: 2\/4 points done/m);
    expect(r.stdout).toBe(first.stdout);
    expect(readFileSync(out, "utf8")).toBe(first.out);
  }, 60_000);

  it("reports failed points (a thrown error, a dead worker) with their params, ranks the rest, exits 1", async () => {
    expect(first, "needs the first test").toBeDefined();
    const x = captureIo();
    const out = join(dir, "sweep-failing.json");
    const code = await runSweepCommand(
      { sweep, workers: "2", progress: "none", "rank-by": "maxDrawdown" },
      { configs: [], scenarios: [scenario], data: undefined, seed: undefined, paths: undefined, out },
      x,
      { script: new URL("./support/sweep-failing-worker.ts", import.meta.url) },
    );
    const stdout = x.out.join("");
    expect(code, x.err.join("")).toBe(1);
    expect(stdout).toMatch(
      /^ranked by maxDrawdown \(mean of perPath\[\]\.maxDrawdown, smallest first\): 4 points, 2 failed\n/,
    );
    expect(
      rows(stdout)
        .map((r) => r[1])
        .sort(),
    ).toEqual(["1", "2"]);
    expect(stdout).toContain(
      "failed:\n  point 3 gamma=5 k=50: point_failed: RangeError: gamma 5 with k 50 refused by the test worker\n  point 4 gamma=5 k=100: worker_crashed: worker exited with code 7\n",
    );
    const results = JSON.parse(readFileSync(out, "utf8")) as Results;
    expect(results.failed).toBe(2);
    expect(results.results.map((p) => p.error?.code ?? p.status)).toEqual([
      "ok",
      "ok",
      "point_failed",
      "worker_crashed",
    ]);
    expect(results.results.slice(0, 2)).toEqual(first.results.results.slice(0, 2));
  }, 60_000);
});

/** The synthetic sweep with a 2 s --point-timeout on `workers` workers running a support script. */
async function timedSweep(workers: string, script: string) {
  const x = captureIo();
  const code = await runSweepCommand(
    { sweep, workers, progress: "none", "point-timeout": "2" },
    {
      configs: [],
      scenarios: [scenario],
      data: undefined,
      seed: undefined,
      paths: undefined,
      out: undefined,
    },
    x,
    { script: new URL(`./support/${script}`, import.meta.url) },
  );
  return { x, code };
}

describe("mm backtest --sweep --point-timeout", () => {
  it("fails a point that never finishes (point_timeout), runs the rest on a fresh worker, exits 1", async () => {
    const { x, code } = await timedSweep("1", "sweep-hanging-worker.ts");
    const stdout = x.out.join("");
    expect(code, x.err.join("")).toBe(1);
    expect(stdout).toMatch(/: 4 points, 1 failed\n/);
    expect(stdout).toContain(
      "failed:\n  point 4 gamma=5 k=100: point_timeout: no result within 2 s: its worker was terminated\n",
    );
    expect(
      rows(stdout)
        .map((r) => r[1])
        .sort(),
    ).toEqual(["1", "2", "3"]);
  }, 60_000);

  it("counts a point's own time, not its worker's start-up: a 3 s start with a 2 s limit fails nothing", async () => {
    const { x, code } = await timedSweep("2", "sweep-slow-start-worker.ts");
    expect(code, x.out.join("") + x.err.join("")).toBe(0);
    expect(x.out.join("")).toMatch(/: 4 points, 0 failed\n/);
  }, 60_000);

  it("refuses a limit that is not a whole positive number of seconds, and the flag without --sweep (usage, exit 2)", async () => {
    for (const bad of ["0", "1.5", "abc", "604801"]) {
      await expect(
        run("--scenario", scenario, "--sweep", sweep, "--point-timeout", bad),
      ).rejects.toMatchObject({
        code: "usage_error",
        message: "--point-timeout must be an integer number of seconds >= 1 (at most 604800, a week)",
      });
    }
    await expect(run("--scenario", scenario, "--point-timeout", "5")).rejects.toMatchObject({
      code: "usage_error",
      message: "--point-timeout applies to --sweep only",
    });
  });
});

describe("mm backtest --sweep (replay)", () => {
  it("sweeps a bands config over a recording; the points equal their single runs", async () => {
    const data = join(dir, "rec.jsonl.gz");
    await writeRecording(data, 300);
    const config = file("bands.json", {
      strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
      markets: { tick: "0.01", minSize: "5" },
    });
    const grid = file("bands-sweep.json", { grid: { "bands[0].size": ["10", "40"] }, rankBy: "fills" });
    const out = join(dir, "bands-results.json");
    const r = await run(
      "-c",
      config,
      "-d",
      data,
      "--sweep",
      grid,
      "-w",
      "2",
      "--progress",
      "none",
      "-o",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("ranked by fills (fills.count, largest first): 2 points, 0 failed");
    const results = JSON.parse(readFileSync(out, "utf8")) as Results;
    expect(results.kind).toBe("replay");
    for (const p of results.results) {
      const size = p.params["bands[0].size"];
      const layer = file(`bands-${p.point}.json`, {
        strategy: { name: "bands", params: { bands: [{ margin: "0.01", size }] } },
      });
      const single = await run("-c", config, "-c", layer, "-d", data);
      expect(single.code, single.stderr).toBe(0);
      expect(summaryJson(p.summary), `point ${p.point}`).toBe(single.stdout);
    }
  }, 60_000);
});

describe("mm backtest --sweep: bad input", () => {
  it("exits 2 before running anything, naming the field", async () => {
    const bad = file("bad-sweep.json", { grid: { gamma: ["0.05", 1], k: [] } });
    const r1 = await run("--scenario", scenario, "--sweep", bad, "--progress", "none");
    expect(r1.code).toBe(2);
    expect(r1.stderr).toContain(
      "sweep file is invalid (code sweep_invalid):\n  grid.k: must be a non-empty array of values",
    );
    const wrong = file("wrong-sweep.json", { grid: { gamma: ["0.05", 1] } });
    const r2 = await run("--scenario", scenario, "--sweep", wrong, "--progress", "none");
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('grid.gamma = "0.05": must be a JSON number: 0.05, not "0.05"');
    expect(r2.stderr).not.toContain("sweep of");
    const r3 = await run("--scenario", scenario, "--sweep", sweep, "--rank-by", "p&l");
    expect(r3.code).toBe(2);
    expect(r3.stderr).toMatch(/rank-by "p&l": neither a metric \(pnl, /);
    const r4 = await run("--scenario", scenario, "--sweep", file("nojson.json", "{ grid"));
    expect(r4.code).toBe(2);
    expect(r4.stderr).toMatch(/nojson\.json: not JSON/);
  });

  it("names every problem of the sweep file at once: repeats, refused values, unknown keys", async () => {
    // Session 21: a repeat and a refused value in one axis reported the repeat only; the refused
    // "0.05" showed once the repeat was fixed, though README says every problem is named at once.
    const bad = file("many-problems.json", { grid: { gamma: [2, "0.05", 2], k: [1, 1] }, rankby: "pnl" });
    const r = await run("--scenario", scenario, "--sweep", bad, "--progress", "none");
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      [
        `mm backtest: ${bad}: sweep file is invalid (code sweep_invalid):`,
        "  rankby: unknown setting",
        "  grid.gamma[2]: repeats grid.gamma[0] (2)",
        "  grid.k[1]: repeats grid.k[0] (1)",
        '  grid.gamma = "0.05": must be a JSON number: 0.05, not "0.05"',
        "",
      ].join("\n"),
    );
  });

  it("exits 2 before any point runs when the config's engine.requoteIntervalMs is one the daemon refuses", async () => {
    // The grid sets strategy parameters only: every point takes the config's engine section, so
    // a bad period there is every point's, refused with the config before a worker starts.
    const fast = file("fast-requote.json", { engine: { requoteIntervalMs: 1 } });
    const r = await run("--scenario", scenario, "--scenario", fast, "--sweep", sweep, "--progress", "none");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("engine.requoteIntervalMs: must be 0 or ≥ 100, got 1");
    expect(r.stderr).not.toContain("sweep of");
  });

  it("refuses sweep flags without --sweep and bad worker counts", async () => {
    await expect(run("--scenario", scenario, "--workers", "2")).rejects.toMatchObject({
      code: "usage_error",
    });
    await expect(run("--scenario", scenario, "--rank-by", "pnl")).rejects.toMatchObject({
      code: "usage_error",
    });
    await expect(run("--scenario", scenario, "--sweep", sweep, "-w", "0")).rejects.toMatchObject({
      code: "usage_error",
    });
    await expect(run("--scenario", scenario, "--sweep", sweep, "--progress", "fancy")).rejects.toMatchObject({
      code: "usage_error",
    });
  });
});
