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
