import type { Clock } from "../core/clock.js";
import { MmError } from "../core/errors.js";
import type { Address, MarketStatus } from "../core/types.js";
import { type AmendResult, amendOrder } from "./amend.js";
import { cancelAllOrders, cancelMarketOrders, cancelOrder, expireDue } from "./cancel.js";
import { EventBus, type VenueEvent, type VenueListener } from "./events.js";
import { ExpirySchedule } from "./expiry.js";
import type { VenueIds } from "./ids.js";
import { Ledger, USDC } from "./ledger.js";
import { MarketRegistry } from "./markets.js";
import type { SelfTradePolicy } from "./matching.js";
import { viewOf } from "./order.js";
import { type BookLevel, OrderBook } from "./order-book.js";
import { type HistoryQuery, OrderStore } from "./order-store.js";
import { placeOrder } from "./place.js";
import { feeBalancesOf, positionsOf } from "./portfolio.js";
import { type VenueState, walletKey } from "./state.js";
import { type TradeQuery, TradeStore } from "./trade-store.js";
import type {
  Balance,
  CancelResult,
  MarketSpec,
  MarketView,
  OrderView,
  Page,
  PlacementResult,
  PlaceOrderInput,
  Position,
  TradeRecord,
  WalletTradeRow,
} from "./types.js";

/** How to build a venue. Time and ids are injected so a run replays exactly. */
export interface SimVenueOptions {
  readonly clock: Clock;
  readonly ids: VenueIds;
  /** feeTakerBps for markets registered with `feeTakerBps: null`; default 0. */
  readonly defaultFeeTakerBps?: number;
  /** Maker fee parameter (same formula as the taker fee, paid in the asset the maker receives); default 0. */
  readonly makerFeeBps?: number;
  /** Default `cancel_resting`. */
  readonly selfTrade?: SelfTradePolicy;
  /** The custody vault of a wallet (the mock derives it like the factory does); default: the wallet itself. */
  readonly vaultOf?: (wallet: Address) => Address;
  /**
   * Wallets whose orders are forgotten once closed and whose trades get no rows (see OrderStore):
   * the backtest's synthetic market accounts, which place without end. Default none.
   */
  readonly transientWallets?: readonly Address[];
  /**
   * Forget closed orders and past trades of every wallet this long after they closed or happened
   * (memory bounded over a long backtest; reads of older ones then find nothing). Default: keep all.
   */
  readonly retainClosedMs?: number;
  /**
   * With retainClosedMs, also a count bound: each wallet keeps at most about this many closed
   * orders and this many trade rows, the oldest dropped first (see overCap), so memory stays
   * bounded however fast a wallet trades and a busy wallet never pushes another wallet's history
   * out. Default: no count bound.
   */
  readonly retainMaxPerWallet?: number;
  /** With retainClosedMs: each token's trade tape (recentTrades) keeps at most about this many. Default: no bound. */
  readonly retainTradesPerToken?: number;
  /** Receives errors thrown by listeners; default: rethrow the first after delivery completes. */
  readonly onListenerError?: (error: unknown, event: VenueEvent) => void;
  /**
   * Publish a `book_changes` event per touched book and operation (what the mock's book feed
   * sends). Default true; the backtest, whose market data is the recording, turns it off: its
   * mirror of the recorded book touches a level on every recorded change. Books then track no
   * touched levels and keep no seq.
   */
  readonly bookChanges?: boolean;
}

/** Aggregated book of one token at `seq`: bids descending, asks ascending. */
export interface BookSnapshot {
  readonly tokenId: string;
  readonly marketId: string;
  readonly conditionId: string;
  readonly outcomeIndex: number;
  readonly seq: number;
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
  readonly tsMs: number;
}

/**
 * The simulated exchange: markets, balances, per-token order books with price-time priority,
 * order lifecycle, fills, fees and events, in process and deterministic. The mock exchange's HTTP
 * and WebSocket adapters and the backtest runner both drive this one class.
 *
 * Every call, reads included, first expires due orders, then acts, then publishes its events (one
 * `book_changes` per touched token, with contiguous seq) to the listeners, synchronously.
 * Amounts are bigint micro-units; `wire.ts` formats them for the spec's JSON.
 */
export class SimVenue {
  readonly #clock: Clock;
  readonly #s: VenueState;
  readonly #bus: EventBus;
  readonly #retainMs: number | undefined;
  readonly #bookChanges: boolean;
  #prunedAt = Number.NEGATIVE_INFINITY;
  #inOp = false;

