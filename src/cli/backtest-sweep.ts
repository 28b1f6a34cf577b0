import { readFile, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { withLayerFiles } from "../backtest/config-reader.js";
import { BacktestError } from "../backtest/errors.js";
import { dataFiles } from "../backtest/replay/data-files.js";
import { queueModelSummary } from "../backtest/replay/queue-model-config.js";
import { parseReplayConfig } from "../backtest/replay/replay-config.js";
import { summaryJson } from "../backtest/report/summary.js";
import { latencySummary } from "../backtest/sim/latency.js";
import { readSweepFile, sweepStrategies } from "../backtest/sweep/grid.js";
import {
  DEFAULT_METRIC,
  parseMetric,
  type SummaryContext,
  type SummaryKind,
} from "../backtest/sweep/metric.js";
import { framesPerPath, type SweepTask } from "../backtest/sweep/point.js";
import { type ProgressMode, ProgressReporter } from "../backtest/sweep/progress-reporter.js";
import { sweepResults } from "../backtest/sweep/results.js";
import { runSweep } from "../backtest/sweep/run-sweep.js";
import { renderTable } from "../backtest/sweep/table.js";
import { parseScenario } from "../backtest/synthetic/scenario.js";
import { type CliIo, EXIT, UsageError } from "./command.js";
import { requireOutputFolders } from "./output-folder.js";

/** The flags `mm backtest` adds for sweeps (merged into its options table). */
export const SWEEP_OPTIONS = {
  sweep: { type: "string" },
  "rank-by": { type: "string" },
  workers: { type: "string", short: "w" },
  progress: { type: "string" },
  "point-timeout": { type: "string" },
} as const;

/** Help lines for the sweep flags. */
export const SWEEP_HELP = {
  usage:
    "       mm backtest (--config FILE... --data PATH | --scenario FILE...) --sweep FILE [--rank-by METRIC] [--workers N] [--progress MODE] [--point-timeout S] [--out FILE]",
  options: [
    "      --sweep FILE     Run every point of a strategy parameter grid (JSON) in parallel and",
    "                       print them ranked; --out then writes the full results (JSON).",
    "      --rank-by METRIC Ranking metric: pnl (default), sharpe, maxDrawdown, fills, fees, uptime,",
    "                       ... or a path into the summary such as markouts[0].perShare; :asc/:desc",
    "                       overrides the order.",
    "  -w, --workers N      Worker threads for a sweep (default: the available cores).",
    "      --progress MODE  auto (a bar on a terminal, lines otherwise), bar, lines or none.",
    "      --point-timeout S  Fail a point still running S seconds after a ready worker took it",
    "                       (point_timeout): its worker is terminated and replaced. Default: no limit.",
  ],
} as const;

/** The sweep flags as parsed. */
export interface SweepFlags {
  readonly sweep?: string | undefined;
  readonly "rank-by"?: string | undefined;
  readonly workers?: string | undefined;
  readonly progress?: string | undefined;
  readonly "point-timeout"?: string | undefined;
}

/** What a sweep run needs from the rest of the command line. */
export interface SweepArgs {
  readonly configs: readonly string[];
  readonly scenarios: readonly string[];
  readonly data: string | undefined;
  readonly seed: number | undefined;
  readonly paths: number | undefined;
  readonly out: string | undefined;
}

/**
 * The stderr warning for a data file cut short (a single run and a sweep say the same).
 * @example io.stderr(cutShortWarning("/data/market-0002.jsonl.gz"));
 */
export function cutShortWarning(file: string): string {
  return (
    `mm backtest: warning: ${file} is cut short (no gzip end, as a killed recorder leaves it): ` +
    "replayed up to its last complete line\n"
  );
}

/**
 * The warning for a token the config names but the data never books (its figures are all zero).
 * @example io.stderr(unbookedTokenWarning("4243"));
 */
export function unbookedTokenWarning(tokenId: string): string {
  return (
    `mm backtest: warning: markets.tokens names ${tokenId}, which has no token_book frame in the data: ` +
    "its figures are all zero\n"
  );
}

/**
 * The warning for a token whose data has deltas but never a whole book (`data.tokensWithoutSnapshot`):
 * the bot is synced only by a snapshot, so it never quoted the token.
 * @example io.stderr(unsyncedTokenWarning("4242"));
 */
export function unsyncedTokenWarning(tokenId: string): string {
  return (
    `mm backtest: warning: token ${tokenId} has no snapshot in the data (deltas alone, as in a rotated ` +
    "file replayed by itself): it was never quoted; replay the recording's whole directory\n"
  );
}

/** Every data warning of a replay summary (none for a synthetic one), one line each. */
export function dataWarnings(summary: unknown): string[] {
  const data = (summary as { data?: { tokensWithoutBook?: unknown; tokensWithoutSnapshot?: unknown } }).data;
  return [
    ...ids(data?.tokensWithoutBook).map(unbookedTokenWarning),
    ...ids(data?.tokensWithoutSnapshot).map(unsyncedTokenWarning),
  ];
}

function ids(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((t): t is string => typeof t === "string") : [];
}

/** Refuses sweep-only flags without --sweep (they would be silently ignored). */
export function checkSweepFlags(f: SweepFlags): void {
  if (f.sweep !== undefined) return;
  for (const flag of ["rank-by", "workers", "progress", "point-timeout"] as const) {
    if (f[flag] !== undefined) throw new UsageError(`--${flag} applies to --sweep only`);
  }
}

/**
 * `mm backtest … --sweep FILE`: validates the config (or scenario), the grid, the metric and the
 * folder of `--out` before any work starts (exit 2 on a problem), runs the points on worker threads with progress on
 * stderr (and a warning per data file cut short, once for the whole sweep), prints the ranked
 * table on stdout and writes the full results to `--out`. `--point-timeout S` fails a point still
 * running after S seconds (`point_timeout`) and replaces its worker. Exit 1 when
 * any point failed (the others are still ranked). `opts.script` replaces the worker module (tests).
 */
export async function runSweepCommand(
  f: SweepFlags,
  a: SweepArgs,
  io: CliIo,
  opts: { readonly script?: URL } = {},
): Promise<number> {
  const workers = f.workers === undefined ? availableParallelism() : positive(f.workers, "--workers");
  const mode = progressMode(f.progress);
  const limit = f["point-timeout"];
  const pointTimeoutMs = limit === undefined ? undefined : seconds(limit, "--point-timeout") * 1000;
  // `mm backtest` checked it already; this entry point is also called on its own.
  await requireOutputFolders(
    io.cwd,
    [["--out", a.out]],
    [
      ["--data", a.data],
      ["--config", a.configs],
      ["--scenario", a.scenarios],
      ["--sweep", f.sweep],
    ],
  );
  const sweepPath = resolve(io.cwd, f.sweep as string);
  const sweepText = await readFile(sweepPath, "utf8");
  // Not thrown yet: the values the strategy refuses are named with the file's other problems.
  const read = withPath(sweepPath, () => readSweepFile(JSON.parse(sweepText)), "sweep_invalid");
  const { spec } = read;
  const kind: SummaryKind = a.scenarios.length > 0 ? "synthetic" : "replay";
  const files = (kind === "synthetic" ? a.scenarios : a.configs).map((p) => resolve(io.cwd, p));
  const layers = await Promise.all(files.map((p) => readJson(io, p)));
  const seed = a.seed === undefined ? {} : { seed: a.seed };
  let base: unknown;
  let eventsPerPoint: number | undefined;
  let task: (strategy: unknown) => SweepTask;
  // What every point's summary echoes of the settings, for checking --rank-by before any point runs.
  let context: (strategies: readonly unknown[]) => SummaryContext;
  if (kind === "synthetic") {
    const scenario = withLayerFiles(files, layers, () => parseScenario(layers));
    base = scenario.strategyRaw;
    const pathCount = a.paths ?? scenario.paths;
    eventsPerPoint = pathCount * framesPerPath(scenario);
    const paths = a.paths === undefined ? {} : { paths: a.paths };
    task = (strategy) => ({ kind, scenarioLayers: layers, ...paths, ...seed, strategy });
    context = (strategies) => ({
      strategies,
      horizons: scenario.report.markoutsMs.length,
      paths: pathCount,
      bounded: scenario.process.bounds !== undefined,
    });
  } else {
    const config = withLayerFiles(files, layers, () => parseReplayConfig(layers));
    base = config.strategyRaw;
    const data = resolve(io.cwd, a.data as string);
    task = (strategy) => ({ kind, configLayers: layers, data, ...seed, strategy });
    context = (strategies) => ({
      strategies,
      horizons: config.report.markoutsMs.length,
      latency: latencySummary(config.latency),
      queueModel: queueModelSummary(config.queueModel, NO_PRINTS),
      tokens: config.tokens?.length,
    });
  }
  // The file's rankBy (unless --rank-by overrides it) is named with the file's other problems.
  const fileRank = f["rank-by"] === undefined ? spec.rankBy : undefined;
  const rankProblem =
    fileRank === undefined
      ? undefined
      : (strategies: readonly unknown[]) => rankByProblem(fileRank, kind, context(strategies));
  const { points, strategies } = withPath(sweepPath, () => sweepStrategies(read, base, rankProblem));
  // A bad sweep file is named before a missing or unreadable --data, as it was before.
  if (kind === "replay") await dataFiles(resolve(io.cwd, a.data as string));
  const tasks = strategies.map(task);
  const rankBy = f["rank-by"] ?? spec.rankBy ?? DEFAULT_METRIC;
  const metric = parseMetric(rankBy, kind, context(strategies));
  const n = Math.min(workers, points.length);
  io.stderr(`mm backtest: sweep of ${points.length} points on ${n} worker${n === 1 ? "" : "s"}\n`);
  const reporter = new ProgressReporter(mode, {
    write: io.stderr,
    columns: () => process.stderr.columns ?? 80,
  });
  const started = performance.now();
  try {
    const result = await runSweep(
      { points, tasks, metric, workers, eventsPerPoint, pointTimeoutMs, ...opts },
      {
        onProgress: (s) => reporter.update(s),
        onPoint: (s) => reporter.pointDone(s),
        onTruncated: (file) => reporter.note(cutShortWarning(file)),
      },
    );
    reporter.stop();
    // Every point replays the same data with the same tokens: the first summary speaks for all.
    const first = result.outcomes.find((o) => o.status === "ok");
    for (const line of first === undefined ? [] : dataWarnings(first.summary)) io.stderr(line);
    // A field null in every summary (never a number) ranks nothing: say so rather than pass grid
    // order off as a ranking.
    if (result.ranked.length > 0 && result.ranked.every((r) => r.value === undefined)) {
      io.stderr(
        `mm backtest: warning: rank-by ${JSON.stringify(metric.name)} holds no number in any point's summary: ` +
          "the table keeps the grid's order\n",
      );
    }
    const secs = (performance.now() - started) / 1000;
    const failed = result.outcomes.filter((o) => o.status === "failed").length;
    const keys = spec.axes.map((x) => x.key);
    io.stdout(renderTable({ kind, keys, metric, ranked: result.ranked, outcomes: result.outcomes }));
    if (a.out !== undefined) {
      await writeFile(resolve(io.cwd, a.out), summaryJson(sweepResults({ kind, spec, metric, result })));
    }
    const rate = Math.round(result.events / Math.max(secs, 1e-9));
    io.stderr(
      `mm backtest: sweep of ${points.length} points (${failed} failed) in ${secs.toFixed(2)} s, ${result.events} events (${rate} events/s)\n`,
    );
    return failed > 0 ? EXIT.unexpected : EXIT.ok;
  } finally {
    reporter.stop();
  }
}

/** The print counters at zero: only the keys of queueModelSummary matter for the check. */
const NO_PRINTS = { prints: 0, printsIgnored: 0, printTrades: 0, printQty: 0n } as const;

function progressMode(text: string | undefined): ProgressMode {
  switch (text ?? "auto") {
    case "auto":
      return process.stderr.isTTY === true ? "bar" : "lines";
    case "bar":
      return "bar";
    case "lines":
      return "lines";
    case "none":
      return "none";
    default:
      throw new UsageError("--progress must be auto, bar, lines or none");
  }
}

function positive(text: string, flag: string): number {
  if (!/^\d{1,4}$/.test(text) || Number(text) < 1) throw new UsageError(`${flag} must be an integer >= 1`);
  return Number(text);
}

// Whole seconds up to a week: setTimeout holds at most ~24.8 days, and a point limit is minutes.
function seconds(text: string, flag: string): number {
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > 604_800)
    throw new UsageError(`${flag} must be an integer number of seconds >= 1 (at most 604800, a week)`);
  return Number(text);
}

