import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { withLayerFiles } from "../backtest/config-reader.js";
import { BacktestError } from "../backtest/errors.js";
import { ImportError } from "../backtest/import/errors.js";
import { parseReplayConfig } from "../backtest/replay/replay-config.js";
import { runBacktest } from "../backtest/replay/run-backtest.js";
import { replayReportHtml, syntheticReportHtml } from "../backtest/report/html/report.js";
import { summaryJson } from "../backtest/report/summary.js";
import { clampWarning, runSynthetic } from "../backtest/synthetic/run-synthetic.js";
import { MAX_PATHS, parseScenario } from "../backtest/synthetic/scenario.js";
import { MmError } from "../core/errors.js";
import { RecordedFormatError } from "../recorded/errors.js";
import {
  checkSweepFlags,
  cutShortWarning,
  dataWarnings,
  runSweepCommand,
  SWEEP_HELP,
  SWEEP_OPTIONS,
} from "./backtest-sweep.js";
import { type CliIo, type Command, EXIT, flagsOrHelp, inputError, UsageError } from "./command.js";
import { requireOutputFolders } from "./output-folder.js";

const OPTIONS = {
  config: { type: "string", short: "c", multiple: true },
  data: { type: "string", short: "d" },
  scenario: { type: "string", short: "s", multiple: true },
  paths: { type: "string", short: "n" },
  seed: { type: "string" },
  out: { type: "string", short: "o" },
  html: { type: "string" },
  help: { type: "boolean", short: "h" },
  ...SWEEP_OPTIONS,
} as const;

const HELP = [
  "Usage: mm backtest --config FILE [--config FILE ...] --data PATH [--seed N] [--out FILE] [--html FILE]",
  "       mm backtest --scenario FILE [--scenario FILE ...] [--paths N] [--seed N] [--out FILE] [--html FILE]",
  SWEEP_HELP.usage,
  "",
  "Runs the trading engine - the same strategy, order manager, rate-aware queue, risk guard and",
  "reconciler as `mm run` - on a simulated clock against the simulated venue, and writes a JSON",
  "summary (PnL total/realised/unrealised, fees, fills and maker/taker volume, inventory, max",
  "drawdown, Sharpe, quote uptime, markouts at 1 s / 10 s / 60 s).",
  "",
  "Replay: recorded /ws/market frames (a *.jsonl.gz file from `mm record` or `mm import`, or a",
  "directory of them, merged by receive time and streamed) drive the market; the recorded book is",
  "mirrored into the venue, so the bot's orders fill against it (queue position, crossings, taker",
  "fills at the book's prices, the spec's fees). Synthetic: a seeded mid process and an intensity",
  "fill model A*exp(-k*delta), N Monte-Carlo paths, summarised by the mean and standard deviation",
  "of PnL and final inventory. File formats: config/backtest/README.md.",
  "",
  "Options:",
  "  -c, --config FILE    Backtest config (JSON); repeatable, later files win.",
  "  -d, --data PATH      Recorded file or directory (replay).",
  "  -s, --scenario FILE  Synthetic scenario (JSON); repeatable, later files win.",
  "  -n, --paths N        Monte-Carlo paths (overrides the scenario).",
  "      --seed N         Seed (default 1 for a replay, the scenario's own otherwise).",
  "  -o, --out FILE       Write the summary here instead of stdout (omit --out for stdout: `-`",
  "                       is refused, ./- names a file called -).",
  "      --html FILE      Also write a self-contained HTML report (equity, inventory, quotes vs",
  "                       mid with fills; offline, no external requests); synthetic: the path",
  "                       of median PnL is charted.",
  ...SWEEP_HELP.options,
  "  -h, --help           Show this help.",
  "",
  "A file cut short (a recorder killed while writing it) is replayed up to its last complete line,",
  "with a warning, and listed in the summary's data.truncatedFiles; any other damage is bad data.",
  "",
  "The same data, config and seed give a byte-identical summary. A line with the run's speed goes",
  "to stderr. Exit code 0 on success, 2 on bad usage, config, scenario, sweep file or data, 1 when",
  "a sweep point failed (the others are still ranked; see the table's failed: lines). Outputs are",
  "checked before the run: a missing folder, --out and --html one file, an output that is one of",
  "the run's inputs (--data, --config, --scenario, --sweep), or one named *.jsonl.gz like a recording",
  "(a later replay of its folder would read it as data) exits 2; a symlink counts as its target.",
  "",
].join("\n");

