import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import type { SeriesJson } from "../../../src/backtest/report/html/downsample.js";
import type { ChartData } from "../../../src/backtest/report/html/page.js";
import { summaryJson } from "../../../src/backtest/report/summary.js";
import type { BacktestFill } from "../../../src/backtest/sim/bot-fills.js";
import { backtestCommand } from "../../../src/cli/backtest.js";
import type { CliIo } from "../../../src/cli/command.js";
import { packageRoot } from "../../../src/config/paths.js";
import {
  CHROMIUM,
  chromiumInstalled,
  elements,
  pathPoints,
  type Rendered,
  renderHeadless,
  writeQuietToken,
} from "./support/chromium.js";
import { GEN_TOKEN, writeRecording } from "./support/recording.js";

/*
 * The HTML report: its series are sampled without touching the JSON summary, and the file `mm
 * backtest --html` writes renders in headless Chromium (Debian's package) offline: every chart is
 * drawn from the embedded data (points per line, one marker per fill) and the page requests nothing.
 * Without /usr/bin/chromium the rendering tests skip with a message, unless CI is set: then they fail.
 */

const QUIET = "777";
const T0 = 1_750_000_000_000;
const CONFIG = {
  strategy: {
    name: "bands",
    params: {
      bands: [
        { margin: "0.01", size: "10" },
        { margin: "0.02", size: "20" },
      ],
    },
  },
  latency: { feedMs: 5, entryMs: 3, responseMs: 3 },
  markets: { feeTakerBps: 200 },
  fees: { makerFeeBps: 20 },
};

const installed = chromiumInstalled();
const inCi = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false";
if (!installed && !inCi) {
  console.warn(
    `SKIPPED the Chromium part of html-report.test.ts: ${CHROMIUM} is missing. Install Debian's package ` +
      "(apt-get install -y chromium; .ci/run does) to run it. With CI set, this test fails instead.",
  );
}

let dir: string;
let data: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-html-report-"));
  data = join(dir, "rec");
  mkdirSync(data);
  // 20 s of a busy book, and a quiet second market (one resize every 0.5 s) over the same time.
  await writeRecording(join(data, "busy.jsonl.gz"), 1_000, { seed: 11, t0: T0 });
  await writeQuietToken(join(data, "quiet.jsonl.gz"), QUIET, 60, T0 + 3, 500);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nonNull = (s: SeriesJson) => s.v.filter((v) => v !== null).length;
/** Nulls right after a value: the line is drawn on to each (an H) before it closes. */
const closings = (s: SeriesJson) => s.v.filter((v, i) => v === null && i > 0 && s.v[i - 1] !== null).length;
const last = (s: SeriesJson) => s.v[s.v.length - 1];

describe("the HTML report's series", () => {
  it("are sampled beside the summary without changing a byte of it, and agree with the fills", async () => {
    const config = parseReplayConfig([CONFIG]);
    const plain = await runBacktest({ config, data });
    const fills: BacktestFill[] = [];
    const r = await runBacktest({ config, data, timeline: { maxTokens: 1 }, onFill: (f) => fills.push(f) });
    expect(summaryJson(r.summary)).toBe(summaryJson(plain.summary));
    expect(plain.timeline).toBeUndefined();
    const tl = r.timeline;
    if (tl === undefined) throw new Error("no timeline");
    // Two tokens; maxTokens 1 keeps the busy one.
    expect(r.summary.tokens.map((t) => t.tokenId).sort()).toEqual([GEN_TOKEN, QUIET].sort());
    expect(tl.tokens.map((t) => t.tokenId)).toEqual([GEN_TOKEN]);
    expect(tl.omittedTokens).toBe(1);
    const tok = tl.tokens[0];
    if (tok === undefined) throw new Error("no token");
    const mine = fills.filter((f) => f.tokenId === GEN_TOKEN);
    expect(mine.length).toBeGreaterThan(50);
    expect(tok.fills.total).toBe(mine.length);
    expect(tok.fills.points).toEqual(
      mine.map((f) => [
        f.tsMs - T0,
        f.side === "buy" ? 1 : -1,
        Number(f.price) / 1e6,
        Number(f.quantity) / 1e6,
        f.role === "maker" ? 0 : 1,
      ]),
    );
    const s = r.summary.tokens.find((t) => t.tokenId === GEN_TOKEN);
    expect(last(tok.inventory)).toBe(Number(s?.position));
    expect(last(tok.mid)).toBe(Number(s?.mark));
    expect(last(tl.equity)).toBeCloseTo(Number(r.summary.pnl.total), 6);
    expect(tl.endMs - tl.startMs).toBe(r.summary.window.durationMs);
    // Our quotes rest on both sides most of the time, bids below asks.
    expect(nonNull(tok.bid)).toBeGreaterThan(20);
    expect(nonNull(tok.ask)).toBeGreaterThan(20);
    const bids = tok.bid.v.filter((v): v is number => v !== null);
    const asks = tok.ask.v.filter((v): v is number => v !== null);
    expect(Math.min(...bids)).toBeLessThan(Math.max(...asks));
  }, 60_000);
});

