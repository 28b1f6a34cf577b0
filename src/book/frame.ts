import type { BookEvent } from "./events.js";

/** Why a token_book frame was refused at the boundary. */
export type BookFrameRejectionCode =
  | "not_object"
  | "not_book_event"
  | "bad_channel"
  | "bad_token"
  | "bad_data"
  | "bad_seq"
  | "bad_ts";

/** A refused frame. Returned, never thrown: the caller counts it and drops the frame. */
export interface BookFrameRejection {
  readonly rejected: BookFrameRejectionCode;
  readonly type?: string;
}

const DIGITS = /^\d+$/;

/**
 * Validates a parsed /ws/market frame of the token_book channel into a BookEvent. The envelope
 * (`type`, `channel`, `id`, `data`) and the typed fields (`tokenId`, `seq`, `prevSeq`, `tsMs`,
 * `conditionId`, `outcomeIndex`, `reason`) are checked here; the entry lists are checked by the
 * tracker (entries.ts). A missing `seq`/`prevSeq` passes, because the spec's rule for those frames
 * ("dropped") is the tracker's to count; a present but non-integer one is refused here.
 * @example
 * const e = parseBookFrame(JSON.parse(text));
 * if ("rejected" in e) counters.malformed++; else tracker.onEvent(e);
 */
export function parseBookFrame(frame: unknown): BookEvent | BookFrameRejection {
  if (typeof frame !== "object" || frame === null) return { rejected: "not_object" };
  const f = frame as { type?: unknown; channel?: unknown; id?: unknown; data?: unknown };
  const type = f.type;
  if (
    type !== "book_delta" &&
    type !== "book_snapshot" &&
    type !== "book_update" &&
    type !== "book_snapshot_failed"
  ) {
    return { rejected: "not_book_event" };
  }
  if (f.channel !== "token_book") return { rejected: "bad_channel", type };
  const data = f.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { rejected: "bad_data", type };
  const d = data as Record<string, unknown>;
  const tokenId = d.tokenId ?? f.id;
  if (!isTokenId(tokenId) || (f.id !== undefined && f.id !== tokenId)) {
    return { rejected: "bad_token", type };
  }
  const tsMs = d.tsMs;
  if (tsMs !== undefined && (typeof tsMs !== "number" || !Number.isFinite(tsMs)))
    return { rejected: "bad_ts", type };
  const conditionId = typeof d.conditionId === "string" ? d.conditionId : undefined;
  const outcomeIndex = typeof d.outcomeIndex === "number" ? d.outcomeIndex : undefined;
  if (type === "book_snapshot_failed") {
    const reason = typeof d.reason === "string" ? d.reason : "unspecified";
    return { type, tokenId, tsMs, conditionId, outcomeIndex, reason };
  }
  const seq = seqOf(d.seq);
  const prevSeq = seqOf(d.prevSeq);
  if (seq === null || prevSeq === null) return { rejected: "bad_seq", type };
  if (type === "book_delta") {
    return { type, tokenId, tsMs, conditionId, outcomeIndex, seq, prevSeq, changes: d.changes };
  }
  if (type === "book_update") {
    return { type, tokenId, tsMs, conditionId, outcomeIndex, seq, prevSeq, bids: d.bids, asks: d.asks };
  }
  return { type, tokenId, tsMs, conditionId, outcomeIndex, seq, bids: d.bids, asks: d.asks };
}

/** True when `v` is a frame rejection rather than an event. */
export function isFrameRejection(v: BookEvent | BookFrameRejection): v is BookFrameRejection {
  return "rejected" in v;
}

/** A seq, undefined when absent (JSON null counts as absent: the tracker drops such frames), null when invalid. */
function seqOf(v: unknown): number | undefined | null {
  if (v === undefined || v === null) return undefined;
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

function isTokenId(v: unknown): v is string {
  return typeof v === "string" && v.length > 0 && v.length <= 80 && DIGITS.test(v);
}