  constructor(opts: SimVenueOptions) {
    this.#clock = opts.clock;
    this.#retainMs = opts.retainClosedMs;
    this.#bookChanges = opts.bookChanges ?? true;
    this.#bus = new EventBus(opts.onListenerError);
    const transient = new Set((opts.transientWallets ?? []).map((w) => walletKey(w)));
    const retain = opts.retainClosedMs !== undefined;
    const retainMax = retain ? (opts.retainMaxPerWallet ?? Infinity) : Infinity;
    const retainTape = retain ? (opts.retainTradesPerToken ?? Infinity) : Infinity;
    this.#s = {
      ids: opts.ids,
      markets: new MarketRegistry(opts.defaultFeeTakerBps ?? 0, opts.makerFeeBps ?? 0),
      ledger: new Ledger(),
      orders: new OrderStore(transient, retain, retainMax),
      trades: new TradeStore(transient, retainMax, retainTape),
      books: new Map(),
      resting: new Map(),
      expiries: new ExpirySchedule(opts.clock, () => this.#op(() => undefined)),
      selfTrade: opts.selfTrade ?? "cancel_resting",
      vaultOf: opts.vaultOf ?? ((w) => w),
      pending: [],
      touched: new Set(),
    };
  }

  /** The venue's time (its clock's), ms: when what it is told now happens at the exchange. */
  now(): number {
    return this.#clock.now();
  }

  /** Adds a listener for every venue event; returns its removal. */
  subscribe(listener: VenueListener): () => void {
    return this.#bus.subscribe(listener);
  }

  // ── markets ─────────────────────────────────────────────────────────────────────────────────

  /** Registers a market and creates an empty book per outcome token. */
  registerMarket(spec: MarketSpec): MarketView {
    const entry = this.#s.markets.register(spec);
    for (const o of spec.outcomes) this.#s.books.set(o.tokenId, new OrderBook(o.tokenId, this.#bookChanges));
    return this.#s.markets.view(entry);
  }

  /** One market with its live status and resolved fee parameters. */
  market(marketId: string): MarketView | undefined {
    const m = this.#s.markets.get(marketId);
    return m === undefined ? undefined : this.#s.markets.view(m);
  }

  /** Every registered market, in registration order. */
  markets(): MarketView[] {
    return this.#s.markets.all().map((m) => this.#s.markets.view(m));
  }

