import type { ConfiguredStrategy } from "../../strategies/registry.js";
import {
  initVolatility,
  updateVolatility,
  type VolatilityConfig,
  type VolatilityState,
} from "../../strategies/volatility.js";
import type { BookState } from "../book/book-state.js";
import { type BookView, OrderBook } from "../book/order-book.js";
import type { LevelsView } from "../book/price-levels.js";
import type { TokenMarket } from "../core/trading.js";
import type { Order } from "../exchange/types.js";
import { type HeldSides, NOTHING_HELD } from "./engine-in-flight.js";
import { QuoteMemo, WatchedBook } from "./quote-memo.js";

/** What the engine knows about one token between events. Mutated only by the engine. */
export interface TokenSlot {
  /** The token's market; `status` follows onMarketStatus. */
  market: TokenMarket;
  readonly strategy: ConfiguredStrategy | undefined;
  book: BookView | undefined;
  /** Last tracker state; undefined until the first onBookState (not quotable until then). */
  bookState: BookState | undefined;
  /** Whether the book has been synced (had a snapshot) at least once: its start-up wait is over. */
  everSynced: boolean;
  /**
   * Fills of the token seen so far: a run of refused placements' back-off on the requote timer
   * starts over after one (requote-timer.ts), as it may be what cures them (a sale frees funds).
   */
  fillsSeen: number;
  vol: VolatilityState;
  /** Whether the last quoting step wanted any quote (EngineStatus.quotingTokens). */
  quoting: boolean;
  /**
   * Sides on which the last quoting step held a placement back for the orders still live there
   * (engine-in-flight.ts): an answer that ends one of them requotes the token.
   */
  awaiting: Readonly<HeldSides>;
  /** The last quoting step that sent nothing, and what it depended on. */
  readonly memo: QuoteMemo;
  /** The book as the strategy reads it (noting what it reads). */
  readonly watched: WatchedBook;
  /** The net book last built (engine-quote.ts marketBook), and what it was built from. */
  net: NetBook | undefined;
}

/** A net book (the exchange's book without our orders) and what it was built from. */
export interface NetBook {
  readonly book: BookView;
  readonly bids: LevelsView;
  readonly asks: LevelsView;
  /** The store's version of the token's orders when built. */
  readonly version: number;
  readonly view: BookView;
}

/**
 * Every token of the engine by id, with the lookups the reconciler needs (an exchange order's token
 * from its market and outcome label) and the market → tokens index for market-wide events.
 */
export class TokenTable {
  readonly #slots = new Map<string, TokenSlot>();
  readonly #byOutcome = new Map<string, string>();
  readonly #byMarket = new Map<string, string[]>();

  constructor(
    markets: readonly TokenMarket[],
    strategyFor: (m: TokenMarket) => ConfiguredStrategy | undefined,
    vol: VolatilityConfig,
  ) {
    for (const m of markets) {
      if (this.#slots.has(m.tokenId)) continue;
      const strategy = strategyFor(m);
      this.#slots.set(m.tokenId, {
        market: m,
        strategy,
        book: undefined,
        bookState: undefined,
        everSynced: false,
        fillsSeen: 0,
        vol: initVolatility(vol),
        quoting: false,
        awaiting: NOTHING_HELD,
        memo: new QuoteMemo(),
        watched: new WatchedBook(new OrderBook(m.tokenId)),
        net: undefined,
      });
      this.#byOutcome.set(outcomeKey(m.marketId, m.outcome), m.tokenId);
      this.#byOutcome.set(outcomeKey(m.marketId, String(m.outcomeIndex)), m.tokenId);
      const list = this.#byMarket.get(m.marketId) ?? [];
      list.push(m.tokenId);
      this.#byMarket.set(m.marketId, list);
    }
  }

  get(tokenId: string): TokenSlot | undefined {
    return this.#slots.get(tokenId);
  }

  /** Token ids in registration order. */
  ids(): IterableIterator<string> {
    return this.#slots.keys();
  }

  /** Every slot in registration order. */
  slots(): IterableIterator<TokenSlot> {
    return this.#slots.values();
  }

  get size(): number {
    return this.#slots.size;
  }

  /** The tokens of one market (empty for a market the engine does not trade). */
  tokensOf(marketId: string): readonly string[] {
    return this.#byMarket.get(marketId) ?? [];
  }

  /**
   * A traded market's slug, as held now (its record is read by it; log lines); undefined for one the
   * engine does not trade.
   */
  slugOf(marketId: string): string | undefined {
    const first = this.#byMarket.get(marketId)?.[0];
    return first === undefined ? undefined : this.#slots.get(first)?.market.slug;
  }

  /** Market ids in registration order. */
  marketIds(): IterableIterator<string> {
    return this.#byMarket.keys();
  }

  /**
   * The token of an exchange order (its market and outcome label, case-insensitive); undefined for
   * a market the engine does not trade.
   */
  tokenOf(order: Pick<Order, "marketId" | "outcome">): string | undefined {
    return this.#byOutcome.get(outcomeKey(order.marketId, order.outcome));
  }

  /** Records a market status for every token of the market. */
  setMarketStatus(marketId: string, status: string): void {
    this.#setOnMarket(marketId, "status", status);
  }

  /**
   * Records a market's slug for every token of the market: every later read of its record (the
   * status watches, a refusal's or a drift's read, the fee recheck) is by it. The previous slug
   * when it changed, else undefined (the same slug, or a market the engine does not trade).
   */
  setMarketSlug(marketId: string, slug: string): { previous: string | undefined } | undefined {
    const previous = this.slugOf(marketId);
    return this.#setOnMarket(marketId, "slug", slug) ? { previous } : undefined;
  }

  /**
   * Records a market's feeTakerBps for every token of the market (the fee its orders are signed
   * with: engine-wiring.ts passes each placement its token's market). True when it changed.
   */
  setMarketFee(marketId: string, feeTakerBps: number | null): boolean {
    return this.#setOnMarket(marketId, "feeTakerBps", feeTakerBps);
  }

  /**
   * Sets `field` of the market every token of `marketId` carries (a new TokenMarket: its fields are
   * readonly). True when any token's changed.
   */
  #setOnMarket<K extends "status" | "slug" | "feeTakerBps">(
    marketId: string,
    field: K,
    value: Exclude<TokenMarket[K], undefined>,
  ): boolean {
    let changed = false;
    for (const t of this.tokensOf(marketId)) {
      const s = this.#slots.get(t);
      if (s === undefined || s.market[field] === value) continue;
      s.market = { ...s.market, [field]: value };
      changed = true;
    }
    return changed;
  }

  /**
   * Keeps a token's new book and folds the mid of `market` (the book without our orders: see
   * marketBook) into its σ estimator. Only a two-sided uncrossed book has a mid σ can follow: a
   * one-sided one bounds the PnL mark (engine-kill-switch.ts markFromBook) but is no price move.
   */
  observeBook(slot: TokenSlot, book: BookView, market: BookView, now: number): void {
    slot.book = book;
    const bid = market.bids.bestPrice();
    const ask = market.asks.bestPrice();
    if (bid === undefined || ask === undefined || bid >= ask) return;
    slot.vol = updateVolatility(slot.vol, (bid + ask) / 2, now);
  }
}

function outcomeKey(marketId: string, outcome: string): string {
  return `${marketId}\u0000${outcome.toUpperCase()}`;
}
