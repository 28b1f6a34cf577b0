import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { isEntryRejection, parseChanges } from "../../book/entries.js";
import { microToString } from "../../book/micro.js";
import {
  type MarketFrame,
  RecordedWriter,
  type RecordingSource,
  type SourceStream,
} from "../../recorded/format.js";
import { csvRecords } from "./csv.js";
import { ImportError } from "./errors.js";
import { refuseOverlappingImport } from "./existing-imports.js";
import { microsToMs, parseTimestampMicros } from "./timestamp.js";

/**
 * The `sid` written into imported frames. A capture has no subscription of ours; a number, as the
 * gateway hands sids out (1, 2, …), so replayed frames pass the same envelope checks as live ones.
 */
export const IMPORTED_SID = 1;
/** The `--format` name, also written into the output's `source`. */
export const POLYMARKET_PRICE_CHANGE_CSV = "polymarket-price-change-csv";
const REQUIRED = ["id", "asset_id", "market", "timestamp", "changes"] as const;

/** Options of importPolymarketPriceChanges. */
export interface PolymarketImportOptions {
  readonly input: string;
  readonly output: string;
  /** data.outcomeIndex of every frame; omitted from the frames when not given (the CSV lacks it). */
  readonly outcomeIndex?: number;
  /** Replace an existing output file. */
  readonly force?: boolean;
}

/** What an import did. */
export interface ImportSummary {
  readonly rows: number;
  readonly tokens: number;
  readonly frames: number;
  /** Rows that were not in (timestamp, id) order in the input. */
  readonly reordered: number;
  /** Rows that repeat an earlier row exactly (same id, time, token and changes): dropped. */
  readonly duplicates: number;
  readonly firstTs: number | undefined;
  readonly lastTs: number | undefined;
}

interface Row {
  readonly id: bigint;
  readonly micros: number;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly changes: { side: "buy" | "sell"; price: string; size: string }[];
}

/**
 * Converts a CSV of Polymarket legacy `price_change` messages (columns id, asset_id, market,
 * timestamp, hash, changes) into the recorded format: per token a synthetic empty book_snapshot
 * (seq 1) at its first row's time, then one book_delta per row with contiguous seq/prevSeq, rows
 * sorted by (timestamp, id). BUY changes are bids, SELL asks; `size` is the new level total.
 * Rows repeated exactly (captures joined into one CSV) are dropped. The first record carries the
 * input's `source` (sha256 and each token's time span); an output whose directory already holds
 * the same capture or overlapping streams of its tokens is refused (refuseOverlappingImport).
 * The rows are held in memory to be sorted (about the CSV's size); the output is streamed and
 * written to `<output>.partial` first, so a failed import leaves no truncated file behind.
 * @example await importPolymarketPriceChanges({ input: "pc.csv", output: "pc.jsonl.gz" })
 */
