import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSweepCommand } from "../../../../src/cli/backtest-sweep.js";
import { captureIo } from "../../../integration/backtest/support/cli.js";
import { CUT_FILES, killedRecording } from "../../../integration/backtest/support/killed-recording.js";

/*
 * A sweep over a recording whose last file was cut short (a killed recorder) warns on stderr once
 * per cut file, as `mm backtest` does for a single run, however many points read the file.
 */

let dir: string;
let config: string;
let grid: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-sweep-cut-"));
  config = join(dir, "bands.json");
  writeFileSync(
    config,
    JSON.stringify({
      strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
      markets: { tick: "0.01" },
    }),
  );
  grid = join(dir, "grid.json");
  writeFileSync(grid, JSON.stringify({ grid: { "bands[0].size": ["10", "20", "40"] }, rankBy: "fills" }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const warning = (path: string) =>
  `mm backtest: warning: ${path} is cut short (no gzip end, as a killed recorder leaves it): ` +
  "replayed up to its last complete line\n";

async function sweep(data: string, out: string) {
  const io = captureIo();
  const code = await runSweepCommand(
    { sweep: grid, workers: "2", progress: "none" },
    { configs: [config], scenarios: [], data, seed: undefined, paths: undefined, out },
    io,
  );
  return { code, stderr: io.err.join(""), results: JSON.parse(readFileSync(out, "utf8")) };
}

describe("mm backtest --sweep over a cut recording", () => {
  it("warns once per cut file, naming it, and every point still lists it in truncatedFiles", async () => {
    const data = await killedRecording(dir, "cut");
    const r = await sweep(data, join(dir, "cut-results.json"));
    expect(r.code, r.stderr).toBe(0);
    const text = warning(join(data, CUT_FILES[1]));
    expect(r.stderr.split(text).length - 1, r.stderr).toBe(1);
    expect(r.stderr).not.toContain(CUT_FILES[0]);
    const points = r.results.results as { status: string; summary: { data: unknown } }[];
    expect(points).toHaveLength(3);
    for (const p of points) {
      expect(p.status).toBe("ok");
      expect(p.summary.data).toMatchObject({ frames: 180, truncatedFiles: [CUT_FILES[1]] });
    }
  }, 60_000);

  it("prints no warning over complete files", async () => {
    const data = await killedRecording(dir, "clean");
    rmSync(join(data, CUT_FILES[1]));
    const r = await sweep(data, join(dir, "clean-results.json"));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("warning");
    const points = r.results.results as { summary: { data: Record<string, unknown> } }[];
    for (const p of points) expect(p.summary.data).not.toHaveProperty("truncatedFiles");
  }, 60_000);
});
