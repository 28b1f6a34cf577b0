import { pino } from "pino";
import { BookTracker } from "../../../../src/book/tracker.js";
import type { Clock } from "../../../../src/core/clock.js";
import { clientOrderId } from "../../../../src/core/ids.js";
import { SimClock } from "../../../../src/core/sim-clock.js";
import type { Fill, TokenMarket } from "../../../../src/core/trading.js";
import type { Address, MarketStatus, Side } from "../../../../src/core/types.js";
import { toWei } from "../../../../src/core/wei.js";
import { createEngine, type TradingEngine } from "../../../../src/engine/engine.js";
import type { EngineDeps, EngineOptions } from "../../../../src/engine/engine-deps.js";
import type { EngineEvent } from "../../../../src/engine/engine-events.js";
import { parseRiskConfig } from "../../../../src/risk/config.js";
import { RiskGuard } from "../../../../src/risk/guard.js";
import { counterVenueIds } from "../../../../src/venue/ids.js";
import { USDC } from "../../../../src/venue/ledger.js";
import { SimVenue } from "../../../../src/venue/sim-venue.js";
import type { OrderView } from "../../../../src/venue/types.js";
import { weiToString, wireChanges, wireLevels } from "../../../../src/venue/wire.js";
import { type ConfiguredStrategy, parseStrategyConfig } from "../../../../strategies/registry.js";
import { type CollectingStream, collectingStream } from "../../../support/collecting-stream.js";
import { testSign } from "./sign.js";
import { VenueExchange } from "./venue-exchange.js";

export const BOT: Address = "0x00000000000000000000000000000000000000b0";
export const CROWD: Address = "0x00000000000000000000000000000000000000c0";
export const TAKER: Address = "0x00000000000000000000000000000000000000d0";
export const T0 = 1_750_000_000_000;

/** Bands 0.03 around the mid, 10 shares: behind a crowd touch of 0.48 / 0.52, so the mid stays the crowd's. */
export const BANDS = { name: "bands", params: { reference: "mid", bands: [{ margin: "0.03", size: "10" }] } };

export interface HarnessOptions {
  readonly markets?: number;
  readonly strategy?: unknown;
  readonly risk?: unknown;
  readonly options?: Partial<EngineOptions>;
  readonly latencyMs?: number;
  /** Shares of each token the bot holds at start (the paper wallet's 5,000). */
  readonly botShares?: string;
  /** A strategy object to quote with instead of parsing `strategy` (tests that watch its calls). */
  readonly configured?: ConfiguredStrategy;
  /** Tokens quoted without a strategy (EngineDeps.strategyFor answers undefined for them). */
  readonly unquoted?: readonly string[];
  /** The engine's sign dependency, built from the harness's markets; default testSign. */
  readonly sign?: (markets: readonly TokenMarket[]) => EngineDeps["sign"];
  /** Market i's closesAtMs (undefined: none); default T0 + 1 h for every market. */
  readonly closesAt?: (market: number) => number | undefined;
  /** Market i's status at start (the venue's and the engine's market list); default OPEN. */
  readonly status?: (market: number) => MarketStatus;
  /**
   * Market i's feeTakerBps in the engine's market list (default 0); the venue's is 0 whatever this
   * says, as it registers no fee above the cap.
   */
  readonly fee?: (market: number) => number | null;
  /** Market i's payoutNumerators in the engine's market list (a resolved market's record). */
  readonly payouts?: (market: number) => Record<string, string> | undefined;
  /** Whether the exchange answers GET /api/platform/status (VenueExchange.platformFrozen). */
  readonly platformStatus?: boolean;
  /**
   * The engine's own clock, built over the harness's SimClock (the exchange's): a bot whose clock
   * is off or steps while it runs. Default: the SimClock itself.
   */
  readonly engineClock?: (exchangeClock: SimClock) => Clock;
  /** Tokens whose snapshots never arrive (at construction or on request) while in Harness.withheld. */
  readonly withhold?: readonly string[];
  /** Also called with each engine event, as it happens (a journal recorder). */
  readonly onEvent?: (e: EngineEvent) => void;
}

/**
 * The engine's data path without sockets: a SimVenue (markets, funded wallets), its book events fed
 * through a real BookTracker into the engine, its fills for the bot's wallet fed to onFill (a microtask
 * later, like a WebSocket frame), a VenueExchange as the engine's exchange, all on one SimClock.
 */
export class Harness {
  readonly clock = new SimClock(T0);
  readonly venue: SimVenue;
  readonly exchange: VenueExchange;
  readonly tracker: BookTracker;
  readonly engine: TradingEngine;
  readonly markets: TokenMarket[] = [];
  readonly events: EngineEvent[] = [];
  readonly logs: CollectingStream = collectingStream();
  /** While true, snapshot requests of the tracker wait (a book stays resyncing). */
  holdSnapshots = false;
  /** While true, the bot's fills are lost on their way (a disconnected user channel). */
  dropFills = false;
  /** While true, the venue's market status changes are not pushed (a market closing silently). */
  silentStatus = false;
  /** Every fill of the bot the venue produced (delivered or not). */
  readonly fills: Fill[] = [];
  /** Tokens whose snapshots are never sent (the exchange does not answer for them); delete to answer. */
  readonly withheld: Set<string>;
  readonly #heldSnapshots: string[] = [];
  /** Tokens whose next book delta is lost on its way (gap). */
  readonly #lost = new Set<string>();

