import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { Writable } from "node:stream";
import type { Clock } from "../../core/clock.js";
import { RECORDED_SUFFIX, type RecordedFrame, RecordedWriter, recordLine } from "../../recorded/format.js";
import { RecordWriteError } from "./errors.js";
import { LineQueue } from "./line-queue.js";
import { type ClockStepBacks, RecvClamp } from "./recv-clamp.js";

/** When to start a new file; either limit (or both) may be set. */
export interface RotationPolicy {
  /** Compressed size on disk, bytes. */
  readonly maxBytes?: number | undefined;
  /** Age of the file, ms (a file is rotated when the first frame after that age arrives). */
  readonly maxAgeMs?: number | undefined;
}

/** Options of RotatingWriter. */
export interface RotatingWriterOptions {
  readonly dir: string;
  /** File start times (names) and ages. */
  readonly clock: Clock;
  readonly policy: RotationPolicy;
  /** File name prefix; default "market". */
  readonly prefix?: string;
  /**
   * Frames waiting for the disk, in characters of JSON (bytes, for ASCII), beyond which the writer
   * stops with RecordWriteError `write_stalled`; default DEFAULT_MAX_PENDING_BYTES.
   */
  readonly maxPendingBytes?: number;
  /** Where a file's compressed bytes go; default the file, created exclusively. */
  readonly openSink?: (path: string) => Writable;
  /** Called once, when the writer stops: a disk error or a stall. */
  readonly onFailure?: (err: unknown) => void;
  /** Called once per step back of the frames' clock, with how far back (see RecvClamp). */
  readonly onClockStepBack?: (stepMs: number) => void;
}

/**
 * 64 MiB: at a busy market's ~100 frames/s of ~400 bytes, over 25 minutes of a disk that takes
 * nothing; a disk that slow is broken, and the recording had better stop and say so.
 */
export const DEFAULT_MAX_PENDING_BYTES = 64 * 1024 * 1024;

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
 * Writes recorded frames (src/recorded/format.ts) into a series of gzip JSONL files in one
 * directory, starting a new file when the current one reaches `maxBytes` on disk or `maxAgeMs` of
 * age. A file is never overwritten (created exclusively).
 *
 * write() queues a frame and returns at once (the socket cannot wait); one loop writes the queue
 * in order, waiting for the file stream's back-pressure (LineQueue). The queue is bounded: a disk
 * that falls `maxPendingBytes` behind stops the writer with RecordWriteError `write_stalled`
 * (onFailure, failure), and write() refuses every frame from then on (returns false). The
 * recording stops there, loudly, rather than growing memory without bound or dropping frames
 * silently (a dropped book delta is a sequence gap that no snapshot in the file would heal);
 * the frames accepted before are still written once the disk takes them. A disk error (ENOSPC,
 * EACCES) stops it likewise; the frames still queued then cannot be written.
 *
 * recvTs never decreases across the writer's files (RecvClamp), and file start times never go back
 * either, so names sort in recording order even when the wall clock steps back.
 * flush() puts the frames so far into the file, bounding what a crash can lose; close() finishes
 * the current file so that it is a complete gzip stream.
 */
export class RotatingWriter {
  readonly #dir: string;
  readonly #prefix: string;
  readonly #clock: Clock;
  readonly #policy: RotationPolicy;
  readonly #queue: LineQueue;
  readonly #openSink: ((path: string) => Writable) | undefined;
  readonly #onFailure: ((err: unknown) => void) | undefined;
  readonly #recv: RecvClamp;
  readonly #files: string[] = [];
  #writer: RecordedWriter | undefined;
  #startedAt = 0;
  /** The latest file time seen: a new file never starts before the previous one. */
  #fileNow = Number.NEGATIVE_INFINITY;
  #seq = 0;
  #sinceCheck = 0;
  #frames = 0;
  #failure: unknown;
  #closed = false;

  constructor(opts: RotatingWriterOptions) {
    this.#dir = opts.dir;
    this.#clock = opts.clock;
    this.#policy = opts.policy;
    this.#prefix = opts.prefix ?? "market";
    this.#queue = new LineQueue(
      { write: (line) => this.#write(line), flush: async () => this.#writer?.flush() },
      opts.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES,
      (err) => this.#fail(err),
    );
    this.#openSink = opts.openSink;
    this.#onFailure = opts.onFailure;
    this.#recv = new RecvClamp(opts.onClockStepBack);
  }

  /** Files started so far, in order (absolute when `dir` is). */
  get files(): readonly string[] {
    return this.#files;
  }

  /** Frames written. */
  get frames(): number {
    return this.#frames;
  }

  /** Characters of JSON queued and not yet handed to the file's gzip stream. */
  get pendingBytes(): number {
    return this.#queue.pending;
  }

  /** Frames whose recvTs was raised because the clock stepped back, and the largest step. */
  get clockStepBacks(): ClockStepBacks {
    return this.#recv.stepBacks;
  }

  /** Why the writer stopped (a disk error, or RecordWriteError `write_stalled`), if it did. */
  get failure(): unknown {
    return this.#failure;
  }

  /**
   * Queues one frame, its recvTs raised to the last one written if the clock stepped back. False
   * when refused: the writer is closed or stopped, or this frame would put it over the limit
   * (which stops it).
   */
  write(rec: RecordedFrame): boolean {
    if (this.#closed || this.#failure !== undefined) return false;
    const line = recordLine({ recvTs: this.#recv.next(rec.recvTs), frame: rec.frame });
    if (this.#queue.push(line)) return true;
    this.#fail(this.#stalled());
    return false;
  }

  /**
   * Puts every frame queued so far into the current file (a sync flush, RecordedWriter.flush):
   * a process killed after this settles loses none of them. Never rejects.
   */
  flush(): Promise<void> {
    return this.#queue.wait(true);
  }

  /** Finishes the current file after the queued frames; later writes are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#queue.wait(false);
    const w = this.#writer;
    this.#writer = undefined;
    if (w !== undefined) await w.close().catch((err: unknown) => this.#fail(err));
  }

  #stalled(): RecordWriteError {
    const mib = (n: number) =>
      n >= 1_048_576 ? `${(n / 1_048_576).toFixed(1)} MiB` : `${Math.round(n / 1_024)} KiB`;
    const file = this.#writer?.path ?? this.#dir;
    return new RecordWriteError(
      "write_stalled",
      `the disk did not keep up: ${mib(this.#queue.pending)} of frames were waiting to be written to ${file} ` +
        `(limit ${mib(this.#queue.limit)}); the recording stops here; the frames received before it are written once the disk takes them`,
      { file, pendingBytes: this.#queue.pending, limitBytes: this.#queue.limit },
    );
  }

  #fail(err: unknown): void {
    if (this.#failure !== undefined) return;
    this.#failure = err;
    this.#onFailure?.(err);
  }

  async #write(line: string): Promise<void> {
    const now = Math.max(this.#fileNow, this.#clock.now());
    this.#fileNow = now;
    const max = this.#policy.maxAgeMs;
    if (this.#writer !== undefined && max !== undefined && now - this.#startedAt >= max) await this.#rotate();
    const w = this.#writer ?? this.#open(now);
    await w.writeLine(line);
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
    const w =
      this.#openSink === undefined
        ? RecordedWriter.create(path, { exclusive: true })
        : RecordedWriter.toStream(path, this.#openSink(path));
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
