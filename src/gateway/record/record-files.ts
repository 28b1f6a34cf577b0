import { stat } from "node:fs/promises";
import type { Writable } from "node:stream";
import { RECORDED_SUFFIX } from "../../recorded/format.js";

/**
 * `market-20261121T053300Z-0001.jsonl.gz`: the file's start time (UTC, second resolution) and a
 * per-run sequence number, so names sort in recording order.
 */
export function recordingFileName(prefix: string, startMs: number, seq: number): string {
  const stamp = new Date(startMs)
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
  return `${prefix}-${stamp}-${String(seq).padStart(4, "0")}${RECORDED_SUFFIX}`;
}

/** The recvTs of a line recordLine() wrote: `{"recvTs":N,…`. */
export function recvTsOf(line: string): number {
  return Number(line.slice('{"recvTs":'.length, line.indexOf(",")));
}

/** What a file stream reports written so far (fs.WriteStream, net.Socket); 0 for other streams. */
export function bytesWritten(sink: Writable | undefined): number {
  const n = (sink as { bytesWritten?: unknown } | undefined)?.bytesWritten;
  return typeof n === "number" ? n : 0;
}

/** Bytes on disk; 0 while the file is still being opened (the write stream opens asynchronously). */
export async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw err;
  }
}