  /**
   * Admin: sets a market's status. Placements on a market that is not OPEN are rejected with
   * `market_not_open`; resting orders stay (and stay cancellable) unless `cancelOpenOrders`.
   */
  setMarketStatus(marketId: string, status: MarketStatus, opts: { cancelOpenOrders?: boolean } = {}): number {
    return this.#op((now) => {
      const previous = this.#s.markets.get(marketId)?.status;
      const m = this.#s.markets.setStatus(marketId, status);
      const cancelled = opts.cancelOpenOrders === true ? cancelMarketOrders(this.#s, marketId, now) : 0;
      if (previous !== undefined && previous !== status) {
        this.#s.pending.push({
          type: "market_status",
          tsMs: now,
          marketId,
          conditionId: m.spec.conditionId,
          status,
          previous,
        });
      }
      return cancelled;
    });
  }

  // ── orders ──────────────────────────────────────────────────────────────────────────────────

  /** Places an order; business rejects come back as `status: "REJECTED"` with a code. */
  place(input: PlaceOrderInput): PlacementResult {
    return this.#op((now) => placeOrder(this.#s, input, now));
  }

  /**
   * Sets a resting order's unfilled quantity in place, keeping its time priority (venue-internal:
   * the spec has no amend; see amend.ts).
   */
  amend(wallet: Address, orderId: string, remaining: bigint): AmendResult {
    return this.#op((now) => amendOrder(this.#s, wallet, orderId, remaining, now));
  }

  /** Cancels one order of `wallet`. */
  cancel(wallet: Address, orderId: string): CancelResult {
    return this.#op((now) => cancelOrder(this.#s, wallet, orderId, now));
  }

  /** Cancels every open order of `wallet` (optionally of one market); returns the spec's body. */
  cancelAll(wallet: Address, marketId?: string): { cancelled: number; marketId?: string } {
    return this.#op((now) => {
      const cancelled = cancelAllOrders(this.#s, wallet, marketId, now);
      return marketId === undefined ? { cancelled } : { cancelled, marketId };
    });
  }

  /** One order of `wallet`; undefined when unknown or another wallet's (404 on reads). */
  order(wallet: Address, orderId: string): OrderView | undefined {
    return this.#op(() => {
      const o = this.#s.orders.get(orderId);
      return o === undefined || o.wallet !== walletKey(wallet) ? undefined : viewOf(o);
    });
  }

  /** Open orders of `wallet`, oldest first, optionally of one market. */
  openOrders(wallet: Address, marketId?: string): OrderView[] {
    return this.#op(() => this.#s.orders.open(walletKey(wallet), marketId).map(viewOf));
  }

  /** Order history, newest first, keyset-paginated over (createdAt, id). */
  orderHistory(wallet: Address, query: HistoryQuery): Page<OrderView> {
    return this.#op(() => {
      const page = this.#s.orders.history(walletKey(wallet), query);
      return { items: page.items.map(viewOf), next: page.next };
    });
  }

  /** Fills of one order of `wallet` (its rows, in fill order); undefined when not that wallet's order. */
  orderFills(wallet: Address, orderId: string): readonly WalletTradeRow[] | undefined {
    return this.#op(() => {
      const o = this.#s.orders.get(orderId);
      return o === undefined || o.wallet !== walletKey(wallet) ? undefined : this.#s.trades.ofOrder(orderId);
    });
  }

  /** A wallet's trade rows, one per (tradeId, role), newest first: /api/me/trades and /api/me/fees. */
  walletTrades(wallet: Address, query: TradeQuery): Page<WalletTradeRow> {
    return this.#op(() => this.#s.trades.rows(walletKey(wallet), query));
  }

  /** The latest trades of a token, newest first. */
  recentTrades(tokenId: string, limit: number): TradeRecord[] {
    return this.#op(() => this.#s.trades.recent(tokenId, limit));
  }

  /** Aggregated book of one token (depth levels per side) and its seq; undefined for an unknown token. */
  bookSnapshot(tokenId: string, depth = 100): BookSnapshot | undefined {
    return this.#op((now) => {
      const book = this.#s.books.get(tokenId);
      const ref = this.#s.markets.token(tokenId);
      if (book === undefined || ref === undefined) return undefined;
      return {
        tokenId,
        marketId: ref.market.spec.marketId,
        conditionId: ref.market.spec.conditionId,
        outcomeIndex: ref.outcomeIndex,
        ...book.snapshot(depth),
        tsMs: now,
      };
    });
  }

  // ── accounts ────────────────────────────────────────────────────────────────────────────────

  /** Admin: adds USDC (`asset` "usdc") or shares of a registered token to a wallet. */
  credit(wallet: Address, asset: string, amount: bigint): void {
    this.#op(() => this.#s.ledger.credit(walletKey(wallet), this.#asset(asset), positive(amount)));
  }

  /** Admin: removes unreserved USDC or shares; throws `insufficient_funds` beyond the available balance. */
  debit(wallet: Address, asset: string, amount: bigint): void {
    this.#op(() => {
      const key = walletKey(wallet);
      const available = this.#s.ledger.available(key, this.#asset(asset));
      if (available < positive(amount)) {
        throw new MmError("insufficient_funds", "debit exceeds the available balance", {
          asset,
          amount: amount.toString(),
          available: available.toString(),
        });
      }
      this.#s.ledger.debit(key, asset, amount);
    });
  }

  /** USDC balance of a wallet. */
  balances(wallet: Address): { usdc: Balance } {
    return this.#op(() => ({ usdc: this.#s.ledger.get(walletKey(wallet), USDC) }));
  }

  /** Share holdings of a wallet, one per token held (zero balances omitted). */
  positions(wallet: Address): Position[] {
    return this.#op(() => positionsOf(this.#s, walletKey(wallet)));
  }

  /** What the fee account has collected: USDC and shares per token. */
  feeBalances(): { usdc: bigint; shares: Record<string, bigint> } {
    return feeBalancesOf(this.#s);
  }

  /** Cancels the pending expiry timer (any later call re-arms it); call when discarding the venue. */
  dispose(): void {
    this.#s.expiries.disarm();
  }

  #asset(asset: string): string {
    if (asset !== USDC && this.#s.markets.token(asset) === undefined) {
      throw new MmError("unknown_asset", `asset ${asset} is neither usdc nor a registered token`, { asset });
    }
    return asset;
  }

  // Expiry sweep → operation → one diff per touched book → timer re-armed → events delivered.
  #op<T>(fn: (now: number) => T): T {
    if (this.#inOp) throw new MmError("venue_reentrant", "venue operation started inside another", {});
    this.#inOp = true;
    const now = this.#clock.now();
    const s = this.#s;
    let events: VenueEvent[];
    try {
      expireDue(s, now);
      this.#forgetOld(now);
      // Commit expiries first, so a snapshot taken by fn already carries their seq.
      for (const tokenId of s.touched) this.#commitBook(tokenId, now);
      s.touched.clear();
      return fn(now);
    } finally {
      for (const tokenId of s.touched) this.#commitBook(tokenId, now);
      s.touched.clear();
      s.expiries.arm();
      events = s.pending.splice(0);
      this.#inOp = false;
      this.#bus.publish(events);
    }
  }

  // With retention, at most four sweeps per retention period.
  #forgetOld(now: number): void {
    const keep = this.#retainMs;
    if (keep === undefined || now - this.#prunedAt < keep / 4) return;
    this.#prunedAt = now;
    this.#s.orders.forgetClosedBefore(now - keep);
    this.#s.trades.forgetBefore(now - keep);
  }

  #commitBook(tokenId: string, now: number): void {
    const diff = this.#s.books.get(tokenId)?.commit();
    const ref = this.#s.markets.token(tokenId);
    if (diff === undefined || ref === undefined) return;
    this.#s.pending.push({
      type: "book_changes",
      tsMs: now,
      tokenId,
      marketId: ref.market.spec.marketId,
      conditionId: ref.market.spec.conditionId,
      outcomeIndex: ref.outcomeIndex,
      ...diff,
    });
  }
}

function positive(amount: bigint): bigint {
  if (amount <= 0n)
    throw new MmError("invalid_amount", "amount must be above 0", { amount: amount.toString() });
  return amount;
}
