import { MmError } from "../core/errors.js";

/**
 * A backtest that cannot run as asked. `code` says which rule failed: `backtest_config_invalid`
 * and `scenario_invalid` (details.issues lists every `field: problem`), `data_not_found`,
 * `data_empty`, `backtest_stalled` (the engine waits on something simulated time cannot bring),
 * `output_dir_missing` / `output_dir_not_folder` / `output_is_folder` / `output_symlink_loop` /
 * `output_same_file` / `output_is_input` / `output_stdout_unsupported` (an `--out`/`--html` refused
 * before the run).
 */
export class BacktestError extends MmError {}

/** Collects `field: problem` lines and throws them together, like the other config readers. */
export class Issues {
  readonly list: string[] = [];

  /** Records one problem. */
  add(field: string, problem: string): void {
    this.list.push(`${field}: ${problem}`);
  }

  /** Throws BacktestError `code` listing every problem, if any. */
  throwIfAny(code: string, what: string): void {
    if (this.list.length === 0) return;
    throw new BacktestError(code, `${what} is invalid:\n  ${this.list.join("\n  ")}`, { issues: this.list });
  }
}
