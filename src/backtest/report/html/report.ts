import { microToString } from "../../../book/micro.js";
import { Dec } from "../../../core/decimal.js";
import type { Logger } from "../../../observability/logger.js";
import { BacktestError } from "../../errors.js";
import type { BacktestResult } from "../../replay/run-backtest.js";
import { pathDigest } from "../../synthetic/aggregate.js";
import { runPath } from "../../synthetic/run-path.js";
import type { SyntheticResult } from "../../synthetic/run-synthetic.js";
import type { Scenario } from "../../synthetic/scenario.js";
import { summaryJson } from "../summary.js";
import { renderReportPage } from "./page.js";
import {
  acrossPathsTable,
  clampedWarningHtml,
  type GapsJson,
  gapsTable,
  headlineTables,
  tokenTable,
} from "./tables.js";
import type { TimelineOptions } from "./timeline.js";

/**
 * The HTML report of a replay run with `timeline` set (runBacktest({ …, timeline: {} })).
 * @example writeFileSync("report.html", replayReportHtml(await runBacktest({ config, data, timeline: {} })))
 */
export function replayReportHtml(result: BacktestResult): string {
  const s = result.summary;
  if (result.timeline === undefined) {
    throw new BacktestError(
      "report_no_timeline",
      "the replay ran without a timeline (pass timeline: {})",
      {},
    );
  }
  const lat = s.latency;
  return renderReportPage({
    title: "mm backtest report: replay",
    meta: [
      `Data: ${s.data.files.join(", ")}: ${s.data.frames} frames, ${s.window.start} to ${s.window.end} (${duration(s.window.durationMs)}).`,
      `Strategy: ${JSON.stringify(s.strategy)}`,
      gapsLine(s.data.gaps),
      `Seed ${s.seed}; latency feed ${lat.feedMs} ms, order entry ${lat.entryMs} ms, response ${lat.responseMs} ms; ${s.end.openOrders} orders open at the end.`,
    ],
    summaryHtml: [
      headlineTables(s),
      "<h3>Tokens</h3>",
      tokenTable(s),
      ...(s.data.gaps.count === 0 ? [] : ["<h3>Data gaps</h3>", gapsTable(s.data.gaps, duration)]),
    ].join("\n"),
    timeline: result.timeline,
    timeAxis: "utc",
    summaryJson: summaryJson(s),
  });
}

// The data's gaps in a sentence: a hole in the data is the first thing to know about a replay of it.
function gapsLine(g: GapsJson): string {
  const what = `Data gaps (silences of ${duration(g.thresholdMs)} or more between frames)`;
  if (g.count === 0) return `${what}: none.`;
  const top = g.longest[0];
  const longest = top === undefined ? "" : `; the longest ${duration(top.ms)}, ${top.from} to ${top.to}`;
  return `${what}: ${g.count}, ${duration(g.totalMs)} in all${longest}.`;
}

/**
 * The HTML report of a synthetic run: the figures across its paths, and the charts and headline
 * figures of one representative path — the path of median total PnL (the lower median for an even
 * count; ties by path number) — re-run with a timeline. Paths replay exactly (their own seeded
 * streams), so the re-run must reproduce the path's summary byte for byte; if it does not, this
 * throws BacktestError `backtest_nondeterministic` rather than chart a different run.
 * @example writeFileSync("as.html", await syntheticReportHtml(scenario, await runSynthetic(scenario)))
 */
export async function syntheticReportHtml(
  scenario: Scenario,
  result: SyntheticResult,
  opts: { timeline?: TimelineOptions; logger?: Logger } = {},
): Promise<string> {
  const s = result.summary;
  const chosen = medianPath(s.perPath);
  const sc: Scenario = { ...scenario, paths: s.paths, seed: s.seed };
  const rerun = await runPath(sc, chosen.path, {
    timeline: opts.timeline ?? {},
    ...(opts.logger === undefined ? {} : { logger: opts.logger }),
  });
  // The run kept the digest of each path's summary, not the summary: the re-run must match it.
  if (pathDigest(rerun.summary) !== result.digests[chosen.path] || rerun.timeline === undefined) {
    throw new BacktestError(
      "backtest_nondeterministic",
      `path ${chosen.path} did not reproduce its summary when re-run for the report`,
      { path: chosen.path },
    );
  }
  const p = s.process;
  const f = s.fillModel;
  // The range the process keeps the mid in, [tick, 1 − tick] (never nearer an edge than 0.000002):
  // what config/backtest/README.md says, where "(0, 1)" was looser than the run.
  const b = scenario.process.bounds;
  const bounds = b === undefined ? undefined : `${microToString(micro(b.lo))}, ${microToString(micro(b.hi))}`;
  return renderReportPage({
    title: "mm backtest report: synthetic",
    meta: [
      ...(s.description === null ? [] : [s.description]),
      `${s.paths} Monte-Carlo path(s), seed ${s.seed}; mid s0 ${p.s0}, sigma ${p.sigma}, dt ${p.dtMs} ms, horizon ${duration(p.horizonMs)}, ${p.increments} increments${bounds === undefined ? "" : `, reflected inside [${bounds}]`}; fills A ${f.A}, k ${f.k}, ${f.probability} probability, size ${f.size}.`,
      `Strategy: ${JSON.stringify(s.strategy)}`,
      `Charts and the figures below "Path ${chosen.path}": the path of median PnL (${chosen.pnl} USDC).`,
    ],
    summaryHtml: [
      clampedWarningHtml(s),
      `<h3>Across ${s.paths} path(s)</h3>`,
      acrossPathsTable(s),
      `<h3>Path ${chosen.path} (median PnL)</h3>`,
      headlineTables(rerun.summary),
      "<h3>Tokens</h3>",
      tokenTable(rerun.summary),
    ].join("\n"),
    timeline: rerun.timeline,
    timeAxis: "elapsed",
    summaryJson: summaryJson(s),
  });
}

/**
 * The path of median total PnL: the summary's perPath rows sorted by PnL (exact decimals), then by
 * path number, the element at ⌊(n − 1) / 2⌋.
 * @example medianPath(summary.perPath).path
 */
export function medianPath<P extends { readonly path: number; readonly pnl: string }>(
  paths: readonly P[],
): P {
  if (paths.length === 0) throw new BacktestError("report_no_paths", "a synthetic run with no path", {});
  const sorted = [...paths].sort((a, b) => new Dec(a.pnl).comparedTo(b.pnl) || a.path - b.path);
  return sorted[Math.floor((sorted.length - 1) / 2)] as P;
}

/** A duration for people: "5d 4h 11m", "1h", "42 s", "350 ms". */
export function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const parts: string[] = [];
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d > 0) parts.push(`${d}d`);
  if (h > 0) parts.push(`${h}h`);
  if (m > 0) parts.push(`${m}m`);
  if (sec > 0 && d === 0) parts.push(`${sec}s`);
  return parts.join(" ");
}

// A bound (a whole number of micro-units divided by 1e6 by the scenario) back to its micro-units.
const micro = (x: number): bigint => BigInt(Math.round(x * 1e6));