async function readJson(io: CliIo, file: string): Promise<unknown> {
  const path = resolve(io.cwd, file);
  const text = await readFile(path, "utf8");
  return withPath(path, () => JSON.parse(text));
}

// A sweep file's rankBy as one of its problems (`rankBy = "x": …`, like a refused grid value), or
// undefined when it is fine.
function rankByProblem(text: string, kind: SummaryKind, ctx: SummaryContext): string | undefined {
  try {
    parseMetric(text, kind, ctx);
    return undefined;
  } catch (err) {
    if (!(err instanceof BacktestError) || err.code !== "rank_by_invalid") throw err;
    const said = `rank-by ${JSON.stringify(text)}: `;
    const rest = err.message.startsWith(said) ? err.message.slice(said.length) : err.message;
    return `rankBy = ${JSON.stringify(text)}: ${rest}`;
  }
}

// Names the file in a parse or validation error (the caller maps BacktestError to exit 2).
function withPath<T>(path: string, fn: () => T, code = "backtest_config_invalid"): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof SyntaxError) {
      throw new BacktestError(code, `${path}: not JSON (${err.message})`, { path });
    }
    if (err instanceof BacktestError)
      throw new BacktestError(err.code, `${path}: ${err.message}`, err.details);
    throw err;
  }
}
