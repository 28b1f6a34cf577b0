import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { BacktestError } from "../backtest/errors.js";

/**
 * Refuses, before any backtest runs, an output file that could not be written when the run ends:
 * its folder missing (`output_dir_missing`) or not a folder (`output_dir_not_folder`), or the file
 * itself a folder (`output_is_folder`). Found only at the end, such a file throws away the whole
 * run (hours for a sweep), and with `--html` the summary is already written: half an output.
 * `outputs` pairs each option with its value (undefined: not given). Like `mm import`'s check of OUT.
 * @example await requireOutputFolders(io.cwd, [["--out", values.out], ["--html", values.html]]);
 */
export async function requireOutputFolders(
  cwd: string,
  outputs: readonly (readonly [option: string, file: string | undefined])[],
): Promise<void> {
  for (const [option, file] of outputs) {
    if (file === undefined) continue;
    const path = resolve(cwd, file);
    const folder = dirname(path);
    const details = { option, file: path };
    const st = await stat(folder).catch(() => undefined);
    if (st === undefined) {
      throw new BacktestError(
        "output_dir_missing",
        `${option} ${path}: its folder ${folder} does not exist (create it first: mkdir -p ${folder})`,
        details,
      );
    }
    if (!st.isDirectory()) {
      throw new BacktestError(
        "output_dir_not_folder",
        `${option} ${path}: ${folder} is not a folder`,
        details,
      );
    }
    if ((await stat(path).catch(() => undefined))?.isDirectory() === true) {
      throw new BacktestError(
        "output_is_folder",
        `${option} ${path} is a folder: name a file in it`,
        details,
      );
    }
  }
}
