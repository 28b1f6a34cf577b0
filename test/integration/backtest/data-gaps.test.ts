import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { replayReportHtml } from "../../../src/backtest/report/html/report.js";
import { summaryJson } from "../../../src/backtest/report/summary.js";
import { T0, writeSteps } from "./support/crafted.js";

/*
 * Gaps in the data reach the summary (`data.gaps`) and the HTML report: a recording with two
 * silences of 2 h and 90 min and a 20 min one (under the default 1 h threshold), replayed with the
 * default threshold and with 10 min.
 */

const BANDS = { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } };
const MIN = 60_000;
const iso = (dt: number) => new Date(T0 + dt).toISOString();

let dir: string;
let data: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-data-gaps-"));
  data = join(dir, "gaps.jsonl.gz");
  const resize = (dt: number, size: string) => ({
    dt,
    delta: [["buy", "0.49", size]] as ["buy", string, string][],
  });
  await writeSteps(data, [
    { dt: 0, snapshot: { bids: [["0.49", "100"]], asks: [["0.51", "100"]] } },
    resize(1_000, "90"),
    resize(1_000 + 120 * MIN, "80"), // 2 h silent
    resize(2_000 + 120 * MIN, "70"),
    resize(2_000 + 140 * MIN, "60"), // 20 min
    resize(2_000 + 230 * MIN, "50"), // 90 min
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (report: Record<string, unknown> = {}) =>
  runBacktest({ config: parseReplayConfig([{ strategy: BANDS, report }]), data, timeline: {} });

describe("gaps in the data", () => {
  it("are listed in the summary, longest first, at the default threshold of an hour", async () => {
    const r = await run();
    expect(r.summary.data.gaps).toEqual({
      thresholdMs: 60 * MIN,
      count: 2,
      totalMs: 210 * MIN,
      longest: [
        { from: iso(1_000), to: iso(1_000 + 120 * MIN), ms: 120 * MIN },
        { from: iso(2_000 + 140 * MIN), to: iso(2_000 + 230 * MIN), ms: 90 * MIN },
      ],
    });
    // Byte-identical run to run.
    expect(summaryJson((await run()).summary)).toBe(summaryJson(r.summary));
    const html = replayReportHtml(r);
    expect(html).toContain(
      `Data gaps (silences of 1h or more between frames): 2, 3h 30m in all; the longest 2h, ${iso(1_000)} to ${iso(1_000 + 120 * MIN)}.`,
    );
    expect(html).toContain("<h3>Data gaps</h3>");
    expect(html).toContain(
      `<td>${iso(2_000 + 140 * MIN)}</td><td>${iso(2_000 + 230 * MIN)}</td><td>1h 30m</td>`,
    );
  }, 60_000);

  it("follow the configured threshold (report.dataGapMs)", async () => {
    const r = await run({ dataGapMs: 10 * MIN });
    expect(r.summary.data.gaps.count).toBe(3);
    expect(r.summary.data.gaps.longest.map((g) => g.ms / MIN)).toEqual([120, 90, 20]);
    const none = await run({ dataGapMs: 86_400_000 });
    expect(none.summary.data.gaps).toEqual({ thresholdMs: 86_400_000, count: 0, totalMs: 0, longest: [] });
    const html = replayReportHtml(none);
    expect(html).toContain("Data gaps (silences of 1d or more between frames): none.");
    expect(html).not.toContain("<h3>Data gaps</h3>");
  }, 60_000);
});
