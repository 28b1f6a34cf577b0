import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/config/paths.js";
import { defaultWarmupMinutes, parseSoakArgs, SoakUsageError } from "./options.js";
import type { SoakReport } from "./report.js";

/** Runs `npm run soak -- args` as npm does (node --import tsx test/soak/index.ts). */
function soak(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/soak/index.ts", ...args], {
      cwd: packageRoot(),
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      stderr += c;
    });
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("soak flags", () => {
  it("validates every flag with a message naming it", () => {
    expect(parseSoakArgs(["--minutes", "5"])).toEqual({
      minutes: 5,
      markets: 100,
      sampleSeconds: 5,
      warmupMinutes: 2.5,
      out: undefined,
      heapSnapshots: undefined,
    });
    expect(defaultWarmupMinutes(60)).toBe(10.5);
    const bad: [string[], RegExp][] = [
      [[], /--minutes is required/],
      [["--minutes", "0"], /--minutes: must be/],
      [["--minutes", "abc"], /--minutes: must be/],
      [["--minutes", "5", "--markets", "2.5"], /--markets: must be an integer/],
      [["--minutes", "5", "--markets", "0"], /--markets/],
      [["--minutes", "5", "--sample-seconds", "0.1"], /--sample-seconds/],
      [["--minutes", "5", "--warmup-minutes", "5"], /--warmup-minutes/],
      [["--minutes", "5", "--out", ""], /--out: must name a path/],
      [["--minutes", "5", "--bogus"], /Unknown option '--bogus'/],
      [["--minutes", "5", "extra"], /positional/],
    ];
    for (const [args] of bad) expect(() => parseSoakArgs(args)).toThrow(SoakUsageError);
    for (const [args, message] of bad) expect(() => parseSoakArgs(args)).toThrow(message);
  });

  it("exits 2 with the reason and the usage on a bad flag", async () => {
    const r = await soak(["--minutes", "abc"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/soak: --minutes: must be a number of minutes/);
    expect(r.stderr).toMatch(/npm run soak -- --minutes N/);
  });
});

describe("npm run soak (a 6-second run on 5 markets)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mm-soak-test-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("quotes, samples and reports real figures, and its exit code is the verdict", async () => {
    const out = join(dir, "report.json");
    const r = await soak(["--minutes", "0.1", "--markets", "5", "--sample-seconds", "1", "--out", out]);
    const report = JSON.parse(await readFile(out, "utf8")) as SoakReport;
    expect(r.code, r.stderr).toBe(report.pass ? 0 : 1);
    expect(report.goals.map((g) => g.pass).every(Boolean)).toBe(report.pass);
    expect(report.markets).toBe(5);
    expect(report.samples.length).toBeGreaterThanOrEqual(5);
    for (const s of report.samples) {
      expect(s.rssBytes).toBeGreaterThan(10_000_000);
      expect(s.heapUsedBytes).toBeGreaterThan(1_000_000);
      expect(Number.isFinite(s.eldP99Ms)).toBe(true);
      expect(s.mockRssBytes).toBeGreaterThan(10_000_000); // the mock's own process, measured apart
    }
    const figures = [
      report.rss.warmupEndBytes,
      report.rss.endBytes,
      report.rss.growthPct,
      report.rss.slopeMbPerHour,
      report.eld.p99Ms,
      report.eld.maxMs,
      report.heap.liveAtEndBytes,
    ];
    for (const x of figures) expect(Number.isFinite(x)).toBe(true);
    // The delay is the timer's lateness (its resolution subtracted): ≥ 0, and some tick is always late.
    expect(report.eld.p99Ms).toBeGreaterThanOrEqual(0);
    expect(report.eld.maxMs).toBeGreaterThan(0);
    expect(report.totals.placesSent).toBeGreaterThan(0); // 5 markets × 2 tokens × 2 bands × 2 sides at start
    expect(report.totals.placesAccepted).toBeGreaterThan(0);
    expect(report.totals.unhandled).toBe(0);
    expect(report.stop.exitCode).toBe(0);
    expect(report.stop.openOnMock).toBe(0);
    expect(r.stdout).toMatch(/^t= +\d+s rss [\d.]+ MB/m);
    expect(r.stdout).toMatch(/^RSS growth +-?[\d.]+%/m);
    expect(r.stdout).toMatch(/^ {2}(PASS|FAIL) {2}event-loop delay p99 < 50 ms: [\d.]+ ms$/m);
  }, 60_000);
});