/** `mm backtest`: replay recorded data or run a synthetic scenario through the engine. */
export const backtestCommand: Command = {
  name: "backtest",
  summary: "Backtest a strategy on recorded data or a synthetic scenario (JSON summary)",
  help: HELP,
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const values = flagsOrHelp(argv, OPTIONS, HELP, io);
    if (values === undefined) return EXIT.ok;
    const configs = values.config ?? [];
    const scenarios = values.scenario ?? [];
    if (scenarios.length > 0 && (configs.length > 0 || values.data !== undefined)) {
      throw new UsageError("use either --scenario, or --config with --data");
    }
    if (scenarios.length === 0 && (configs.length === 0 || values.data === undefined)) {
      throw new UsageError(
        "a replay needs --config FILE and --data PATH; a synthetic run needs --scenario FILE",
      );
    }
    if (scenarios.length === 0 && values.paths !== undefined)
      throw new UsageError("--paths applies to --scenario only");
    const seed = count(values.seed, "--seed", 0);
    const paths = count(values.paths, "--paths", 1, MAX_PATHS);
    checkSweepFlags(values);
    if (values.html !== undefined && values.sweep !== undefined)
      throw new UsageError("--html applies to a single run, not to --sweep");
    try {
      // Before any work: an output that cannot be written would throw the finished run away.
      await requireOutputFolders(
        io.cwd,
        [
          ["--out", values.out],
          ["--html", values.html],
        ],
        [
          ["--data", values.data],
          ["--config", configs],
          ["--scenario", scenarios],
          ["--sweep", values.sweep],
        ],
      );
      if (values.sweep !== undefined) {
        const { data, out } = values;
        return await runSweepCommand(values, { configs, scenarios, data, seed, paths, out }, io);
      }
      const started = performance.now();
      let text: string;
      let work: string;
      let html: string | undefined;
      if (scenarios.length > 0) {
        const layers = await readJsonFiles(scenarios, io);
        const scenario = withLayerFiles(
          scenarios.map((f) => resolve(io.cwd, f)),
          layers,
          () => parseScenario(layers),
        );
        const r = await runSynthetic(scenario, {
          ...(paths === undefined ? {} : { paths }),
          ...(seed === undefined ? {} : { seed }),
        });
        const clamped = clampWarning(r.summary);
        if (clamped !== undefined) io.stderr(clamped);
        text = summaryJson(r.summary);
        if (values.html !== undefined) html = await syntheticReportHtml(scenario, r);
        work = `${r.summary.paths} paths`;
      } else {
        const layers = await readJsonFiles(configs, io);
        const config = withLayerFiles(
          configs.map((f) => resolve(io.cwd, f)),
          layers,
          () => parseReplayConfig(layers),
        );
        const data = resolve(io.cwd, values.data as string);
        const r = await runBacktest({
          config,
          data,
          ...(seed === undefined ? {} : { seed }),
          ...(values.html === undefined ? {} : { timeline: {} }),
          onTruncated: (file) => io.stderr(cutShortWarning(file)),
        });
        for (const line of dataWarnings(r.summary)) io.stderr(line);
        text = summaryJson(r.summary);
        if (values.html !== undefined) html = replayReportHtml(r);
        const secs = (performance.now() - started) / 1000;
        work = `${r.frames} frames (${Math.round(r.frames / Math.max(secs, 1e-9))} frames/s)`;
      }
      const secs = (performance.now() - started) / 1000;
      if (values.out === undefined) io.stdout(text);
      else await writeFile(resolve(io.cwd, values.out), text);
      if (html !== undefined) await writeFile(resolve(io.cwd, values.html as string), html);
      io.stderr(`mm backtest: ${work} in ${secs.toFixed(2)} s\n`);
      return EXIT.ok;
    } catch (err) {
      if (isInputError(err)) {
        return inputError("backtest", err, io);
      }
      throw err;
    }
  },
};

async function readJsonFiles(files: readonly string[], io: CliIo): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const f of files) {
    const path = resolve(io.cwd, f);
    const text = await readFile(path, "utf8");
    try {
      out.push(JSON.parse(text));
    } catch (err) {
      throw new BacktestError("backtest_config_invalid", `${path}: not JSON (${(err as Error).message})`, {
        path,
      });
    }
  }
  return out;
}

function count(text: string | undefined, flag: string, min: number, max?: number): number | undefined {
  if (text === undefined) return undefined;
  const n = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (max !== undefined && !(n >= min && n <= max))
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}`);
  if (!(n >= min)) throw new UsageError(`${flag} must be an integer >= ${min}`);
  return n;
}

// Bad input, as opposed to a bug: every validation error of the backtest, the strategy, the risk
// and engine settings, the recorded data, and unreadable files.
function isInputError(err: unknown): boolean {
  if (err instanceof BacktestError || err instanceof ImportError || err instanceof RecordedFormatError)
    return true;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "ENOENT" || code === "EISDIR" || code === "EACCES" || code === "ENOTDIR") return true;
  return err instanceof MmError && /_invalid$/.test(err.code);
}