function io(): CliIo & { err: string[] } {
  const err: string[] = [];
  return { err, stdout: () => undefined, stderr: (t) => void err.push(t), env: {}, cwd: packageRoot() };
}

async function mm(...argv: string[]): Promise<void> {
  const x = io();
  const code = await backtestCommand.run(argv, x);
  expect(code, x.err.join("")).toBe(0);
}

/** The chart data embedded in a report file. */
function embedded(html: string): ChartData {
  const m = /<script id="mm-data" type="application\/json">([^<]*)<\/script>/.exec(html);
  if (m === null) throw new Error("no embedded data");
  return JSON.parse(m[1] as string) as ChartData;
}

/** The file makes no reference to anything outside itself, and its CSP forbids any load. */
function expectSelfContained(html: string): void {
  // A URL scheme: a name and a colon followed by something other than a space ("Data: x" is prose).
  expect(html).not.toMatch(/\b(?:https?|wss?|ftp|file|data|blob):(?!\s)/i);
  expect(html).not.toMatch(/\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)+/i);
  expect(html).not.toMatch(/\s(?:src|href|action|srcset|poster|xlink:href)\s*=\s*"(?!#)/i);
  expect(html).not.toMatch(/url\(|@import/i);
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? "";
  expect(csp).toMatch(
    /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+';/,
  );
  expect(csp).not.toMatch(/unsafe|\*|https?:/);
}

/** Every chart of the report was drawn from its data: lines point for point, one marker per fill. */
function expectDrawn(rendered: Rendered, data: ChartData): void {
  const figures = elements(rendered.dom, "figure");
  expect(figures).toHaveLength(1 + 2 * data.tokens.length);
  const body = elements(rendered.dom, "body")[0];
  expect(body?.attrs["data-charts-drawn"]).toBe(String(figures.length));
  let markers = 0;
  for (const fig of figures) {
    expect(fig.attrs["data-drawn"], fig.attrs["data-error"]).toBe("true");
    const token = data.tokens[Number(fig.attrs["data-token"])];
    const series: Record<string, SeriesJson | undefined> =
      fig.attrs["data-chart"] === "equity"
        ? { equity: data.equity }
        : fig.attrs["data-chart"] === "inventory"
          ? { inventory: token?.inventory }
          : { mid: token?.mid, bid: token?.bid, ask: token?.ask };
    const paths = elements(fig.body, "path");
    const lines = paths.filter((p) => p.attrs.class?.startsWith("line "));
    expect(lines.map((p) => p.attrs.class?.slice(5)).sort()).toEqual(Object.keys(series).sort());
    for (const line of lines) {
      const s = series[line.attrs.class?.slice(5) ?? ""] as SeriesJson;
      expect(nonNull(s)).toBeGreaterThan(1);
      expect(pathPoints(line.attrs.d ?? "")).toBe(nonNull(s) + closings(s));
      expect(line.attrs["data-points"]).toBe(String(nonNull(s)));
    }
    // Axis labels were written.
    expect(elements(fig.body, "text").length).toBeGreaterThan(4);
    if (fig.attrs["data-chart"] === "price" && token !== undefined) {
      const drawn = paths.filter((p) => /^fill (buy|sell) (maker|taker)$/.test(p.attrs.class ?? ""));
      expect(drawn).toHaveLength(token.fills.points.length);
      expect(drawn.filter((p) => p.attrs.class?.startsWith("fill buy"))).toHaveLength(
        token.fills.points.filter((f) => f[1] === 1).length,
      );
      markers += drawn.length;
    }
  }
  expect(markers).toBe(data.tokens.reduce((a, t) => a + t.fills.points.length, 0));
}

describe.runIf(!installed && inCi)("the HTML report in CI", () => {
  it("has Debian's chromium package installed", () => {
    expect.fail(`${CHROMIUM} missing with CI set: .ci/run must install Debian's chromium package`);
  });
});

describe.runIf(installed)("the HTML report in headless Chromium", () => {
  const pages: Record<"replay" | "synthetic" | "control", { html: string; rendered: Rendered }> = {} as never;

  beforeAll(async () => {
    const replay = join(dir, "replay.html");
    await mm(
      "--config",
      "config/backtest/bands-replay.json",
      "--data",
      data,
      "--out",
      join(dir, "r.json"),
      "--html",
      replay,
    );
    const shorter = join(dir, "short.json");
    writeFileSync(shorter, JSON.stringify({ paths: 2, process: { horizonMs: 900_000 } }));
    const synthetic = join(dir, "synthetic.html");
    await mm(
      "--scenario",
      "config/backtest/as-paper.json",
      "--scenario",
      shorter,
      "--out",
      join(dir, "s.json"),
      "--html",
      synthetic,
    );
    // A page that does make requests (an image, a fetch): proves the request detector can see them.
    const control = join(dir, "control.html");
    writeFileSync(
      control,
      '<!doctype html><html><body><img src="http://127.0.0.1:9/x.png"><script>fetch("http://mm.invalid/y").catch(() => 0)</script></body></html>',
    );
    const files = { replay, synthetic, control };
    const rendered = await Promise.all(Object.values(files).map((f) => renderHeadless(f, dir)));
    Object.keys(files).forEach((k, i) => {
      const key = k as keyof typeof files;
      pages[key] = { html: readFileSync(files[key], "utf8"), rendered: rendered[i] as Rendered };
    });
  }, 60_000);

  it("draws the replay's equity, and per market the quotes against the mid with every fill, and the inventory", () => {
    const { html, rendered } = pages.replay;
    const data = embedded(html);
    expect(data.timeAxis).toBe("utc");
    // Both markets charted, the busy one first; the quiet one still has a mid line.
    expect(data.tokens.map((t) => t.tokenId)).toEqual([GEN_TOKEN, QUIET]);
    expect(data.tokens[0]?.fills.total).toBeGreaterThan(50);
    expect(data.tokens[0]?.fills.points).toHaveLength(data.tokens[0]?.fills.total ?? -1);
    expectDrawn(rendered, data);
    // The headline figures are those of the JSON summary written beside it.
    const summary = JSON.parse(readFileSync(join(dir, "r.json"), "utf8"));
    for (const v of [summary.pnl.total, summary.pnl.realised, summary.fees.value, summary.drawdown.max]) {
      expect(rendered.dom).toContain(`<td class="num">${v}</td>`);
    }
    expect(rendered.dom).toContain(`<td class="num">${summary.fills.count}</td>`);
  });

  it("draws the synthetic run's median path, with the figures across paths", () => {
    const { html, rendered } = pages.synthetic;
    const data = embedded(html);
    expect(data.timeAxis).toBe("elapsed");
    expect(data.tokens).toHaveLength(1);
    expect(data.endMs - data.startMs).toBe(900_000);
    expectDrawn(rendered, data);
    const summary = JSON.parse(readFileSync(join(dir, "s.json"), "utf8"));
    expect(rendered.dom).toContain(`<td class="num">${summary.pnl.mean}</td>`);
    const pnls = summary.perPath
      .map((p: { pnl: string }) => Number(p.pnl))
      .sort((a: number, b: number) => a - b);
    expect(last(data.equity)).toBeCloseTo(pnls[0], 6);
  });

  it("is self-contained and makes no request, where a page that fetches is seen doing so", () => {
    for (const k of ["replay", "synthetic"] as const) {
      expectSelfContained(pages[k].html);
      expect(pages[k].rendered.pageRequests, k).toEqual([]);
    }
    expect(pages.control.rendered.pageRequests.sort()).toEqual([
      "http://127.0.0.1:9/x.png",
      "http://mm.invalid/y",
    ]);
  });
});
