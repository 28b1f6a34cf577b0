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
