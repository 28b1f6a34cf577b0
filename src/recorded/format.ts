import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { RecordedFormatError } from "./errors.js";

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

/** Validates one parsed line; a description of the problem, or undefined when it is a record. */
export function recordProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not an object";
  const v = value as { recvTs?: unknown; frame?: unknown };
  if (typeof v.recvTs !== "number" || !Number.isFinite(v.recvTs)) return "recvTs is not a number";
  const f = v.frame;
  if (typeof f !== "object" || f === null || Array.isArray(f)) return "frame is not an object";
  if (typeof (f as { type?: unknown }).type !== "string") return "frame.type is not a string";
  return undefined;
}

/** Bytes of JSON batched before they go to zlib: one zlib call per batch, not per record. */
const BATCH_CHARS = 64 * 1024;

/**
 * Streams records into a gzip file, honouring back-pressure (await each write). Lines are batched
 * (64 KiB) before compression, because a zlib call per small record costs more than the record;
 * flush() hands the batch to zlib early (e.g. on a timer, to bound what a crash can lose).
 * Memory stays flat.
 * @example
 * const w = RecordedWriter.create("out.jsonl.gz");
 * await w.write({ recvTs: 1, frame });
 * await w.close();
 */
export class RecordedWriter {
  readonly path: string;
  readonly #gzip = createGzip();
  readonly #done: Promise<void>;
  #failure: unknown;
  #count = 0;
  #batch: string[] = [];
  #batchChars = 0;

  private constructor(path: string, flags: string) {
    this.path = path;
    this.#done = pipeline(this.#gzip, createWriteStream(path, { flags }));
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
    if (this.#batchChars >= BATCH_CHARS) await this.flush();
  }

  /** Hands the batched lines to zlib; resolves when the stream can take more. */
  async flush(): Promise<void> {
    if (this.#batch.length === 0) return;
    const text = this.#batch.join("");
    this.#batch = [];
    this.#batchChars = 0;
    if (!this.#gzip.write(text)) await Promise.race([once(this.#gzip, "drain"), this.#done]);
  }

  /** Flushes and closes the file; rejects if anything failed on the way. */
  async close(): Promise<void> {
    if (this.#failure === undefined && !this.#gzip.writableEnded) {
      await this.flush();
      this.#gzip.end();
    }
    await this.#done;
  }
}

/** What to do with a line that is not a record: throw (default) or skip it after a callback. */
export interface ReadOptions {
  readonly onBadLine?: (line: number, problem: string) => void;
}

/**
 * Streams the records of a recorded file in order. A bad line throws RecordedFormatError `bad_record`
 * (with file and line) unless `onBadLine` is given, which is called and the line skipped.
 * @example for await (const { recvTs, frame } of readRecorded("day.jsonl.gz")) replay(recvTs, frame);
 */
export async function* readRecorded(path: string, opts: ReadOptions = {}): AsyncGenerator<RecordedFrame> {
  for await (const batch of readRecordedBatches(path, opts)) yield* batch;
}

/** Decompressed text handed over per read: large enough that per-chunk costs vanish. */
const CHUNK_BYTES = 256 * 1024;

/** Whole lines of a recorded file's text: `text` holds lines `firstLine`, `firstLine + 1`, … */
export interface LineRun {
  readonly text: string;
  /** 1-based number of the run's first line. */
  readonly firstLine: number;
}

/**
 * Streams the decompressed text of a recorded file as runs of whole lines (one decompressed chunk,
 * about 256 KiB, each), unparsed: for passes that look at most lines without parsing them (the
 * backtest's token scan). Newlines separate lines; the last line may lack one.
 * @example for await (const { text } of readRecordedText("day.jsonl.gz")) count += text.split("\n").length;
 */
export async function* readRecordedText(path: string): AsyncGenerator<LineRun> {
  const gunzip = createGunzip({ chunkSize: CHUNK_BYTES });
  const piping = pipeline(createReadStream(path, { highWaterMark: CHUNK_BYTES }), gunzip);
  piping.catch(() => {}); // surfaced through the iteration below
  gunzip.setEncoding("utf8");
  let carry = "";
  let line = 1;
  for await (const chunk of gunzip as AsyncIterable<string>) {
    const text = carry + chunk;
    const end = text.lastIndexOf("\n");
    if (end < 0) {
      carry = text;
      continue;
    }
    const run = text.slice(0, end);
    carry = text.slice(end + 1);
    yield { text: run, firstLine: line };
    line += countLines(run);
  }
  await piping;
  if (carry !== "") yield { text: carry, firstLine: line };
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * Streams the records of a recorded file in order, a batch (the lines of one decompressed chunk,
 * about 256 KiB) at a time: what a replay reads millions of records through, one JSON.parse per
 * line and one await per batch rather than per record. Memory holds one batch. Bad lines as in
 * readRecorded.
 * @example for await (const batch of readRecordedBatches("day.jsonl.gz")) for (const r of batch) replay(r);
 */
export async function* readRecordedBatches(
  path: string,
  opts: ReadOptions = {},
): AsyncGenerator<RecordedFrame[]> {
  for await (const { text, firstLine } of readRecordedText(path)) {
    const out: RecordedFrame[] = [];
    let line = firstLine;
    let from = 0;
    try {
      for (;;) {
        const nl = text.indexOf("\n", from);
        const value = parseLine(path, line, text.slice(from, nl < 0 ? text.length : nl), opts);
        if (value !== undefined) out.push(value);
        if (nl < 0) break;
        from = nl + 1;
        line++;
      }
    } catch (err) {
      // The records before a bad line are delivered before the error, as one by one.
      if (out.length > 0) yield out;
      throw err;
    }
    if (out.length > 0) yield out;
  }
}

/**
 * One line of a recorded file as its record; undefined for an empty line or a bad one skipped by
 * `onBadLine`; a bad line otherwise throws RecordedFormatError `bad_record`.
 */
export function parseLine(
  path: string,
  line: number,
  text: string,
  opts: ReadOptions = {},
): RecordedFrame | undefined {
  if (text === "") return undefined;
  let value: unknown;
  let problem: string | undefined;
  try {
    value = JSON.parse(text);
    problem = recordProblem(value);
  } catch {
    problem = "not JSON";
  }
  if (problem === undefined) return value as RecordedFrame;
  if (opts.onBadLine === undefined) {
    throw new RecordedFormatError("bad_record", `${path}:${line}: ${problem}`, { file: path, line, problem });
  }
  opts.onBadLine(line, problem);
  return undefined;
}
