import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBacktestCli } from "./support/cli.js";
import { writeRecording } from "./support/recording.js";

/* `mm backtest`, run in process through its Command (the lead registers it in commands.ts). */

let dir: string;
let data: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-backtest-cli-"));
  data = join(dir, "rec.jsonl.gz");
  await writeRecording(data, 400);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = runBacktestCli;

describe("mm backtest", () => {
  it("replays a recording with a config and writes the JSON summary to --out", async () => {
    const out = join(dir, "report.json");
    const r = await run(
      "--config",
      "config/backtest/bands-replay.json",
      "--data",
      data,
      "--seed",
      "3",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^mm backtest: 400 frames \(\d+ frames\/s\) in [\d.]+ s\n$/);
    const summary = JSON.parse(readFileSync(out, "utf8"));
    expect(summary).toMatchObject({ mm: "backtest-summary", kind: "replay", seed: 3, data: { frames: 400 } });
    expect(Object.keys(summary)).toEqual([
      "mm",
      "version",
      "kind",
      "seed",
      "strategy",
      "latency",
      "data",
      "window",
      "pnl",
      "fees",
      "fills",
      "inventory",
      "drawdown",
      "sharpe",
      "quoteUptime",
      "markouts",
      "orders",
      "tokens",
      "mirror",
      "end",
    ]);
  }, 60_000);

  it("runs a synthetic scenario with --paths, printing the summary", async () => {
    const r = await run("--scenario", "config/backtest/as-paper.json", "--paths", "2", "--seed", "9");
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ kind: "synthetic", paths: 2, seed: 9 });
    expect(summary.perPath).toHaveLength(2);
    expect(summary.pnl).toEqual({ mean: expect.any(String), std: expect.any(String) });
  }, 60_000);

  it("exits 2 naming the problem for a bad config, a missing data path or bad JSON", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({ strategy: { name: "nope" }, latency: { feedMs: -1 }, report: { dataGapMs: 0 } }),
    );
    const r1 = await run("--config", bad, "--data", data);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toMatch(/strategy\.name/);
    expect(r1.stderr).toMatch(/latency\.feedMs: must be >= 0/);
    expect(r1.stderr).toMatch(/report\.dataGapMs: must be > 0/);
    const r2 = await run("--config", "config/backtest/bands-replay.json", "--data", join(dir, "absent"));
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/absent/);
    writeFileSync(bad, "{ not json");
    expect((await run("--scenario", bad)).code).toBe(2);
  });

  it("exits 2 naming engine.requoteIntervalMs for a period the daemon would refuse (1 ms)", async () => {
    const fast = join(dir, "fast-requote.json");
    writeFileSync(fast, JSON.stringify({ engine: { requoteIntervalMs: 1 } }));
    const replay = await run(
      "--config",
      "config/backtest/bands-replay.json",
      "--config",
      fast,
      "--data",
      data,
    );
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain("engine.requoteIntervalMs: must be 0 or ≥ 100, got 1");
    const scenario = await run("--scenario", "config/backtest/as-paper.json", "--scenario", fast);
    expect(scenario.code).toBe(2);
    expect(scenario.stderr).toContain("engine.requoteIntervalMs: must be 0 or ≥ 100, got 1");
  });

  it("refuses contradictory or missing flags as usage errors (exit 2 through mm's main)", async () => {
    await expect(run("--data", data)).rejects.toMatchObject({ code: "usage_error" });
    await expect(run("--scenario", "x.json", "--data", data)).rejects.toMatchObject({ code: "usage_error" });
    await expect(run("--config", "x.json", "--data", data, "--paths", "3")).rejects.toMatchObject({
      code: "usage_error",
    });
    await expect(run("--scenario", "x.json", "--paths", "0")).rejects.toMatchObject({ code: "usage_error" });
    // The scenario's own cap: --paths must not run what the scenario file may not ask for.
    await expect(run("--scenario", "x.json", "--paths", "1000001")).rejects.toMatchObject({
      code: "usage_error",
      message: "--paths must be an integer from 1 to 1000000",
    });
    const help = await run("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: mm backtest --config FILE/);
  });
});
