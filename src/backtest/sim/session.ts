import { pino } from "pino";
import type { BookEvent } from "../../book/events.js";
import { LevelBuffer } from "../../book/level-buffer.js";
import { BookTracker } from "../../book/tracker.js";
import { SimClock } from "../../core/sim-clock.js";
import { createEngine, type TradingEngine } from "../../engine/engine.js";
import { resolveEngineOptions } from "../../engine/engine-deps.js";
import type { EngineEvent } from "../../engine/engine-events.js";
import { watchedBookTokens } from "../../engine/markets.js";
import { fillFromWire } from "../../execution/reconcile-fills.js";
import { isBookEvent } from "../../gateway/market-data-feed.js";
import { refusedIds } from "../../gateway/refused.js";
import { type ChannelEvent, parseEventFrame } from "../../gateway/schema/events.js";
import type { TradeMatchedEvent } from "../../gateway/schema/market-events.js";
import type { Logger } from "../../observability/logger.js";
import { CARRIED_SID } from "../../recorded/format.js";
import { RiskGuard } from "../../risk/guard.js";
import type { VenueEvent } from "../../venue/events.js";
import { seededVenueIds } from "../../venue/ids.js";
import { USDC } from "../../venue/ledger.js";
import { SimVenue } from "../../venue/sim-venue.js";
import { BacktestError } from "../errors.js";
import type { SimSettings } from "../settings.js";
import { BOT, CROWD, FLOW, UNBOUNDED_MICRO } from "./actors.js";
import { type BacktestFill, BotFills, type UserFillFrame } from "./bot-fills.js";
import { ExchangeBooks, type LevelChange } from "./exchange-books.js";
import { type Delay, latencyLane } from "./latency.js";
import { applyLifecycle, LifecycleMemory } from "./lifecycle.js";
import type { MarketSetup } from "./markets.js";
import { Pump } from "./pump.js";
import { unsignedPlacement } from "./unsigned-sign.js";
import { type BeforePlace, VenueExchange } from "./venue-exchange.js";

// The engine's logger when the caller gives none: one for every session, writing nowhere. A
// `pino()` per session opened a stdout stream each time and, on the main thread, registered it for
// a flush at exit (a WeakRef and a FinalizationRegistry cell, ~190 B); a synthetic run never yields
// to the event loop, so the registry could not clean them up and they piled up, one per path,
// until the run ended (about 0.2 GB near the 1,000,000-path cap).
const SILENT = pino({ level: "silent" }, { write: () => undefined });

/** What a simulation is built from. */
export interface SessionOptions {
  readonly settings: SimSettings;
  readonly markets: MarketSetup;
  /** Clock time the simulation starts at (the engine starts here). */
  readonly startMs: number;
  /** Seeds the venue's order and trade ids. */
  readonly seed: number;
  readonly logger?: Logger;
  /** Every engine event (tests, diagnostics). */
  readonly onEngineEvent?: (e: EngineEvent) => void;
}

/** Frames seen and what became of them. */
export interface FeedCounters {
  frames: number;
  book: number;
  trades: number;
  lifecycle: number;
  other: number;
  /** Refused by the gateway's parser, by reason. */
  readonly rejected: Map<string, number>;
  /** Snapshots the simulated exchange served on the tracker's requests. */
  snapshotsServed: number;
  /** Recorded snapshots restarting their token's sequence (`restarts`): each a new subscription's. */
  resubscribed: number;
  /** Carried frames (CARRIED_SID) acted on: also in `frames`; the others are counted nowhere. */
  carried: number;
}

/**
 * One simulation: a SimClock, the SimVenue (the bot's wallet funded, the market's accounts
 * unbounded), the UNCHANGED engine over a VenueExchange, and a BookTracker fed from /ws/market
 * frames through the gateway's parser. A market frame acts at the exchange at the current clock
 * time (its book, the venue, the listeners) and reaches the engine a feed latency later; the bot's
 * fills reach it as user_fill frames, also a feed latency later (latency.feedMs: a constant or a
 * distribution sampled per frame, in order per connection, see LatencyLane). Shared by the replay
 * and synthetic runners.
 */
