import { once } from "node:events";
import { createWriteStream } from "node:fs";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { constants, createGzip } from "node:zlib";
import type { RecordingSource } from "./source.js";

export {
  firstRecord,
  type LineRun,
  parseLine,
  type ReadOptions,
  readRecorded,
  readRecordedBatches,
  readRecordedText,
  recordProblem,
} from "./read.js";
export { parseRecordingSource, type RecordingSource, type SourceStream } from "./source.js";

/**
 * The recorded market-data format, written by `mm record` and `mm import`, read by the backtest:
 * gzip-compressed JSON Lines, one object per line, in receive order:
 *   {"recvTs": <ms since epoch, local receive time>, "frame": <the /ws/market frame as received>}
 * `frame` is the server push unchanged ({type, sid, channel, id, data}), so replaying a file feeds
 * the same parser the live gateway uses. `mm record` also writes frames of its own in that shape,
 * told apart by a string `sid` and a `via`: "rest" (a status read over REST), CARRIED_SID and
 * PRINTS_MISSED_SID. Files may be concatenated gzip members. recvTs never
 * decreases within a file, nor across the rotated files of one `mm record` run. The first
 * record of an imported file also carries `source` (src/recorded/source.ts).
 */
export interface RecordedFrame {
  readonly recvTs: number;
  readonly frame: MarketFrame;
  /** Only on the first record of an `mm import` output: what it was imported from. */
  readonly source?: RecordingSource;
}

/** A /ws/market push as the spec's envelope spells it. */
export interface MarketFrame {
  readonly type: string;
  readonly sid?: string | number;
  readonly channel?: string;
  readonly id?: string;
  readonly data?: unknown;
  readonly [extra: string]: unknown;
}

/**
 * The `sid` of a frame `mm record` carried into a rotated file (a push's sid is the server's
 * subscription id, a number; a REST status read's is "rest"): a copy of the last lifecycle frame
 * (condition_lifecycle, platform_status) recorded for a market or the platform in the earlier
 * files (after the market's last resolution with payouts, the platform's last `frozen`, when a
 * later frame followed those: LifecycleCarry), at the head of the new one, with `"via": CARRIED_VIA`, so that the file replayed alone
 * knows the state a pause, a status or a resolution set before it. The replay acts on one only
 * when it says something it does not know yet (replaying the whole directory, never).
 */
export const CARRIED_SID = "carry";
/** The `via` of a carried frame: why it was carried. */
export const CARRIED_VIA = "rotation";

/**
 * The `sid` of a `prints_missed` frame of `mm record` (data `{tokenId, fromMs, toMs}`): the token's
 * trade prints (token_trade_matches) could not be recorded from fromMs to toMs, its `via` saying
 * why: its connection was down (`"reconnect"`), the server had dropped its subscription on a live
 * socket (`"dropped"`), or refused its subscribe for a while (`"refused"`); toMs is the recording's
 * stop when it stopped before they were accepted again. The exchange does not replay prints. Not a
 * push: the replay
 * lists these stretches (summary `data.printsMissed`) and acts on nothing.
 */
export const PRINTS_MISSED_SID = "gap";

/** The conventional file suffix. */
export const RECORDED_SUFFIX = ".jsonl.gz";

/** One record as its line (with the newline). */
export function recordLine(rec: RecordedFrame): string {
  const line =
    rec.source === undefined
      ? { recvTs: rec.recvTs, frame: rec.frame }
      : { recvTs: rec.recvTs, frame: rec.frame, source: rec.source };
  return `${JSON.stringify(line)}\n`;
}

/** Bytes of JSON batched before they go to zlib: one zlib call per batch, not per record. */
const BATCH_CHARS = 64 * 1024;

/** Written after a sync flush: its callback says the file stream has written everything before it. */
const NOTHING = Buffer.alloc(0);

/**
 * Streams records into a gzip file, honouring back-pressure (await each write). Lines are batched
 * (64 KiB) before compression, because a zlib call per small record costs more than the record;
 * flush() puts everything so far into the file (e.g. on a timer, to bound what a crash can lose).
 * Memory stays flat.
 * @example
 * const w = RecordedWriter.create("out.jsonl.gz");
 * await w.write({ recvTs: 1, frame });
 * await w.close();
 */
