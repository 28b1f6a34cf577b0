import { describe, expect, it } from "vitest";
import { OrderBook } from "../../../src/book/order-book.js";
import type { Side } from "../../../src/core/types.js";
import type { EngineCore } from "../../../src/engine/engine-core.js";
import { marketBook } from "../../../src/engine/engine-quote.js";
import type { TokenSlot } from "../../../src/engine/engine-tokens.js";
import type { TrackedOrder } from "../../../src/execution/order-state.js";
import { OrderStore } from "../../../src/execution/order-store.js";

/*
 * A book update needs the net book (the exchange's book without our orders) twice: onBook (σ and
 * the PnL mark) and the quoting step a microtask later. It is built once while our orders stay as
 * they were, and afresh when they changed in between (the strategy never prices from a stale one).
 */

/** A real store that counts how often the token's live orders are read (one read per net book built). */
class CountingStore extends OrderStore {
  reads = 0;
  override live(tokenId: string): TrackedOrder[] {
    this.reads++;
    return super.live(tokenId);
  }
}

const TOKEN = "11";

/** The token's slot as marketBook uses it: the token id and the net book it keeps. */
const slotOf = (): TokenSlot => ({ market: { tokenId: TOKEN }, net: undefined }) as unknown as TokenSlot;

function setup(feedShowsOwnOrders = true): {
  core: EngineCore;
  store: CountingStore;
  book: OrderBook;
  slot: TokenSlot;
} {
  const store = new CountingStore();
  // marketBook reads only the options and the store of the core.
  const core = { options: { feedShowsOwnOrders }, store } as unknown as EngineCore;
  const book = new OrderBook(TOKEN);
  book.apply("bid", 480_000, 50_000_000n);
  book.apply("ask", 520_000, 50_000_000n);
  book.apply("bid", 490_000, 10_000_000n); // ours (below)
  return { core, store, book, slot: slotOf() };
}

let seq = 0;
function rest(store: OrderStore, side: Side, priceMicro: number): void {
  const clientOrderId = `c${++seq}`;
  store.track(
    { clientOrderId, tokenId: TOKEN, marketId: "1", side, level: 0, priceMicro, sizeMicro: 10_000_000n },
    0,
  );
}

describe("engine: the net book is built once per change of our orders", () => {
  it("hands the quoting step the net book onBook built while our orders are unchanged", () => {
    const { core, store, book, slot } = setup();
    rest(store, "buy", 490_000);
    const onBook = marketBook(core, slot, book);
    const step = marketBook(core, slot, book);
    expect(step).toBe(onBook);
    expect(store.reads).toBe(1);
    expect(step.bids.bestPrice()).toBe(480_000); // our 0.49 bid is out of it
  });

  it("builds afresh when our orders changed between onBook and the step", () => {
    const { core, store, book, slot } = setup();
    rest(store, "buy", 490_000);
    const onBook = marketBook(core, slot, book);
    book.apply("ask", 510_000, 10_000_000n);
    rest(store, "sell", 510_000); // a placement of ours, shown by the feed before its answer
    const step = marketBook(core, slot, book);
    expect(step).not.toBe(onBook);
    expect(store.reads).toBe(2);
    expect(step.asks.bestPrice()).toBe(520_000);
    expect(onBook.asks.bestPrice()).toBe(510_000); // what reusing it would have shown the strategy
  });

  it("answers for the book as it is now when only the book changed", () => {
    const { core, store, book, slot } = setup();
    rest(store, "buy", 490_000);
    const first = marketBook(core, slot, book);
    book.apply("bid", 485_000, 5_000_000n);
    const again = marketBook(core, slot, book);
    expect(again).toBe(first);
    expect(store.reads).toBe(1);
    expect(again.bids.bestPrice()).toBe(485_000);
    expect(again.bids.bestSize()).toBe(5_000_000n);
  });

  it("never hands one engine's net book to another reading the same book", () => {
    const { core, store, book, slot } = setup();
    rest(store, "buy", 490_000);
    const other = new CountingStore();
    rest(other, "buy", 480_000); // the same version (1) as `store`, other orders
    const otherCore = { options: { feedShowsOwnOrders: true }, store: other } as unknown as EngineCore;
    expect(marketBook(core, slot, book).bids.bestPrice()).toBe(480_000);
    expect(marketBook(otherCore, slotOf(), book).bids.bestPrice()).toBe(490_000);
    expect(marketBook(core, slot, book).bids.bestPrice()).toBe(480_000);
  });

  it("is the book itself when the feed does not show our orders", () => {
    const { core, store, book, slot } = setup(false);
    rest(store, "buy", 490_000);
    expect(marketBook(core, slot, book)).toBe(book);
    expect(store.reads).toBe(0);
  });
});
