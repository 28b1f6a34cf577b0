/**
 * token_book events as the BookTracker consumes them: the envelope validated (type, token), numbers
 * typed, the entry lists still as received. Entries are parsed by the tracker through entries.ts,
 * so that a malformed entry is counted where the book's health is tracked (a backtest hands the
 * tracker the entries its exchange already parsed from the frame: BookTrackerOptions.parsed).
 * `seq`/`prevSeq` are optional because the spec's rule for a frame lacking them ("dropped")
 * belongs to the tracker.
 */

// Optional fields admit an explicit undefined so the boundary parser can build every event with
// one fixed shape (monomorphic for the JIT; object spread of varying shapes costs ~2 µs a frame).
interface BookEventBase {
  readonly tokenId: string;
  /** Exchange timestamp of the event (data.tsMs), when present. */
  readonly tsMs?: number | undefined;
  readonly conditionId?: string | undefined;
  readonly outcomeIndex?: number | undefined;
}

/** The full book; exactly one follows a subscribe, more follow get_book_snapshot. */
export interface BookSnapshotEvent extends BookEventBase {
  readonly type: "book_snapshot";
  readonly seq?: number | undefined;
  readonly bids: unknown;
  readonly asks: unknown;
}

/** A full replacement of the book, sequenced like a delta. */
export interface BookUpdateEvent extends BookEventBase {
  readonly type: "book_update";
  readonly seq?: number | undefined;
  readonly prevSeq?: number | undefined;
  readonly bids: unknown;
  readonly asks: unknown;
}

/** Level changes: each entry's size is the level's new total. */
export interface BookDeltaEvent extends BookEventBase {
  readonly type: "book_delta";
  readonly seq?: number | undefined;
  readonly prevSeq?: number | undefined;
  readonly changes: unknown;
}

/** The exchange could not produce a requested snapshot. */
export interface BookSnapshotFailedEvent extends BookEventBase {
  readonly type: "book_snapshot_failed";
  readonly reason: string;
}

/** Every event of the token_book channel. */
export type BookEvent = BookSnapshotEvent | BookUpdateEvent | BookDeltaEvent | BookSnapshotFailedEvent;

/** The event type names of the token_book channel. */
export const BOOK_EVENT_TYPES = [
  "book_snapshot",
  "book_update",
  "book_delta",
  "book_snapshot_failed",
] as const;
