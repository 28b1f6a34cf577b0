import { backtestCommand } from "../../../../src/cli/backtest.js";
import type { CliIo } from "../../../../src/cli/command.js";
import { packageRoot } from "../../../../src/config/paths.js";

/** A CLI io that collects what the command prints (no environment, the package root as cwd). */
export function captureIo(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    env: {},
    cwd: packageRoot(),
  };
}

/** Runs `mm backtest argv…` in process: its exit code and everything it printed. */
export async function runBacktestCli(
  ...argv: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const x = captureIo();
  const code = await backtestCommand.run(argv, x);
  return { code, stdout: x.out.join(""), stderr: x.err.join("") };
}

/** `mm backtest` of the shipped synthetic scenario (config/backtest/as-paper.json), one path, then `extra`. */
export function asPaperRun(...extra: string[]): ReturnType<typeof runBacktestCli> {
  return runBacktestCli("--scenario", "config/backtest/as-paper.json", "--paths", "1", ...extra);
}

/** asPaperRun as the shipped sweep (config/backtest/as-paper-sweep.json) on one worker, no progress, then `extra`. */
export function asPaperSweep(...extra: string[]): ReturnType<typeof runBacktestCli> {
  return asPaperRun(
    "--sweep",
    "config/backtest/as-paper-sweep.json",
    "--workers",
    "1",
    "--progress",
    "none",
    ...extra,
  );
}

/** `mm backtest` replaying `data` (a recording or a folder of them) with the shipped bands config, then `extra`. */
export function bandsReplay(data: string, ...extra: string[]): ReturnType<typeof runBacktestCli> {
  return runBacktestCli("--config", "config/backtest/bands-replay.json", "--data", data, ...extra);
}
