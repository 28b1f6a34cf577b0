/**
 * Health of one tracked book:
 * - `synced`: the book follows the exchange's sequence contiguously;
 * - `resyncing`: the book is known or suspected to diverge (no snapshot yet, a gap, a malformed
 *   frame, a crossed book under the "resync" policy); deltas are ignored until a snapshot;
 * - `stale`: the book is contiguous but not known to be fresh (the connection or the book itself
 *   went silent beyond its limit); deltas still apply, and one brings it back to `synced`.
 */
export type BookStatus = "synced" | "resyncing" | "stale";

/** Why a book entered its current state. */
export type BookStateReason =
  | "awaiting_snapshot"
  | "resubscribed"
  | "snapshot"
  | "update_received"
  | "gap"
  | "malformed"
  | "crossed"
  | "uncrossed"
  | "book_silent"
  | "connection_silent"
  | "connection_alive";

/** A book's state as readers see it. */
export interface BookState {
  readonly tokenId: string;
  readonly status: BookStatus;
  readonly reason: BookStateReason;
  /** Best bid ≥ best ask right now. */
  readonly crossed: boolean;
  /** Safe to quote from: synced and not crossed. The engine treats anything else as stale. */
  readonly quotable: boolean;
  /** Clock time of the last state change. */
  readonly since: number;
  /** Seq of the last applied frame; undefined before the first snapshot. */
  readonly lastSeq: number | undefined;
  /** Clock time of the last applied frame. */
  readonly lastUpdateTs: number | undefined;
}

/** Emitted whenever a book's status or quotability changes. */
export interface BookStateEvent extends BookState {
  /** Status before the change; undefined when the book was just added. */
  readonly previous: BookStatus | undefined;
}

/** Monotonic counters for metrics, over all books of a tracker. */
export interface BookCounters {
  /** Snapshots applied. */
  snapshots: number;
  /** book_update frames applied. */
  updates: number;
  /** book_delta frames applied. */
  deltas: number;
  /** Frames whose prevSeq was not the last seq. */
  gaps: number;
  /** Snapshot requests sent through the port. */
  resyncs: number;
  /** book_snapshot_failed frames received. */
  snapshotFailures: number;
  /** Requested or expected snapshots that did not arrive in time. */
  snapshotTimeouts: number;
  /** Frames lacking seq (or prevSeq), dropped per the spec. */
  droppedMissingSeq: number;
  /** Frames whose seq was not newer than the book's, and snapshots behind a seq their stream showed, dropped. */
  droppedStale: number;
  /** Updates and deltas ignored while the book was resyncing. */
  droppedWhileResyncing: number;
  /** Times a book became crossed. */
  crossed: number;
  /** Frames with a malformed entry, a seq that is not an integer, or refused at the boundary (frameLost). */
  malformed: number;
  /** Books judged silent against their own update rate. */
  stalls: number;
  /** Times the port's requestSnapshot threw (each counts as a failed attempt). */
  portErrors: number;
}

/** All counters at zero. */
export function zeroCounters(): BookCounters {
  return {
    snapshots: 0,
    updates: 0,
    deltas: 0,
    gaps: 0,
    resyncs: 0,
    snapshotFailures: 0,
    snapshotTimeouts: 0,
    droppedMissingSeq: 0,
    droppedStale: 0,
    droppedWhileResyncing: 0,
    crossed: 0,
    malformed: 0,
    stalls: 0,
    portErrors: 0,
  };
}
