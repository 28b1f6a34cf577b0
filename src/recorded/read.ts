import { RecordedFormatError } from "./errors.js";
import type { RecordedFrame } from "./format.js";
import { decompressedText, isZlibError } from "./gunzip-text.js";

/**
 * How a reader treats what is not a clean recorded file. By default it throws: a bad line throws
 * RecordedFormatError `bad_record`, a file cut short `truncated`.
 */
export interface ReadOptions {
  /** A line that is not a record: called and the line skipped, instead of throwing. */
  readonly onBadLine?: (line: number, problem: string) => void;
  /**
   * A file cut short — what a recorder killed mid-file leaves: no gzip end, usually a partial last
   * line. With this option its complete lines are read, the partial last line is dropped, and this
   * is called once (with the file) at the end, instead of throwing RecordedFormatError `truncated`.
   */
  readonly onTruncated?: (file: string) => void;
}

/**
 * The receive times a record may have, ms since the epoch: 1973-03-03 to year 5138. Outside, the
 * stamp is almost surely in another unit (seconds now are about 1.7e9, microseconds 1.7e15).
 */
export const MIN_RECV_TS_MS = 1e11;
/** See MIN_RECV_TS_MS. */
export const MAX_RECV_TS_MS = 1e14;

/** Validates one parsed line; a description of the problem, or undefined when it is a record. */
export function recordProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not an object";
  const v = value as { recvTs?: unknown; frame?: unknown };
  if (typeof v.recvTs !== "number" || !Number.isFinite(v.recvTs)) return "recvTs is not a number";
  // The replay's clock and the report count whole milliseconds (a fraction would fail at the first fill).
  if (!Number.isInteger(v.recvTs)) return "recvTs is not a whole number of milliseconds";
  // A stamp in seconds (1.7e9) or microseconds (1.7e15) is a number too: read as milliseconds the
  // replay would run in January 1970, a thousand times too fast, or in year 50,000, and say nothing.
  if (v.recvTs < MIN_RECV_TS_MS || v.recvTs > MAX_RECV_TS_MS) {
    return `recvTs ${v.recvTs} is not milliseconds since the epoch (seconds or microseconds?)`;
  }
  const f = v.frame;
  if (typeof f !== "object" || f === null || Array.isArray(f)) return "frame is not an object";
  if (typeof (f as { type?: unknown }).type !== "string") return "frame.type is not a string";
  return undefined;
}

/**
 * Streams the records of a recorded file in order. A bad line throws RecordedFormatError `bad_record`
 * (with file and line) unless `onBadLine` is given, which is called and the line skipped.
 * @example for await (const { recvTs, frame } of readRecorded("day.jsonl.gz")) replay(recvTs, frame);
 */
export async function* readRecorded(path: string, opts: ReadOptions = {}): AsyncGenerator<RecordedFrame> {
  for await (const batch of readRecordedBatches(path, opts)) yield* batch;
}

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
 * A file that is not gzip, or whose data is corrupt, throws RecordedFormatError `bad_gzip`; a
 * file cut short throws `truncated`, unless `onTruncated` is given (see ReadOptions). File system
 * errors (ENOENT, …) are thrown as they are.
 * @example for await (const { text } of readRecordedText("day.jsonl.gz")) count += text.split("\n").length;
 */
export async function* readRecordedText(
  path: string,
  opts: Pick<ReadOptions, "onTruncated"> = {},
): AsyncGenerator<LineRun> {
  let carry = "";
  let line = 1;
  try {
    for await (const chunk of decompressedText(path)) {
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
  } catch (err) {
    if (!isZlibError(err)) throw err;
    if (err.code !== "Z_BUF_ERROR") {
      throw new RecordedFormatError("bad_gzip", `${path}: not a valid gzip file (${err.message})`, {
        file: path,
        zlib: err.code,
      });
    }
    // Z_BUF_ERROR is zlib's "unexpected end of file": the input stopped inside the gzip stream.
    if (opts.onTruncated === undefined) {
      throw new RecordedFormatError("truncated", `${path}: the file is cut short (no gzip end)`, {
        file: path,
        line,
      });
    }
    // The text after the last newline is a line the writer never finished: dropped.
    opts.onTruncated(path);
    return;
  }
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
 * line and one await per batch rather than per record. Memory holds one batch. Bad lines and
 * truncation as in ReadOptions.
 * @example for await (const batch of readRecordedBatches("day.jsonl.gz")) for (const r of batch) replay(r);
 */
export async function* readRecordedBatches(
  path: string,
  opts: ReadOptions = {},
): AsyncGenerator<RecordedFrame[]> {
  for await (const { text, firstLine } of readRecordedText(path, opts)) {
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
 * The first record of a recorded file, parsing nothing after it (and closing the file): what a
 * merge needs to know of a file before it opens it. Undefined for a file without records. Bad
 * lines and truncation as in ReadOptions.
 * @example const first = await firstRecord("market-…-0002.jsonl.gz"); // { recvTs, frame } | undefined
 */
export async function firstRecord(path: string, opts: ReadOptions = {}): Promise<RecordedFrame | undefined> {
  for await (const { text, firstLine } of readRecordedText(path, opts)) {
    let from = 0;
    for (let line = firstLine; ; line++) {
      const nl = text.indexOf("\n", from);
      const rec = parseLine(path, line, text.slice(from, nl < 0 ? text.length : nl), opts);
      if (rec !== undefined) return rec;
      if (nl < 0) break;
      from = nl + 1;
    }
  }
  return undefined;
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