export class SimSession {
  readonly clock: SimClock;
  readonly pump: Pump;
  readonly venue: SimVenue;
  readonly exchange: VenueExchange;
  readonly tracker: BookTracker;
  readonly engine: TradingEngine;
  readonly books = new ExchangeBooks();
  readonly markets: MarketSetup;
  readonly counters: FeedCounters = {
    frames: 0,
    book: 0,
    trades: 0,
    lifecycle: 0,
    other: 0,
    rejected: new Map(),
    snapshotsServed: 0,
    resubscribed: 0,
    carried: 0,
  };
  /** Called with the clock time before a market event acts (markouts read the mid as it was). */
  readonly beforeMarket: ((now: number) => void)[] = [];
  /**
   * Called with the clock time once a market event has acted (each `beforeMarket` has its
   * `afterMarket`): the fills it caused are booked and its book, if any, applied.
   */
  readonly afterMarket: ((now: number) => void)[] = [];
  /** Each level change of the exchange's book, in order (the liquidity mirror). */
  readonly levelChanged: ((c: LevelChange) => void)[] = [];
  /** After a book event was applied at the exchange (not one refused or malformed). */
  readonly bookApplied: ((tokenId: string) => void)[] = [];
  /** A recorded resolution's payout per share of a token (micro-USDC), at exchange time. */
  readonly settled: ((tokenId: string, payoutMicro: number) => void)[] = [];
  /** Each fill of the bot, at exchange time. */
  readonly filled: ((f: BacktestFill) => void)[] = [];
  /** Every venue event, in order. */
  readonly venueEvents: ((e: VenueEvent) => void)[] = [];
  /** Each placement of the bot just before it reaches the venue's matcher (market, outcome, side, price). */
  readonly beforeBotPlace: BeforePlace[] = [];
  /** Each recorded trade print (trade_matched), at exchange time. */
  readonly traded: ((e: TradeMatchedEvent) => void)[] = [];
  // Feed latency per connection, as live: /ws/market (book, lifecycle, snapshots), /ws/user (fills).
  readonly #market: Delay;
  readonly #user: Delay;
  readonly #tokens: ReadonlySet<string>;
  readonly #lifecycle = new LifecycleMemory();
  // Parsed entries of the frames on their way to the tracker (free ones), and of the one it is
  // being given (see #handOver).
  readonly #bufs: LevelBuffer[] = [];
  #handing: BookEvent | undefined;
  #handingBuf: LevelBuffer | undefined;

