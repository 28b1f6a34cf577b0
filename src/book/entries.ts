import { LevelBuffer } from "./level-buffer.js";
import { parsePriceMicro, parseSizeMicro } from "./micro.js";
import type { BookSide } from "./price-levels.js";

/*
 * The ONE place that knows the entry shape of book_snapshot/book_update `bids`/`asks` and of
 * book_delta `changes`, which the spec does not show. Assumed shape (README "Assumptions"):
 * - a level is `{ price, size }`, both decimal strings; `size` is the level's new total and "0"
 *   removes the level; a price is in (0, 1], at most 6 significant decimals (extra trailing zeros
 *   are accepted), a size has no upper bound;
 * - a change also carries `side`: "buy", "BUY", "bid" or "BID" for bids; "sell", "SELL", "ask" or
 *   "ASK" for asks (the first pair is the API's own spelling of sides, the second Polymarket's,
 *   the third a book's);
 * - extra fields are ignored; the order of levels is not relied on.
 * A frame with any malformed entry is rejected whole: applying part of it would diverge silently.
 */

/** Why a list of entries was refused. */
export type EntryRejectionCode =
  | "entries_not_array"
  | "entry_not_object"
  | "bad_price"
  | "bad_size"
  | "bad_side";

/** A refused entry list: which list, which entry and why. Returned, never thrown. */
export interface EntryRejection {
  readonly code: EntryRejectionCode;
  readonly list: "bids" | "asks" | "changes";
  /** Index of the offending entry (−1 when the list itself is not an array). */
  readonly index: number;
}

/** A parsed change or level with its side. */
export interface ParsedEntry {
  readonly side: BookSide;
  readonly price: number;
  readonly size: bigint;
}

/**
 * Parses `bids` or `asks` into `buf` (appending); undefined on success.
 * @example parseLevelsInto([{ price: "0.5", size: "10" }], "bid", buf) // undefined, buf.length 1
 */
export function parseLevelsInto(raw: unknown, side: BookSide, buf: LevelBuffer): EntryRejection | undefined {
  const list = side === "bid" ? "bids" : "asks";
  if (!Array.isArray(raw)) return { code: "entries_not_array", list, index: -1 };
  const bid = side === "bid" ? 1 : 0;
  for (let i = 0; i < raw.length; i++) {
    const e: unknown = raw[i];
    if (typeof e !== "object" || e === null) return { code: "entry_not_object", list, index: i };
    const { price, size } = e as { price?: unknown; size?: unknown };
    const p = typeof price === "string" ? parsePriceMicro(price) : -1;
    if (p < 0) return { code: "bad_price", list, index: i };
    const s = typeof size === "string" ? parseSizeMicro(size) : undefined;
    if (s === undefined) return { code: "bad_size", list, index: i };
    buf.push(bid, p, s);
  }
  return undefined;
}

/**
 * Parses both sides of a snapshot or full update into `buf` (reset first); undefined on success.
 */
export function parseBookInto(bids: unknown, asks: unknown, buf: LevelBuffer): EntryRejection | undefined {
  buf.reset();
  const bad = parseLevelsInto(bids, "bid", buf);
  if (bad !== undefined) return bad;
  buf.firstAsk = buf.length;
  return parseLevelsInto(asks, "ask", buf);
}

/**
 * Parses book_delta `changes` into `buf` (reset first), keeping wire order; undefined on success.
 * @example parseChangesInto([{ side: "BUY", price: "0.14", size: "0" }], buf) // undefined
 */
export function parseChangesInto(raw: unknown, buf: LevelBuffer): EntryRejection | undefined {
  buf.reset();
  if (!Array.isArray(raw)) return { code: "entries_not_array", list: "changes", index: -1 };
  for (let i = 0; i < raw.length; i++) {
    const e: unknown = raw[i];
    if (typeof e !== "object" || e === null) return { code: "entry_not_object", list: "changes", index: i };
    const { side, price, size } = e as { side?: unknown; price?: unknown; size?: unknown };
    const bid = sideOf(side);
    if (bid < 0) return { code: "bad_side", list: "changes", index: i };
    const p = typeof price === "string" ? parsePriceMicro(price) : -1;
    if (p < 0) return { code: "bad_price", list: "changes", index: i };
    const s = typeof size === "string" ? parseSizeMicro(size) : undefined;
    if (s === undefined) return { code: "bad_size", list: "changes", index: i };
    buf.push(bid as 0 | 1, p, s);
  }
  return undefined;
}

/** Allocating convenience over parseChangesInto, for cold paths (importer, tests). */
export function parseChanges(raw: unknown): ParsedEntry[] | EntryRejection {
  const buf = new LevelBuffer();
  const bad = parseChangesInto(raw, buf);
  if (bad !== undefined) return bad;
  const out: ParsedEntry[] = [];
  for (let i = 0; i < buf.length; i++) {
    out.push({
      side: buf.bid[i] === 1 ? "bid" : "ask",
      price: buf.prices[i] as number,
      size: buf.sizes[i] as bigint,
    });
  }
  return out;
}

/** True when a parse result is a rejection. */
export function isEntryRejection(v: unknown): v is EntryRejection {
  return typeof v === "object" && v !== null && !Array.isArray(v) && "code" in v && "list" in v;
}

/** 1 for a bid side spelling, 0 for an ask side spelling, −1 otherwise. */
function sideOf(side: unknown): number {
  switch (side) {
    case "buy":
    case "BUY":
    case "bid":
    case "BID":
      return 1;
    case "sell":
    case "SELL":
    case "ask":
    case "ASK":
      return 0;
    default:
      return -1;
  }
}
