import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CHART_SCRIPT } from "../../../src/backtest/report/html/chart-script.js";
import { StepSeries } from "../../../src/backtest/report/html/downsample.js";
import { escapeHtml, scriptJson } from "../../../src/backtest/report/html/escape.js";
import { renderReportPage } from "../../../src/backtest/report/html/page.js";
import { duration, medianPath } from "../../../src/backtest/report/html/report.js";
import type { TimelineData } from "../../../src/backtest/report/html/timeline.js";

const HOSTILE = '</script><script>alert("x")</script><!-- & \u2028';

function series(points: [number, number][]) {
  const s = new StepSeries(0, 100);
  for (const [t, v] of points) s.add(t, v);
  s.finish(1_000);
  return s.json(6);
}

const TIMELINE: TimelineData = {
  startMs: 1_750_000_000_000,
  endMs: 1_750_000_001_000,
  equity: series([
    [0, 0],
    [500, 1.5],
  ]),
  tokens: [
    {
      tokenId: HOSTILE,
      marketId: `m${HOSTILE}`,
      outcome: "YES",
      mid: series([[0, 0.5]]),
      bid: series([[0, 0.49]]),
      ask: series([[0, 0.51]]),
      inventory: series([
        [0, 0],
        [500, 10],
      ]),
      fills: { total: 1, stride: 1, points: [[500, 1, 0.49, 10, 0]] },
      activity: { fills: 1, quoteChanges: 2, bookEvents: 1 },
    },
  ],
  omittedTokens: 0,
  limits: { maxPoints: 100, maxFills: 10, maxTokens: 6 },
};

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

describe("the report page", () => {
  const html = renderReportPage({
    title: `Report ${HOSTILE}`,
    meta: [HOSTILE],
    summaryHtml: "<p>figures</p>",
    timeline: TIMELINE,
    timeAxis: "utc",
    summaryJson: `{"x": "${HOSTILE}"}`,
  });

  it("embeds the data so that no string can end the script element, and it parses back unchanged", () => {
    expect(html.match(/<script\b/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    const data = /<script id="mm-data" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1] ?? "";
    expect(JSON.parse(data)).toEqual({ ...TIMELINE, timeAxis: "utc" });
    expect(html).not.toContain('alert("x")</script>');
    expect(html).toContain(escapeHtml(`Report ${HOSTILE}`));
  });

  it("allows exactly its own inline script and style by hash, and nothing else", () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    expect(script).toBe(CHART_SCRIPT);
    expect(csp).toBe(
      `default-src 'none'; script-src 'sha256-${sha(script)}'; style-src 'sha256-${sha(style)}'; ` +
        "img-src 'none'; base-uri 'none'; form-action 'none'",
    );
  });

  it("has a figure per chart: equity, then price and inventory per token", () => {
    const figs = [...html.matchAll(/<figure class="chart" data-chart="(\w+)"(?: data-token="(\d+)")?>/g)].map(
      (m) => `${m[1]}${m[2] ?? ""}`,
    );
    expect(figs).toEqual(["equity", "price0", "inventory0"]);
  });
});

describe("scriptJson and escapeHtml", () => {
  it("escape what could break out of their context", () => {
    const v = { s: HOSTILE, n: [1, null, -0.5] };
    const j = scriptJson(v);
    expect(j).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(j)).toEqual(v);
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });
});

describe("medianPath", () => {
  const path = (n: number, pnl: string) => ({ path: n, pnl });

  it("takes the lower median by exact PnL, ties broken by path number", () => {
    expect(medianPath([path(0, "3"), path(1, "-1"), path(2, "2")]).path).toBe(2);
    expect(medianPath([path(0, "0.3"), path(1, "0.1"), path(2, "0.2"), path(3, "0.4")]).path).toBe(2);
    expect(medianPath([path(0, "1.000000000001"), path(1, "1"), path(2, "1"), path(3, "5")]).path).toBe(2);
    expect(medianPath([path(4, "7")]).path).toBe(4);
    expect(() => medianPath([])).toThrow(expect.objectContaining({ code: "report_no_paths" }));
  });
});

describe("duration", () => {
  it("reads like a person wrote it", () => {
    expect(duration(350)).toBe("350 ms");
    expect(duration(42_000)).toBe("42 s");
    expect(duration(3_600_000)).toBe("1h");
    expect(duration(444_280_119)).toBe("5d 3h 24m");
    expect(duration(59_000 + 120_000)).toBe("2m 59s");
  });
});
