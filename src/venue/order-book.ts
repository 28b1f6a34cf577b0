import type { Side } from "../core/types.js";
import { type BookEntry, BookSide } from "./book-side.js";
import type { VenueOrder } from "./order.js";

/** An aggregated price level: `size` is the level's total resting quantity (micro-units). */
export interface BookLevel {
  readonly price: bigint;
  readonly size: bigint;
}

/** One changed level: `size` is the new level total; 0n means the level is gone. */
export interface LevelChange {
  readonly side: Side;
  readonly price: bigint;
  readonly size: bigint;
}

/** The net level changes of one operation, numbered for book_delta frames. */
export interface BookDiff {
  readonly seq: number;
  readonly prevSeq: number;
  readonly changes: readonly LevelChange[];
}

/**
 * The limit order book of ONE outcome token, with price-time priority.
 *
 * YES and NO are separate books. A binary market's YES and NO tokens each have their own bids and
 * asks, and an order only ever matches orders on the same token; there is no complementary
 * matching (a YES bid at p is not crossed with a NO bid at 1 − p by minting a pair, nor a YES ask
 * with a NO ask by merging one). The spec's public book is per token (the `token_book` channel,
 * the orderbook endpoint), complementary minting and merging are on-chain settlement mechanics the
 * spec does not describe, and the bot quotes each token on its own; separate books keep every
 * trade the bot sees explicable from the one book it subscribed to. The economic link between the
 * two books (YES ≈ 1 − NO) is left to traders, as the mock's flow simulator does by pricing both
 * from one fair value.
 *
 * The book tracks which levels each operation touched; `commit()` turns them into one numbered
 * diff (only levels whose total actually changed), so replaying diffs onto a snapshot at `seq`
 * reproduces the book exactly.
 */
export class OrderBook {
  readonly tokenId: string;
  readonly bids: BookSide;
  readonly asks: BookSide;
  #seq = 0;
  // Size of each touched level before the current operation, in touching order, and per side by
  // price (bigint keys: no string is built per touch).
  readonly #touched: { side: Side; price: bigint; before: bigint }[] = [];
  readonly #touchedBids = new Set<bigint>();
  readonly #touchedAsks = new Set<bigint>();

  readonly #diffs: boolean;

  /** `diffs` false: no level is tracked and commit() never has a diff (nobody reads them). */
  constructor(tokenId: string, diffs = true) {
    this.tokenId = tokenId;
    this.#diffs = diffs;
    this.bids = new BookSide("buy", (price, before) => this.#touch("buy", price, before));
    this.asks = new BookSide("sell", (price, before) => this.#touch("sell", price, before));
  }

  /** Sequence number of the last committed diff (0 before any). */
  get seq(): number {
    return this.#seq;
  }

  /** The side an order of `side` rests on. */
  sideOf(side: Side): BookSide {
    return side === "buy" ? this.bids : this.asks;
  }

  /** The side an order of `side` matches against. */
  oppositeOf(side: Side): BookSide {
    return side === "buy" ? this.asks : this.bids;
  }

  /** Rests an order's remainder. */
  add(order: VenueOrder, size: bigint): BookEntry {
    return this.sideOf(order.side).append(order, size);
  }

  /** Aggregated levels, best first: bids descending, asks ascending. */
  snapshot(depth: number): { bids: BookLevel[]; asks: BookLevel[]; seq: number } {
    const agg = (s: BookSide): BookLevel[] => s.levels(depth).map((l) => ({ price: l.price, size: l.size }));
    return { bids: agg(this.bids), asks: agg(this.asks), seq: this.#seq };
  }

  /** True when the best bid is at or above the best ask (never true between operations). */
  crossed(): boolean {
    const b = this.bids.best();
    const a = this.asks.best();
    return b !== undefined && a !== undefined && b.price >= a.price;
  }

  /**
   * Ends an operation: the net level changes since the last commit, under the next seq, or
   * undefined when no level total changed (seq then stays put).
   */
  commit(): BookDiff | undefined {
    if (this.#touched.length === 0) return undefined;
    const changes: LevelChange[] = [];
    for (const t of this.#touched) {
      const size = this.sideOf(t.side).level(t.price)?.size ?? 0n;
      if (size !== t.before) changes.push({ side: t.side, price: t.price, size });
    }
    this.#touched.length = 0;
    this.#touchedBids.clear();
    this.#touchedAsks.clear();
    if (changes.length === 0) return undefined;
    changes.sort(byBookOrder);
    const prevSeq = this.#seq;
    this.#seq += 1;
    return { seq: this.#seq, prevSeq, changes };
  }

  #touch(side: Side, price: bigint, before: bigint): void {
    if (!this.#diffs) return;
    const seen = side === "buy" ? this.#touchedBids : this.#touchedAsks;
    if (seen.has(price)) return;
    seen.add(price);
    this.#touched.push({ side, price, before });
  }
}

// Bids best-first, then asks best-first: the order a reader scans a book in.
function byBookOrder(a: LevelChange, b: LevelChange): number {
  if (a.side !== b.side) return a.side === "buy" ? -1 : 1;
  if (a.price === b.price) return 0;
  return (a.side === "buy" ? a.price > b.price : a.price < b.price) ? -1 : 1;
}