export async function importPolymarketPriceChanges(opts: PolymarketImportOptions): Promise<ImportSummary> {
  await refuseInputAsOutput(opts.input, opts.output);
  if (opts.force !== true && (await exists(opts.output))) {
    throw new ImportError("output_exists", `${opts.output} exists (use --force to replace it)`, {
      file: opts.output,
    });
  }
  await requireOutputFolder(opts.output);
  const read = await readRows(opts.input);
  read.rows.sort((a, b) => a.micros - b.micros || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const { rows, duplicates } = withoutRepeats(read.rows);
  const source: RecordingSource = {
    format: POLYMARKET_PRICE_CHANGE_CSV,
    sha256: read.sha256,
    streams: streamsOf(rows),
  };
  await refuseOverlappingImport(opts.output, source);
  const partial = `${opts.output}.partial`;
  const writer = RecordedWriter.create(partial);
  const seqs = new Map<string, number>();
  try {
    for (const row of rows) {
      const recvTs = microsToMs(row.micros);
      const base: Record<string, unknown> = { tokenId: row.tokenId, conditionId: row.conditionId };
      if (opts.outcomeIndex !== undefined) base.outcomeIndex = opts.outcomeIndex;
      let seq = seqs.get(row.tokenId);
      if (seq === undefined) {
        seq = 1;
        const data = { ...base, bids: [], asks: [], seq, tsMs: recvTs };
        const snapshot = frame("book_snapshot", row.tokenId, data);
        await writer.write(
          writer.count === 0 ? { recvTs, frame: snapshot, source } : { recvTs, frame: snapshot },
        );
      }
      const data = { ...base, seq: seq + 1, prevSeq: seq, changes: row.changes, tsMs: recvTs };
      await writer.write({ recvTs, frame: frame("book_delta", row.tokenId, data) });
      seqs.set(row.tokenId, seq + 1);
    }
    await writer.close();
    await rename(partial, opts.output);
  } catch (err) {
    await writer.close().catch(() => {});
    // Never in place of the error that brought us here.
    await rm(partial, { force: true }).catch(() => {});
    throw err;
  }
  return {
    rows: read.rows.length,
    tokens: seqs.size,
    frames: writer.count,
    reordered: read.reordered,
    duplicates,
    firstTs: rows[0] === undefined ? undefined : microsToMs(rows[0].micros),
    lastTs: rows.at(-1) === undefined ? undefined : microsToMs((rows.at(-1) as Row).micros),
  };
}

function frame(type: string, tokenId: string, data: Record<string, unknown>): MarketFrame {
  return { type, sid: IMPORTED_SID, channel: "token_book", id: tokenId, data };
}

/** Each token's first and last receive time, in the order of their first rows (sorted rows). */
function streamsOf(rows: readonly Row[]): SourceStream[] {
  const spans = new Map<string, { firstTs: number; lastTs: number }>();
  for (const row of rows) {
    const ts = microsToMs(row.micros);
    const span = spans.get(row.tokenId);
    if (span === undefined) spans.set(row.tokenId, { firstTs: ts, lastTs: ts });
    else span.lastTs = ts;
  }
  return [...spans].map(([tokenId, span]) => ({ tokenId, ...span }));
}

/**
 * Sorted rows without exact repeats. Copies share (time, id), so they sit in one run of equal
 * (time, id); rows of a run that differ (one message split over rows) are all kept.
 */
function withoutRepeats(sorted: readonly Row[]): { rows: Row[]; duplicates: number } {
  const rows: Row[] = [];
  let run = new Set<string>();
  let prev: Row | undefined;
  for (const row of sorted) {
    if (prev === undefined || row.micros !== prev.micros || row.id !== prev.id) run = new Set();
    prev = row;
    const key = `${row.tokenId}|${row.conditionId}|${JSON.stringify(row.changes)}`;
    if (run.has(key)) continue;
    run.add(key);
    rows.push(row);
  }
  return { rows, duplicates: sorted.length - rows.length };
}

async function readRows(file: string): Promise<{ rows: Row[]; reordered: number; sha256: string }> {
  const input = createReadStream(file);
  // The bytes as they are: the same capture has the same digest whatever its name or place.
  const hash = createHash("sha256");
  input.on("data", (chunk) => hash.update(chunk));
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  const rows: Row[] = [];
  let reordered = 0;
  let col: Record<(typeof REQUIRED)[number], number> | undefined;
  let width = 0;
  let headerLine = "";
  for await (const { fields, line } of csvRecords(lines, file)) {
    if (col === undefined) {
      col = header(fields, file);
      width = fields.length;
      headerLine = fields.join("\n");
      continue;
    }
    // Files joined with `cat` repeat the header: a row equal to it is the next file's, not data.
    if (fields.length === width && fields.join("\n") === headerLine) continue;
    if (fields.length !== width) {
      throw bad("csv_field_count", file, line, `${fields.length} fields, the header has ${width}`);
    }
    const row = toRow(fields, col, file, line);
    const prev = rows.at(-1);
    if (
      prev !== undefined &&
      (row.micros < prev.micros || (row.micros === prev.micros && row.id < prev.id))
    ) {
      reordered++;
    }
    rows.push(row);
  }
  if (col === undefined) throw bad("csv_bad_header", file, 1, "the file is empty");
  return { rows, reordered, sha256: hash.digest("hex") };
}

function header(fields: string[], file: string): Record<(typeof REQUIRED)[number], number> {
  const names = fields.map((f) => f.trim().toLowerCase());
  const out = {} as Record<(typeof REQUIRED)[number], number>;
  for (const name of REQUIRED) {
    const i = names.indexOf(name);
    if (i < 0) throw bad("csv_bad_header", file, 1, `missing column ${JSON.stringify(name)}`);
    out[name] = i;
  }
  return out;
}

function toRow(
  fields: string[],
  col: Record<(typeof REQUIRED)[number], number>,
  file: string,
  line: number,
): Row {
  const get = (name: (typeof REQUIRED)[number]) => (fields[col[name]] as string).trim();
  const id = get("id");
  if (!/^\d{1,30}$/.test(id)) throw bad("bad_row", file, line, `id ${JSON.stringify(id)} is not an integer`);
  const tokenId = get("asset_id");
  if (!/^\d{1,80}$/.test(tokenId)) throw bad("bad_row", file, line, "asset_id is not a decimal token id");
  const conditionId = get("market").toLowerCase();
  if (!/^0x[0-9a-f]{64}$/.test(conditionId)) throw bad("bad_row", file, line, "market is not a bytes32 hex");
  const micros = parseTimestampMicros(get("timestamp"));
  if (micros === undefined)
    throw bad("bad_timestamp", file, line, `timestamp ${JSON.stringify(get("timestamp"))}`);
  let raw: unknown;
  try {
    raw = JSON.parse(get("changes"));
  } catch {
    throw bad("bad_changes", file, line, "changes is not JSON");
  }
  const parsed = parseChanges(raw);
  if (isEntryRejection(parsed)) {
    throw bad("bad_changes", file, line, `changes[${parsed.index}]: ${parsed.code}`);
  }
  const changes = parsed.map((c) => ({
    side: c.side === "bid" ? ("buy" as const) : ("sell" as const),
    price: microToString(c.price),
    size: microToString(c.size),
  }));
  return { id: BigInt(id), micros, tokenId, conditionId, changes };
}

function bad(code: string, file: string, line: number, what: string): ImportError {
  return new ImportError(code, `${file}:${line}: ${what}`, { file, line });
}

/**
 * Refuses an output that is the input file itself (another spelling, a link): `--force` would
 * replace the capture with its import.
 */
async function refuseInputAsOutput(input: string, output: string): Promise<void> {
  const [a, b] = await Promise.all([stat(input).catch(() => undefined), stat(output).catch(() => undefined)]);
  if (a === undefined || b === undefined || a.dev !== b.dev || a.ino !== b.ino) return;
  throw new ImportError("output_is_input", `${output} is the input: write the import to another file`, {
    file: output,
  });
}

/** Refuses, before a long read of the input, an output whose folder is missing (say what to do). */
async function requireOutputFolder(output: string): Promise<void> {
  const folder = dirname(output);
  const st = await stat(folder).catch(() => undefined);
  if (st?.isDirectory() === true) return;
  if (st !== undefined) {
    throw new ImportError("output_dir_not_folder", `cannot write ${output}: ${folder} is not a folder`, {
      file: output,
    });
  }
  throw new ImportError(
    "output_dir_missing",
    `cannot write ${output}: its folder ${folder} does not exist (create it first: mkdir -p ${folder})`,
    { file: output },
  );
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
