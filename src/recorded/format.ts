import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { constants, createGzip } from "node:zlib";

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

/**
 * The recorded market-data format, written by `mm record` and `mm import`, read by the backtest:
 * gzip-compressed JSON Lines, one object per line, in receive order:
 *   {"recvTs": <ms since epoch, local receive time>, "frame": <the /ws/market frame as received>}
 * `frame` is the server push unchanged ({type, sid, channel, id, data}), so replaying a file feeds
 * the same parser the live gateway uses. Files may be concatenated gzip members.
 */
export interface RecordedFrame {
  readonly recvTs: number;
  readonly frame: MarketFrame;
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

/** The conventional file suffix. */
export const RECORDED_SUFFIX = ".jsonl.gz";

/** One record as its line (with the newline). */
export function recordLine(rec: RecordedFrame): string {
  return `${JSON.stringify({ recvTs: rec.recvTs, frame: rec.frame })}\n`;
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
  readonly #file: WriteStream;
  readonly #done: Promise<void>;
  #failure: unknown;
  /** Lines went to zlib since the last sync flush. */
  #unsynced = false;
  #count = 0;
  #batch: string[] = [];
  #batchChars = 0;

  private constructor(path: string, flags: string) {
    this.path = path;
    this.#file = createWriteStream(path, { flags });
    this.#done = pipeline(this.#gzip, this.#file);
    this.#done.catch((err: unknown) => {
      this.#failure = err;
    });
  }

  /** Creates (or truncates) `path`; with `exclusive`, fails if it exists. */
  static create(path: string, opts: { exclusive?: boolean } = {}): RecordedWriter {
    return new RecordedWriter(path, opts.exclusive === true ? "wx" : "w");
  }

  /** Records written so far. */
  get count(): number {
    return this.#count;
  }

  /** Appends one record; resolves when the stream can take more. */
  async write(rec: RecordedFrame): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    const line = recordLine(rec);
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
    // Writes complete in order: this callback comes once every earlier byte was written.
    await new Promise<void>((resolve) => this.#file.write(NOTHING, () => resolve()));
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