  constructor(o: SessionOptions) {
    const s = o.settings;
    this.markets = o.markets;
    this.#tokens = new Set(o.markets.tokens.map((t) => t.tokenId));
    this.#market = latencyLane(s.latency.feedMs, o.seed, "market");
    this.#user = latencyLane(s.latency.feedMs, o.seed, "user");
    this.clock = new SimClock(o.startMs);
    this.pump = new Pump(this.clock);
    this.venue = new SimVenue({
      clock: this.clock,
      ids: seededVenueIds(o.seed),
      makerFeeBps: s.fees.makerFeeBps,
      defaultFeeTakerBps: s.fees.defaultFeeTakerBps,
      transientWallets: [CROWD, FLOW],
      retainClosedMs: retentionMs(s),
      // The bot's market data is the recording: nothing reads the venue's own book feed.
      bookChanges: false,
    });
    for (const spec of o.markets.specs) this.venue.registerMarket(spec);
    this.venue.credit(BOT, USDC, s.wallet.usdcMicro);
    for (const w of [CROWD, FLOW]) this.venue.credit(w, USDC, UNBOUNDED_MICRO);
    for (const t of o.markets.tokens) {
      if (s.wallet.sharesMicro > 0n) this.venue.credit(BOT, t.tokenId, s.wallet.sharesMicro);
      for (const w of [CROWD, FLOW]) this.venue.credit(w, t.tokenId, UNBOUNDED_MICRO);
    }
    this.exchange = new VenueExchange(
      this.venue,
      BOT,
      this.clock,
      {
        entry: latencyLane(s.latency.entryMs, o.seed, "entry"),
        response: latencyLane(s.latency.responseMs, o.seed, "response"),
      },
      (marketId, outcome, side, price) => {
        for (const fn of this.beforeBotPlace) fn(marketId, outcome, side, price);
      },
    );
    this.tracker = new BookTracker({
      clock: this.clock,
      port: { requestSnapshot: (t) => this.#serveSnapshot(t) },
      config: s.tracker,
      parsed: (e) => (e === this.#handing ? this.#handingBuf : undefined),
    });
    const strategy = s.strategy;
    this.engine = createEngine({
      clock: this.clock,
      exchange: this.exchange,
      sign: unsignedPlacement(o.markets.tokens, BOT),
      markets: o.markets.tokens,
      strategyFor: () => strategy,
      risk: new RiskGuard(s.risk),
      logger: o.logger ?? SILENT,
      // The recorded or synthetic frames show the market without the bot's orders.
      options: { ...s.engine, feedShowsOwnOrders: false },
      listener: (e) => {
        // As live (Feeds.retireBooks): a settled market's books are watched no more.
        if (e.type === "market_settled") for (const t of e.tokenIds) this.tracker.retire(t);
        o.onEngineEvent?.(e);
      },
    });
    this.tracker.onState((st) => this.engine.onBookState(st));
    this.tracker.onBook((b) => this.engine.onBook(b.tokenId, b));
    const fills = new BotFills((fill, frame) => {
      for (const fn of this.filled) fn(fill);
      this.#toEngine(() => this.#deliverFill(frame), true, this.#user);
    });
    this.venue.subscribe((e) => {
      fills.onVenueEvent(e);
      for (const fn of this.venueEvents) fn(e);
    });
  }

  /**
   * Tracks every token (but those of a market listed settled, as live) and starts the engine (its
   * start-up reconcile runs on simulated time).
   */
  async start(): Promise<void> {
    for (const t of watchedBookTokens(this.markets.tokens)) this.tracker.track(t.tokenId);
    await this.pump.until(this.engine.start(), 600_000);
  }

  /** Whether `marketFrame` skips `frame`: a carried frame repeating what the replay acted on. */
  skipsCarried(frame: Record<string, unknown>): boolean {
    return this.#lifecycle.repeats(frame);
  }

  /** One /ws/market frame, acting at the exchange now and reaching the engine a feed latency later. */
  marketFrame(frame: Record<string, unknown>): void {
    const c = this.counters;
    if (this.#lifecycle.repeats(frame)) return; // a carried state the replay knows: counted nowhere
    const parsed = parseEventFrame(frame, "market");
    if (frame.sid === CARRIED_SID && !("rejected" in parsed)) c.carried++;
    c.frames++;
    if ("rejected" in parsed) {
      c.rejected.set(parsed.rejected, (c.rejected.get(parsed.rejected) ?? 0) + 1);
      // As live (MarketDataFeed): a book frame the parser refuses is one the bot's book missed.
      if (parsed.channel === "token_book") {
        const lost = refusedIds("token_book", frame, (_, id) => this.#tokens.has(id)) ?? [];
        for (const t of lost)
          this.#toEngine(() => this.tracker.frameLost(t, parsed.type), false, this.#market);
      }
      return;
    }
    const now = this.clock.now();
    for (const fn of this.beforeMarket) fn(now);
    this.#act(parsed.event);
    for (const fn of this.afterMarket) fn(now);
  }

  // A parsed market event acting at the exchange (its book, the venue, the listeners).
  #act(e: ChannelEvent): void {
    const c = this.counters;
    if (isBookEvent(e)) {
      c.book++;
      // A snapshot refused to the recorder (a mistyped token id, retried for ever) books nothing:
      // the token is not booked by it, though the bot's tracker still sees the refusal, as live.
      // A frame with malformed entries is not applied (counted in books.malformed): it books nothing.
      // The entries are parsed once, here, into a buffer of their own that the tracker is handed
      // with the frame (BookTrackerOptions.parsed); a malformed frame is parsed, and refused, by
      // the tracker itself, as live.
      const buf = e.type === "book_snapshot_failed" ? undefined : (this.#bufs.pop() ?? new LevelBuffer());
      const lastSeq = e.type === "book_snapshot" ? this.books.lastSeq(e.tokenId) : undefined;
      const applied =
        buf !== undefined &&
        this.books.apply(
          e,
          (change) => {
            for (const fn of this.levelChanged) fn(change);
          },
          buf,
        );
      const restart = e.type === "book_snapshot" && lastSeq !== undefined && restarts(e.seq, lastSeq);
      if (restart) c.resubscribed++;
      if (applied) for (const fn of this.bookApplied) fn(e.tokenId);
      if (applied) this.#toEngine(() => this.#handOver(e, buf, restart), false, this.#market);
      else {
        if (buf !== undefined) this.#bufs.push(buf);
        this.#toEngine(() => this.#resubscribe(e, restart), false, this.#market);
      }
    } else if (e.type === "trade_matched" || e.type === "trade_settled") {
      c.trades++;
      if (e.type === "trade_matched") for (const fn of this.traded) fn(e);
    } else if (
      applyLifecycle(
        e,
        this.venue,
        this.markets,
        (fn) => this.#toEngine(() => fn(this.engine), false, this.#market),
        (tokenId, micro) => {
          for (const fn of this.settled) fn(tokenId, micro);
        },
      )
    ) {
      c.lifecycle++;
      this.#lifecycle.note(e);
    } else {
      c.other++;
    }
  }

  /** Stops the engine (cancelling every quote) on simulated time; resolves with what stayed open. */
  async finish(timeoutMs = 60_000): Promise<{ openOrders: number }> {
    const stopped = await this.pump.until(
      this.engine.stop("backtest finished", timeoutMs),
      timeoutMs + 60_000,
    );
    this.tracker.close();
    this.venue.dispose();
    return stopped;
  }

  // The bot's view arrives a feed latency late, in order per connection. Fills with no latency
  // still arrive after the venue operation that produced them, never inside it.
  #toEngine(fn: () => void, async: boolean, lane: Delay): void {
    const ms = lane.next(this.clock.now());
    if (ms > 0) this.clock.setTimer(ms, fn);
    else if (async) queueMicrotask(fn);
    else fn();
  }

  // A book frame reaches the tracker with the entries the exchange parsed from it; the buffer is
  // free again once the tracker is done with the frame.
  #handOver(e: BookEvent, buf: LevelBuffer, restart: boolean): void {
    const event = this.#handing;
    const entries = this.#handingBuf;
    this.#handing = e;
    this.#handingBuf = buf;
    try {
      this.#resubscribe(e, restart);
    } finally {
      this.#handing = event;
      this.#handingBuf = entries;
      this.#bufs.push(buf);
    }
  }

  // A recorded snapshot that restarts its token's sequence is, to the bot, the snapshot that follows
  // a new subscribe (as live after a reconnect: expectSnapshot, then the snapshot): its tracker
  // resyncs to it rather than dropping it, and every frame after it, as older than what it has.
  #resubscribe(e: BookEvent, restart: boolean): void {
    if (restart) this.tracker.expectSnapshot(e.tokenId);
    this.tracker.onEvent(e);
  }

  #deliverFill(frame: UserFillFrame): void {
    const parsed = parseEventFrame(frame as unknown as Record<string, unknown>, "user");
    if ("rejected" in parsed || parsed.event.type !== "user_fill") {
      throw new BacktestError("venue_frame_refused", "the gateway refuses a user_fill the venue produced", {
        frame: frame.data,
      });
    }
    this.engine.onFill(fillFromWire(parsed.event));
  }

