import { readdir } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import {
  firstRecord,
  parseRecordingSource,
  RECORDED_SUFFIX,
  type RecordingSource,
} from "../../recorded/format.js";
import { ImportError } from "./errors.js";

/**
 * Refuses an import whose output would share a directory with an earlier import of the same
 * capture, or of another capture holding one of its tokens over overlapping times (the ends
 * included). The replay of a directory merges its files by recvTs, and every import starts each
 * token with a synthetic empty snapshot (seq 1): two such streams of one token interleave, the
 * later one's snapshot wiping the book mid-stream and their sequence numbers colliding; the same
 * capture twice has every frame replayed twice. Throws ImportError `already_imported` or
 * `overlapping_import` naming the file already there; writes nothing.
 *
 * Only the first record of each `*.jsonl.gz` in the directory is read (its `source`), so the
 * check costs well under a millisecond per file. `output` itself is skipped (--force replaces
 * it), and so is an output a directory replay would not read (not `*.jsonl.gz`). Files without a
 * source (from `mm record`, or from an `mm import` before sources were written) and files that
 * cannot be read are not checked: the backtest reports the latter.
 * @example await refuseOverlappingImport("captures/day2.jsonl.gz", source);
 */
export async function refuseOverlappingImport(output: string, source: RecordingSource): Promise<void> {
  if (!output.endsWith(RECORDED_SUFFIX)) return;
  const dir = dirname(output);
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((n) => n.endsWith(RECORDED_SUFFIX))
    .sort();
  for (const name of names) {
    const path = join(dir, name);
    if (resolve(path) === resolve(output)) continue;
    const other = await sourceOf(path);
    if (other === undefined) continue;
    if (other.sha256 === source.sha256) {
      throw new ImportError(
        "already_imported",
        `${output}: ${dir} already holds this capture as ${name} (same input, sha256 ${source.sha256.slice(0, 12)}): ` +
          "a replay of the directory would read its frames twice. Replay that file, or import into another " +
          "directory. Nothing was written.",
        { file: output, existing: path, sha256: source.sha256 },
      );
    }
    for (const mine of source.streams) {
      const theirs = other.streams.find((s) => s.tokenId === mine.tokenId);
      if (theirs === undefined || theirs.firstTs > mine.lastTs || mine.firstTs > theirs.lastTs) continue;
      throw new ImportError(
        "overlapping_import",
        `${output}: ${basename(path)} in ${dir} already holds token ${mine.tokenId} from ${iso(theirs.firstTs)} ` +
          `to ${iso(theirs.lastTs)}, and this capture has it from ${iso(mine.firstTs)} to ${iso(mine.lastTs)}: ` +
          "a replay of the directory would merge two book streams of that token (this import's empty first " +
          "snapshot would wipe the book mid-stream). Import it into another directory, or join the captures " +
          "into one CSV (repeated rows are dropped) and import that. Nothing was written.",
        { file: output, existing: path, tokenId: mine.tokenId },
      );
    }
  }
}

async function sourceOf(path: string): Promise<RecordingSource | undefined> {
  try {
    return parseRecordingSource((await firstRecord(path, { onTruncated: () => undefined }))?.source);
  } catch {
    // Not a recorded file we can read (bad gzip, a bad first line, a directory, no permission):
    // nothing to compare with; a replay of the directory reports it.
    return undefined;
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
