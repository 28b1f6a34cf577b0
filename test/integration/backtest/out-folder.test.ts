import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asPaperRun, asPaperSweep, bandsReplay } from "./support/cli.js";
import { writeRecording } from "./support/recording.js";

/*
 * Review (s19, btdocs): `mm backtest --out FILE` / `--html FILE` whose folder does not exist is
 * discovered only after the whole replay, synthetic run or sweep has finished, with a bare
 * "ENOENT: no such file or directory, open '…'" — the run (hours for a large sweep) is lost and
 * must be repeated. `mm import` checks OUT's folder before reading (output_dir_missing); the
 * backtest should likewise refuse before running, exit 2, naming the option and the folder.
 */

let dir: string;
let data: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-review-btdocs-out-"));
  data = join(dir, "rec.jsonl.gz");
  await writeRecording(data, 200);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mm backtest with an output file in a missing folder", () => {
  it("--out: refused before the replay runs (exit 2, the option and folder named)", async () => {
    const missing = join(dir, "no-such-folder");
    const r = await bandsReplay(data, "--out", join(missing, "report.json"));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--out");
    expect(r.stderr).toContain(missing);
    // The replay never ran: no speed line (its result would have been thrown away).
    expect(r.stderr).not.toMatch(/frames \(\d+ frames\/s\)/);
  }, 60_000);

  it("--html: refused before the replay runs, and no JSON summary is written for a run whose report is lost", async () => {
    const missing = join(dir, "no-html-folder");
    const out = join(dir, "report-html-case.json");
    const r = await bandsReplay(data, "--out", out, "--html", join(missing, "report.html"));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--html");
    expect(r.stderr).not.toMatch(/frames \(\d+ frames\/s\)/);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it("sweep --out: refused before any point runs", async () => {
    const missing = join(dir, "no-sweep-folder");
    const r = await asPaperSweep("--out", join(missing, "sweep.json"));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--out");
    expect(r.stdout).not.toMatch(/^ranked by/m);
  }, 120_000);
});

describe("mm backtest with an output path that is not a file in a folder", () => {
  it("a file in the folder's place, or a folder named as the file: refused before the run, each named", async () => {
    const file = join(dir, "plain-file");
    writeFileSync(file, "x");
    const run = asPaperRun;
    const under = await run("--out", join(file, "report.json"));
    expect(under.code).toBe(2);
    expect(under.stderr).toContain(`--out ${join(file, "report.json")}: ${file} is not a folder`);
    const folder = await run("--html", dir);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`--html ${dir} is a folder`);
    // Neither ran: no speed line.
    expect(under.stderr + folder.stderr).not.toMatch(/paths in/);
  }, 60_000);
});