  constructor(o: HarnessOptions = {}) {
    this.withheld = new Set(o.withhold);
    this.venue = new SimVenue({ clock: this.clock, ids: counterVenueIds() });
    const closesAt = o.closesAt ?? (() => T0 + 3_600_000);
    for (let i = 1; i <= (o.markets ?? 1); i++)
      this.#addMarket(i, closesAt(i), o.status?.(i) ?? "OPEN", o.payouts?.(i), o.fee?.(i) ?? 0);
    for (const w of [BOT, CROWD, TAKER]) {
      this.venue.credit(w, USDC, toWei("100000", "usdc"));
      for (const m of this.markets) this.venue.credit(w, m.tokenId, toWei(o.botShares ?? "5000", "shares"));
    }
    this.exchange = new VenueExchange(this.venue, BOT, this.clock, {
      latencyMs: o.latencyMs ?? 0,
      platformStatus: o.platformStatus === true,
    });
    this.tracker = new BookTracker({
      clock: this.clock,
      port: { requestSnapshot: (t) => this.#requestSnapshot(t) },
      config: { stall: { enabled: false } },
    });
    const strategy = o.configured ?? parseStrategyConfig(o.strategy ?? BANDS);
    this.engine = createEngine({
      clock: o.engineClock?.(this.clock) ?? this.clock,
      exchange: this.exchange,
      sign: o.sign?.(this.markets) ?? (async (i) => testSign(i, this.markets)),
      markets: this.markets,
      strategyFor: (m) => (o.unquoted?.includes(m.tokenId) === true ? undefined : strategy),
      risk: new RiskGuard(parseRiskConfig(o.risk ?? {})),
      logger: pino({ level: "debug" }, this.logs),
      options: { session: "t1", reconcileIntervalMs: 30_000, ...o.options },
      listener: (e) => {
        this.events.push(e);
        o.onEvent?.(e);
      },
    });
    this.tracker.onState((s) => this.engine.onBookState(s));
    this.tracker.onBook((b) => this.engine.onBook(b.tokenId, b));
    this.venue.subscribe((e) => {
      if (e.type === "book_changes") {
        if (this.#lost.delete(e.tokenId)) return;
        const changes = wireChanges(e.changes);
        this.tracker.onEvent({
          type: "book_delta",
          tokenId: e.tokenId,
          seq: e.seq,
          prevSeq: e.prevSeq,
          changes,
        });
      } else if (e.type === "fill" && e.walletAddress === BOT) {
        const fill: Fill = {
          tradeId: e.tradeId,
          orderId: e.orderId,
          clientOrderId: e.clientOrderId,
          tokenId: e.tokenId,
          side: e.side,
          priceMicro: Number(e.price),
          sizeMicro: e.quantity,
          tsMs: e.tsMs,
        };
        this.fills.push(fill);
        if (!this.dropFills) queueMicrotask(() => this.engine.onFill(fill));
      } else if (e.type === "market_status" && !this.silentStatus) {
        this.engine.onMarketStatus(e.marketId, e.status);
      }
    });
    for (const m of this.markets) {
      this.tracker.track(m.tokenId);
      this.#sendSnapshot(m.tokenId);
    }
  }

  /** Token ids of market i (1-based): [yes, no]. */
  tokens(i = 1): [string, string] {
    return [`${i}1`, `${i}2`];
  }

  /** The crowd's resting quotes on a token: its old ones cancelled, a bid and an ask of `size` placed. */
  crowdQuote(tokenId: string, bid: string, ask: string, size = "100"): void {
    for (const o of this.venue.openOrders(CROWD)) if (o.tokenId === tokenId) this.venue.cancel(CROWD, o.id);
    this.crowdOrder(tokenId, "buy", bid, size);
    this.crowdOrder(tokenId, "sell", ask, size);
  }

  /** One resting order of the crowd on a token. */
  crowdOrder(tokenId: string, side: Side, price: string, size = "50"): string {
    const m = this.#market(tokenId);
    return this.venue.place({
      wallet: CROWD,
      marketId: m.marketId,
      outcome: m.outcome,
      side,
      price: toWei(price, "price"),
      quantity: toWei(size, "size"),
    }).orderId;
  }

  /**
   * A sequence gap on a token as the exchange makes one: the delta of a far crowd bid is lost on its
   * way, and the delta of its cancel arrives with a prevSeq the tracker never saw. The venue's book
   * ends as it was, at a seq two past the tracker's (the snapshot that cures the gap is at it).
   */
  gap(tokenId: string): void {
    this.#lost.add(tokenId);
    this.venue.cancel(CROWD, this.crowdOrder(tokenId, "buy", "0.01", "1"));
  }

  /**
   * A bot order an earlier run left resting (a crash), 10 shares at `price`, on the venue before the
   * engine starts; `coid` its client order id (oldClientOrderId: one of the bot's). Returns its id.
   */
  leftover(tokenId: string, side: Side, price: string, coid?: string): string {
    const m = this.#market(tokenId);
    return this.venue.place({
      wallet: BOT,
      marketId: m.marketId,
      outcome: m.outcome,
      side,
      price: toWei(price, "price"),
      quantity: toWei("10", "qty"),
      ...(coid === undefined ? {} : { clientOrderId: coid }),
    }).orderId;
  }

  /** A taker order (IOC) of the third wallet: sells or buys `qty` down / up to `price`. */
  take(tokenId: string, side: Side, price: string, qty: string): void {
    const m = this.#market(tokenId);
    this.venue.place({
      wallet: TAKER,
      marketId: m.marketId,
      outcome: m.outcome,
      side,
      price: toWei(price, "price"),
      quantity: toWei(qty, "qty"),
      timeInForce: "ioc",
    });
  }

  /** The bot's open orders on the venue (optionally of one token), as "side price size" strings. */
  botQuotes(tokenId?: string): string[] {
    return this.botOrders(tokenId).map(
      (o) => `${o.side} ${weiToString(o.price)} ${weiToString(o.remainingQty)}`,
    );
  }

  botOrders(tokenId?: string): OrderView[] {
    return this.venue.openOrders(BOT).filter((o) => tokenId === undefined || o.tokenId === tokenId);
  }

  /** Lets promise chains run, then fires the clock's timers up to `ms` from now, settling after each. */
  async run(ms = 0): Promise<void> {
    const end = this.clock.now() + ms;
    await settle();
    for (;;) {
      const next = this.clock.nextDeadline();
      if (next === undefined || next > end) break;
      this.clock.advanceTo(next);
      await settle();
    }
    this.clock.advanceTo(end);
    await settle();
  }

  /** Answers the held snapshot requests. */
  releaseSnapshots(): void {
    this.holdSnapshots = false;
    for (const t of this.#heldSnapshots.splice(0)) this.#sendSnapshot(t);
  }

  /** Engine events of one type. */
  eventsOf<K extends EngineEvent["type"]>(type: K): Extract<EngineEvent, { type: K }>[] {
    return this.events.filter((e): e is Extract<EngineEvent, { type: K }> => e.type === type);
  }

  #requestSnapshot(tokenId: string): boolean {
    if (this.holdSnapshots) this.#heldSnapshots.push(tokenId);
    else queueMicrotask(() => this.#sendSnapshot(tokenId));
    return true;
  }

  #sendSnapshot(tokenId: string): void {
    if (this.withheld.has(tokenId)) return;
    const s = this.venue.bookSnapshot(tokenId);
    if (s === undefined) return;
    const bids = wireLevels(s.bids);
    const asks = wireLevels(s.asks);
    this.tracker.onEvent({ type: "book_snapshot", tokenId, seq: s.seq, bids, asks, tsMs: s.tsMs });
  }

  #addMarket(
    i: number,
    closesAtMs: number | undefined,
    status: MarketStatus,
    payouts: Record<string, string> | undefined,
    fee: number | null,
  ): void {
    const marketId = `m${i}`;
    const [yes, no] = this.tokens(i);
    this.venue.registerMarket({
      marketId,
      conditionId: `0xc${i}`,
      outcomes: [
        { label: "YES", tokenId: yes },
        { label: "NO", tokenId: no },
      ],
      tickSize: 10_000n,
      feeTakerBps: 0,
      status,
      negRisk: false,
    });
    const base = {
      marketId,
      conditionId: `0xc${i}`,
      tickMicro: 10_000,
      minSizeMicro: 1_000_000n,
      feeTakerBps: fee,
      negRisk: false,
      closesAtMs,
      status,
      ...(payouts === undefined ? {} : { payouts }),
    };
    this.markets.push({ ...base, tokenId: yes, outcome: "YES", outcomeIndex: 0 });
    this.markets.push({ ...base, tokenId: no, outcome: "NO", outcomeIndex: 1 });
  }

  #market(tokenId: string): TokenMarket {
    const m = this.markets.find((x) => x.tokenId === tokenId);
    if (m === undefined) throw new Error(`unknown token ${tokenId}`);
    return m;
  }
}

/** Lets every pending promise continuation run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** The client order id an earlier run ("old" session) gave its order of `side`, level 0, number `seq`. */
export function oldClientOrderId(tokenId: string, side: Side, seq: number): string {
  return clientOrderId({ session: "old", tokenId, side, level: 0, seq });
}
