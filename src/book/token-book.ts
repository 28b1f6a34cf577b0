import type { BookState, BookStateReason, BookStatus } from "./book-state.js";
import type { LevelBuffer } from "./level-buffer.js";
import { OrderBook } from "./order-book.js";
import type { SnapshotRetry } from "./snapshot-retry.js";
import { ArrivalRate } from "./stall.js";

/** The tracker's mutable record of one book. Internal to src/book. */
export class TokenBook {
  readonly tokenId: string;
  readonly book: OrderBook;
  readonly rate: ArrivalRate;
  readonly retry: SnapshotRetry;
  status: BookStatus = "resyncing";
  reason: BookStateReason = "awaiting_snapshot";
  crossed = false;
  since: number;
  lastSeq: number | undefined;
  lastUpdateTs: number | undefined;
  /**
   * Highest seq the current subscription's stream has shown (applied or not): a snapshot below it
   * is older than changes already seen go by. Cleared when a subscribe is (re)sent: a new stream.
   */
  seen: number | undefined;
  /** A snapshot has been asked for (or is due after subscribe) and not yet received. */
  awaiting = true;
  /**
   * The snapshot a subscribe brings (exactly one, per the spec) came already, as a failure
   * (book_snapshot_failed, or a snapshot frame refused): none is left to wait for once the
   * subscription is accepted. Cleared when a subscribe is (re)sent.
   */
  spent = false;
  /** The outstanding request was a stall probe: an unchanged answer means the market is quiet. */
  probe = false;
  /** Quotability as last announced to listeners. */
  emittedQuotable = false;

  constructor(tokenId: string, alpha: number, now: number, makeRetry: (t: TokenBook) => SnapshotRetry) {
    this.tokenId = tokenId;
    this.book = new OrderBook(tokenId);
    this.rate = new ArrivalRate(alpha);
    this.since = now;
    this.retry = makeRetry(this);
  }

  /** Notes a valid seq of the stream (any frame, applied or not). */
  saw(seq: number): void {
    if (this.seen === undefined || seq > this.seen) this.seen = seq;
  }

  /** A subscribe is (re)sent: the snapshot it brings is to come, on a new stream. */
  resubscribing(): void {
    this.spent = false;
    this.seen = undefined;
  }

  /**
   * What a snapshot at `seq` is to this book: `old` when it is synced or stale and the snapshot is
   * not newer than its seq (an answer it asked for may be at it: nothing happened since); `behind`
   * when below a frame of this stream already seen (a slow, held-back or repeated answer: the
   * exchange's book moved on since); else `take` (resyncing: any other snapshot is the cure).
   */
  snapshotAt(seq: number): "take" | "old" | "behind" {
    const last = this.lastSeq;
    const synced = this.status !== "resyncing" && last !== undefined;
    if (synced && (this.awaiting ? seq < last : seq <= last)) return "old";
    return this.seen !== undefined && seq < this.seen ? "behind" : "take";
  }

  /** Quotable: synced and not crossed. */
  get quotable(): boolean {
    return this.status === "synced" && !this.crossed;
  }

  /** An immutable view of the state. */
  view(): BookState {
    return {
      tokenId: this.tokenId,
      status: this.status,
      reason: this.reason,
      crossed: this.crossed,
      quotable: this.quotable,
      since: this.since,
      lastSeq: this.lastSeq,
      lastUpdateTs: this.lastUpdateTs,
    };
  }
}

/** A valid sequence number: a non-negative safe integer. */
export function isSeq(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

/** True when `buf` (a parsed snapshot) holds exactly the levels of `book`. */
export function sameBook(book: OrderBook, buf: LevelBuffer): boolean {
  const fresh = new OrderBook(book.tokenId);
  fresh.replace(buf);
  return fresh.equals(book);
}