  // get_book_snapshot answered from the exchange's book as it stands, a feed latency later; not
  // answered while that book is built from deltas alone (the tracker asks again, with back-off).
  // The simulated link never drops, so the request always counts as sent (true), answered or not.
  #serveSnapshot(tokenId: string): boolean {
    const seq = this.books.lastSeq(tokenId);
    if (seq === undefined || !this.books.whole(tokenId)) return true;
    const book = this.books.book(tokenId);
    const { bids, asks } = book.toWire();
    const frame = {
      type: "book_snapshot",
      sid: 1,
      channel: "token_book",
      id: tokenId,
      data: { tokenId, bids, asks, seq, tsMs: this.clock.now() },
    };
    this.counters.snapshotsServed++;
    this.#toEngine(
      () => {
        const parsed = parseEventFrame(frame, "market");
        if (!("rejected" in parsed) && isBookEvent(parsed.event)) this.tracker.onEvent(parsed.event);
      },
      true,
      this.#market,
    );
    return true;
  }
}

/**
 * Whether a recorded book_snapshot at `seq` restarts its token's sequence, the token's last seq at
 * the exchange being `lastSeq`: only a lower seq (every `mm import` starts its tokens at seq 1, so
 * the second of two consecutive captures in one directory; a recording across an exchange restart).
 * Live, such a snapshot only comes after a (re)subscribe, which the bot's tracker expects; in a
 * recording the subscribe is not there, and the tracker would drop it as stale. A snapshot at the
 * same seq is the recorder's own answer on the live sequence — a gap healed (its book differs from
 * the replay's by the lost delta) or a rotation's depth-100 probe (it lacks the deeper levels) — and
 * reaches the tracker as it did live, restarting nothing; a higher seq is newer anyway.
 */
export function restarts(seq: number | undefined, lastSeq: number): boolean {
  return typeof seq === "number" && seq < lastSeq;
}

/**
 * How long the venue keeps the bot's closed orders and past trades: long enough for every read the
 * reconciler makes (trades since its last run minus the lookback, orders it is unsure of), never
 * under 10 minutes; what is older is forgotten so memory does not grow with the length of the run.
 */
export function retentionMs(s: SimSettings): number {
  const o = resolveEngineOptions(s.engine);
  return Math.max(600_000, 2 * (o.reconcileIntervalMs + o.tradeLookbackMs + o.unknownGraceMs));
}
