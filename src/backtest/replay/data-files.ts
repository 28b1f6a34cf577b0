import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { RECORDED_SUFFIX } from "../../recorded/format.js";
import { BacktestError } from "../errors.js";

/**
 * The recorded files behind `--data`: the file itself, or every `*.jsonl.gz` directly inside a
 * directory (what `mm record` writes and `mm import` produces), sorted by name for a stable merge
 * order. Throws `data_not_found` / `data_empty`.
 * @example await dataFiles("captures/") // ["captures/a.jsonl.gz", "captures/b.jsonl.gz"]
 */
export async function dataFiles(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined)
    throw new BacktestError("data_not_found", `no such file or directory: ${path}`, { path });
  if (info.isFile()) return [path];
  const names = (await readdir(path)).filter((n) => n.endsWith(RECORDED_SUFFIX)).sort();
  if (names.length === 0) {
    throw new BacktestError("data_empty", `no *${RECORDED_SUFFIX} file in ${path}`, { path });
  }
  return names.map((n) => join(path, n));
}
