import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { Clock } from "../../core/clock.js";
import { RECORDED_SUFFIX, type RecordedFrame, RecordedWriter } from "../../recorded/format.js";

/** When to start a new file; either limit (or both) may be set. */
export interface RotationPolicy {
  /** Compressed size on disk, bytes. */
  readonly maxBytes?: number | undefined;
  /** Age of the file, ms (a file is rotated when the first frame after that age arrives). */
  readonly maxAgeMs?: number | undefined;
}

/** Every this many frames the file's size on disk is looked at (a stat, not a per-frame cost). */
const SIZE_CHECK_FRAMES = 64;

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

/**
 * Writes recorded frames (src/recorded/format.ts) into a series of gzip JSONL files in
 * one directory, starting a new file when the current one reaches `maxBytes` on disk or `maxAgeMs`
 * of age. Writes are queued in order (callers may fire and forget); flush() puts them on disk,
 * bounding what a crash can lose; close() finishes the current file so that it is a complete gzip stream. A file is
 * never overwritten (created exclusively).
 */
export class RotatingWriter {
  readonly #dir: string;
  readonly #prefix: string;
  readonly #clock: Clock;
  readonly #policy: RotationPolicy;
  readonly #files: string[] = [];
  #writer: RecordedWriter | undefined;
  #startedAt = 0;
  #seq = 0;
  #sinceCheck = 0;
  #frames = 0;
  #queue: Promise<void> = Promise.resolve();
  #failure: unknown;
  #closed = false;

  constructor(opts: { dir: string; clock: Clock; policy: RotationPolicy; prefix?: string }) {
    this.#dir = opts.dir;
    this.#clock = opts.clock;
    this.#policy = opts.policy;
    this.#prefix = opts.prefix ?? "market";
  }

  /** Files started so far, in order (absolute when `dir` is). */
  get files(): readonly string[] {
    return this.#files;
  }

  /** Frames written. */
  get frames(): number {
    return this.#frames;
  }

  /** The first write failure (disk full, permissions), if any; later writes are dropped. */
  get failure(): unknown {
    return this.#failure;
  }

  /** Queues one record; the returned promise settles when it is written (never rejects). */
  write(rec: RecordedFrame): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#queue = this.#queue.then(() => this.#write(rec)).catch((err: unknown) => this.#fail(err));
    return this.#queue;
  }

  /**
   * Puts every frame queued so far into the current file (a sync flush, RecordedWriter.flush):
   * a process killed after this settles loses none of them. Settles after the queued writes.
   */
  flush(): Promise<void> {
    this.#queue = this.#queue.then(() => this.#writer?.flush()).catch((err: unknown) => this.#fail(err));
    return this.#queue;
  }

  /** Finishes the current file after the queued writes; later writes are ignored. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#queue;
    const w = this.#writer;
    this.#writer = undefined;
    if (w !== undefined) await w.close().catch((err: unknown) => this.#fail(err));
  }

  #fail(err: unknown): void {
    this.#failure ??= err;
  }

  async #write(rec: RecordedFrame): Promise<void> {
    if (this.#failure !== undefined) return;
    const now = this.#clock.now();
    const max = this.#policy.maxAgeMs;
    if (this.#writer !== undefined && max !== undefined && now - this.#startedAt >= max) await this.#rotate();
    const w = this.#writer ?? this.#open(now);
    await w.write(rec);
    this.#frames++;
    if (this.#policy.maxBytes !== undefined && ++this.#sinceCheck >= SIZE_CHECK_FRAMES) {
      this.#sinceCheck = 0;
      // Only hands the batch to zlib: a sync flush here, every 64 frames, would cost compression.
      await w.flush({ sync: false });
      if ((await sizeOf(w.path)) >= this.#policy.maxBytes) await this.#rotate();
    }
  }

  async #rotate(): Promise<void> {
    const w = this.#writer;
    this.#writer = undefined;
    if (w !== undefined) await w.close();
  }

  #open(now: number): RecordedWriter {
    let path: string;
    do {
      this.#seq++;
      path = join(this.#dir, recordingFileName(this.#prefix, now, this.#seq));
    } while (existsSync(path));
    this.#startedAt = now;
    this.#sinceCheck = 0;
    const w = RecordedWriter.create(path, { exclusive: true });
    this.#writer = w;
    this.#files.push(path);
    return w;
  }
}

/** Bytes on disk; 0 while the file is still being opened (the write stream opens asynchronously). */
async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw err;
  }
}
