import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SeriesJson } from "../../../src/backtest/report/html/downsample.js";
import { renderReportPage } from "../../../src/backtest/report/html/page.js";
import type { TimelineData } from "../../../src/backtest/report/html/timeline.js";
import { chromiumInstalled, elements, renderHeadless } from "./support/chromium.js";

/*
 * Review (s19, btdocs): the HTML report's "our best bid / our best ask" lines drop the whole
 * stretch before a quote is withdrawn. The chart script's stepLine() on a null value only closes
 * the line (`open = false`) without first drawing the horizontal step from the last value to the
 * null's time, so a bid that rested at 0.19 from t = 0 to t = 5 s and was then pulled is drawn as a
 * single point: nothing on the chart. On the imported Polymarket capture the bot's bid 0.19 and ask
 * 0.21 rest for 3.7 days (quote uptime 73 %), and the price chart shows no quote line at all.
 */

const series = (t: number[], v: (number | null)[]): SeriesJson => ({
  t,
  v,
  lo: v,
  hi: v,
  bucketMs: 1,
  observations: t.length,
});

const END = 10_000;
const timeline: TimelineData = {
  startMs: 0,
  endMs: END,
  equity: series([0, END], [0, 0]),
  tokens: [
    {
      tokenId: "1",
      marketId: "0xm",
      outcome: "YES",
      mid: series([0, END], [0.2, 0.2]),
      // Our bid rests at 0.19 from 0 and is withdrawn at 5 s; our ask rests at 0.21 all along.
      bid: series([0, 5_000, END], [0.19, null, null]),
      ask: series([0, END], [0.21, 0.21]),
      inventory: series([0, END], [0, 0]),
      fills: { total: 0, stride: 1, points: [] },
      activity: { fills: 0, quoteChanges: 3, bookEvents: 1 },
    },
  ],
  omittedTokens: 0,
  limits: { maxPoints: 1000, maxFills: 2000, maxTokens: 6 },
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-review-btdocs-html-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(chromiumInstalled())("the HTML report's quote lines", () => {
  it("draw a quote that rests and is then withdrawn, up to its withdrawal", async () => {
    const html = renderReportPage({
      title: "review",
      meta: [],
      summaryHtml: "",
      timeline,
      timeAxis: "elapsed",
      summaryJson: "{}",
    });
    const file = join(dir, "r.html");
    writeFileSync(file, html);
    const { dom } = await renderHeadless(file, dir);
    const price = elements(dom, "figure").find((f) => f.attrs["data-chart"] === "price");
    const line = (cls: string) =>
      elements(price?.body ?? "", "path").find((p) => p.attrs.class === `line ${cls}`)?.attrs.d ?? "";
    // The plot spans x = 72 … 944 over 0 … 10 s: 5 s is x = 508.0.
    expect(line("ask")).toMatch(/^M72\.0 [\d.]+H944\.0/); // control: a quote resting to the end is drawn
    expect(line("bid")).toMatch(/^M72\.0 [\d.]+H508\.0/); // the bid from 0 to its withdrawal at 5 s
  }, 60_000);
});
