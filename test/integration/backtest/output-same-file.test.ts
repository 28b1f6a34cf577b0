import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asPaperRun, bandsReplay } from "./support/cli.js";
import { writeRecording } from "./support/recording.js";

/*
 * Review (s19, r2bt): requireOutputFolders (src/cli/output-folder.ts) promises that an output the
 * run could not (or should not) write is refused before any run — "an output that cannot be
 * written would throw the finished run away". Three outputs pass the check:
 *  - --out and --html naming the same file (or one a symlink to the other): the HTML silently
 *    overwrites the JSON summary, exit 0 — the summary of the run is lost;
 *  - --out naming the --data recording: the recording is overwritten by the summary (exit 0), the
 *    captured market data is gone for good;
 *  - --out a dangling symlink (its target's folder missing): the run completes, then ENOENT, exit 2
 *    — the run is thrown away, exactly what the check was added to prevent.
 * Each should be refused up front, exit 2, before the run (no speed line).
 */

let dir: string;
let data: string;
const ran = /in \d+\.\d\d s/;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-review-r2bt-out-"));
  data = join(dir, "rec.jsonl.gz");
  await writeRecording(data, 100);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const synthetic = asPaperRun;

describe("mm backtest outputs refused before the run", () => {
  it("--out and --html the same file: refused (exit 2), not the JSON overwritten by the HTML", async () => {
    const same = join(dir, "report.out");
    const r = await synthetic("--out", same, "--html", same);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--html");
    expect(r.stderr).not.toMatch(ran);
    expect(existsSync(same)).toBe(false);
  }, 60_000);

  it("--html a symlink to the --out file: the same file, refused too", async () => {
    const out = join(dir, "summary.json");
    const link = join(dir, "report-link.html");
    symlinkSync(out, link);
    const r = await synthetic("--out", out, "--html", link);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(ran);
  }, 60_000);

  it("--out the --data recording: refused (exit 2), the recording left whole", async () => {
    const before = readFileSync(data);
    const r = await bandsReplay(data, "--out", data);
    expect(readFileSync(data).equals(before)).toBe(true);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(ran);
  }, 60_000);

  it("--out a dangling symlink whose target folder is missing: refused before the run, not ENOENT after it", async () => {
    const link = join(dir, "dangling.json");
    symlinkSync(join(dir, "no-such-folder", "x.json"), link);
    const r = await synthetic("--out", link);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--out");
    expect(r.stderr).not.toMatch(ran);
  }, 60_000);
});