export class RecordedWriter {
  readonly path: string;
  readonly #gzip = createGzip();
  /** Where the compressed bytes go: the file, or a stream given to toStream(). */
  readonly #file: Writable;
  readonly #done: Promise<void>;
  #failure: unknown;
  /** Lines went to zlib since the last sync flush. */
  #unsynced = false;
  #count = 0;
  #batch: string[] = [];
  #batchChars = 0;

  private constructor(path: string, sink: Writable) {
    this.path = path;
    this.#file = sink;
    this.#done = pipeline(this.#gzip, this.#file);
    this.#done.catch((err: unknown) => {
      this.#failure = err;
    });
  }

  /** Creates (or truncates) `path`; with `exclusive`, fails if it exists. */
  static create(path: string, opts: { exclusive?: boolean } = {}): RecordedWriter {
    return new RecordedWriter(path, createWriteStream(path, { flags: opts.exclusive === true ? "wx" : "w" }));
  }

  /**
   * Writes the gzip bytes into `sink` instead of a file it opens (a pipe, or a test's disk that
   * stalls on command); `path` only names it. close() ends `sink`.
   * @example const w = RecordedWriter.toStream("mem", new PassThrough());
   */
  static toStream(path: string, sink: Writable): RecordedWriter {
    return new RecordedWriter(path, sink);
  }

  /** Records written so far. */
  get count(): number {
    return this.#count;
  }

  /** Appends one record; resolves when the stream can take more. */
  async write(rec: RecordedFrame): Promise<void> {
    return this.writeLine(recordLine(rec));
  }

  /** Appends one record already serialised by recordLine() (with its newline). */
  async writeLine(line: string): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    this.#count++;
    this.#batch.push(line);
    this.#batchChars += line.length;
    if (this.#batchChars >= BATCH_CHARS) await this.flush({ sync: false });
  }

  /**
   * Puts everything written so far into the file: hands the batched lines to zlib, pushes them
   * through deflate (Z_SYNC_FLUSH) and resolves once the file stream has written them, so that a
   * process killed after that loses none of them and the file reads back up to there
   * (ReadOptions.onTruncated). A sync flush ends the current deflate block, which costs some
   * compression: do it on a timer, not per batch. Nothing is done when nothing was written since.
   * With `sync: false`, only hands the batch to zlib (resolves when the stream can take more):
   * deflate may keep it until a block fills, tens of KB compressed.
   */
  async flush(opts: { readonly sync?: boolean } = {}): Promise<void> {
    // A failed file confirms nothing: resolving here would count lost lines as written.
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#batch.length > 0) {
      const text = this.#batch.join("");
      this.#batch = [];
      this.#batchChars = 0;
      this.#unsynced = true;
      if (!this.#gzip.write(text)) await Promise.race([once(this.#gzip, "drain"), this.#done]);
    }
    if (opts.sync !== false && this.#unsynced && this.#failure === undefined) await this.#syncFlush();
  }

  async #syncFlush(): Promise<void> {
    this.#unsynced = false;
    await new Promise<void>((resolve) => this.#gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()));
    // zlib's output goes through the pipe into the file stream; while the file stream is busy the
    // pipe holds it back in gzip's own buffer, and passes it on at the file stream's 'drain'.
    while (this.#gzip.readableLength > 0 && this.#failure === undefined) {
      await Promise.race([once(this.#file, "drain"), this.#done]);
    }
    // Writes complete in order: this callback comes once every earlier byte was written (or with
    // the error of one that was not, the disk full, say: then nothing after the failure is on disk).
    const err = await new Promise<Error | null | undefined>((resolve) => this.#file.write(NOTHING, resolve));
    if (err !== null && err !== undefined) throw this.#failure ?? err;
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Flushes and closes the file; rejects if anything failed on the way. */
  async close(): Promise<void> {
    if (this.#failure === undefined && !this.#gzip.writableEnded) {
      await this.flush({ sync: false });
      this.#gzip.end();
    }
    await this.#done;
  }
}
