import { type EntryRejection, parseBookInto, parseChangesInto } from "../../book/entries.js";
import type { BookEvent } from "../../book/events.js";
import { LevelBuffer } from "../../book/level-buffer.js";
import { OrderBook } from "../../book/order-book.js";
import type { BookSide } from "../../book/price-levels.js";

/** One level of the market's book changing size, as the exchange applies it. */
export interface LevelChange {
  readonly tokenId: string;
  readonly side: BookSide;
  /** Micro-units. */
  readonly price: number;
  readonly before: bigint;
  readonly after: bigint;
  /** The level was its side's best just before this change (trades happen at the touch). */
  readonly wasTouch: boolean;
  /**
   * The change comes from a book_snapshot: the book restated after a (re)subscribe or a gap (the
   * spec sends one only then), not an event seen as it happened. What it removes left at some
   * unknown time in between — traded or cancelled — so it is never taken for a trade at the touch.
   */
  readonly restated: boolean;
}

/**
 * The market's book per token at the simulated exchange: every valid recorded book frame applied
 * at its receive time, whatever the bot's tracker (which sees it a feed latency later) makes of it.
 * A frame becomes level changes in one fixed order — every decrease, best price first, then every
 * increase, best first — so that liquidity leaves before new liquidity arrives (a consistent
 * recording never crosses on the way) and a sweep through several levels is seen touch by touch.
 */
export class ExchangeBooks {
  readonly #books = new Map<string, OrderBook>();
  readonly #seq = new Map<string, number>();
  readonly #whole = new Set<string>();
  readonly #buf = new LevelBuffer();
  /** Frames whose entries were malformed (not applied). */
  malformed = 0;

  /** The book of a token (created empty on first use). */
  book(tokenId: string): OrderBook {
    let b = this.#books.get(tokenId);
    if (b === undefined) {
      b = new OrderBook(tokenId);
      this.#books.set(tokenId, b);
    }
    return b;
  }

  /**
   * Whether a token's book has been given whole (a recorded snapshot or full update). Until then it
   * holds only the levels deltas touched — a recording that starts mid-stream — which is not the
   * market's book, so no snapshot may be served from it.
   */
  whole(tokenId: string): boolean {
    return this.#whole.has(tokenId);
  }

  /** Seq of the last frame applied to a token's book. */
  lastSeq(tokenId: string): number | undefined {
    return this.#seq.get(tokenId);
  }

  /**
   * Applies a book event, reporting each level change in order; false when it was malformed. The
   * entries are parsed into `buf` (by default one of its own), where they stay until the next
   * frame parsed into it: a caller may hand them on (SimSession gives them to the BookTracker).
   */
  apply(e: BookEvent, onChange: (c: LevelChange) => void, buf: LevelBuffer = this.#buf): boolean {
    if (e.type === "book_snapshot_failed") return true;
    const bad: EntryRejection | undefined =
      e.type === "book_delta" ? parseChangesInto(e.changes, buf) : parseBookInto(e.bids, e.asks, buf);
    if (bad !== undefined) {
      this.malformed++;
      return false;
    }
    const book = this.book(e.tokenId);
    const changes =
      e.type === "book_delta" && buf.length <= SMALL_FRAME
        ? this.#deltaChanges(e.tokenId, book, buf)
        : this.#replaceChanges(e.tokenId, book, buf, e.type !== "book_delta");
    const restated = e.type === "book_snapshot";
    for (const c of changes) {
      c.wasTouch = book.side(c.side).bestPrice() === c.price;
      c.restated = restated;
      book.apply(c.side, c.price, c.after);
      onChange(c);
    }
    if (e.seq !== undefined) this.#seq.set(e.tokenId, e.seq);
    if (e.type !== "book_delta") this.#whole.add(e.tokenId);
    return true;
  }

  // The changes of a delta frame (parsed in `buf`), decreases then increases, each best first (the general path's
  // result, without its map of string keys: a delta frame changes a handful of levels). A level
  // listed twice takes its last size.
  #deltaChanges(tokenId: string, book: OrderBook, buf: LevelBuffer): Change[] {
    const down: Change[] = [];
    const up: Change[] = [];
    for (let i = 0; i < buf.length; i++) {
      const bid = buf.bid[i];
      const price = buf.prices[i] as number;
      let later = false;
      for (let j = i + 1; j < buf.length && !later; j++)
        later = buf.prices[j] === price && buf.bid[j] === bid;
      if (later) continue;
      const side: BookSide = bid === 1 ? "bid" : "ask";
      const after = buf.sizes[i] as bigint;
      const before = book.depthAt(side, price);
      if (before === after) continue;
      const c: Change = { tokenId, side, price, before, after, wasTouch: false, restated: false };
      (after < before ? down : up).push(c);
    }
    if (down.length > 1) down.sort(bestFirst);
    if (up.length > 1) up.sort(bestFirst);
    for (const c of up) down.push(c);
    return down;
  }

  // Any frame: a snapshot or full update sets every level it does not list to 0.
  #replaceChanges(tokenId: string, book: OrderBook, buf: LevelBuffer, replace: boolean): Change[] {
    const target = new Map<string, { side: BookSide; price: number; after: bigint }>();
    if (replace) {
      for (const side of ["bid", "ask"] as const) {
        for (const l of book.side(side).top(book.side(side).length)) {
          target.set(`${side}${l.price}`, { side, price: l.price, after: 0n });
        }
      }
    }
    for (let i = 0; i < buf.length; i++) {
      const side: BookSide = buf.bid[i] === 1 ? "bid" : "ask";
      const price = buf.prices[i] as number;
      target.set(`${side}${price}`, { side, price, after: buf.sizes[i] as bigint });
    }
    const down: Change[] = [];
    const up: Change[] = [];
    for (const t of target.values()) {
      const before = book.depthAt(t.side, t.price);
      if (before === t.after) continue;
      const c = {
        tokenId,
        side: t.side,
        price: t.price,
        before,
        after: t.after,
        wasTouch: false,
        restated: false,
      };
      (t.after < before ? down : up).push(c);
    }
    down.sort(bestFirst);
    up.sort(bestFirst);
    return [...down, ...up];
  }
}

/**
 * Whether a decrease may be a trade at the touch (where the queue model infers trades): at its
 * side's best, and not one a snapshot restates (`restated`: a book wiped by the next import's empty
 * first snapshot, or moved across a gap, is no sweep through the bot's quotes on both sides).
 * @example atTouchTrade({ ...change, wasTouch: true, restated: false }) // true
 */
export function atTouchTrade(c: LevelChange): boolean {
  return c.wasTouch && !c.restated;
}

/** A LevelChange as built here: `wasTouch` and `restated` are set as the frame is applied, change by change. */
interface Change extends Omit<LevelChange, "wasTouch" | "restated"> {
  wasTouch: boolean;
  restated: boolean;
}

/** Delta frames up to this many entries take the allocation-light path. */
const SMALL_FRAME = 64;

// Bids then asks, each best price first.
function bestFirst(a: LevelChange, b: LevelChange): number {
  if (a.side !== b.side) return a.side === "bid" ? -1 : 1;
  return a.side === "bid" ? b.price - a.price : a.price - b.price;
}
