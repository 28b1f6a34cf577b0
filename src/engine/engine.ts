/**
 * # The trading engine — API as built
 *
 * `createEngine(deps: EngineDeps): TradingEngine`; TradingEngine implements `Engine` (engine-api.ts,
 * unchanged) and adds `positionOf(tokenId)`, `heldOf(tokenId)`, `account(tokenId)`, `accounts()`,
 * `liveOrders()` and `reconcileNow()`.
 *
 * deps (engine-deps.ts):
 * - `clock: Clock`; `exchange: ExchangePort & ReconcileSource` (`new HttpExchange(client)` live/paper);
 * - `sign(intent) → Promise<PlaceOrderRequest>`: `intentSigner(orderBuilder, markets)` (intent-signer.ts);
 * - `markets: TokenMarket[]` (`tokenMarkets(...)`, markets.ts), every token that may be quoted or held;
 * - `strategyFor(market) → ConfiguredStrategy | undefined` (`parseStrategyConfig`; undefined = not quoted);
 * - `risk: RiskGuard`; `logger: Logger`;
 * - `options: EngineOptions`: only `session` (1–16 [a-z0-9]) is required; `startupPolicy` "cancel" |
 *   "adopt", `inventoryBaseline` "positions" | "zero", `tolerance`, `reconcileIntervalMs`,
 *   `reconcileDriftSettleMs`, `rateLimitPerMin`, `queue`, `volatility`, `restore` (accounts and
 *   order ids an earlier run left, and a kill-switch trip it never re-armed, read from the journal
 *   by the app layer), … (defaults in resolveEngineOptions);
 * - optional `listener(event: EngineEvent)` (engine-events.ts: quote, place_sent, place_outcome,
 *   place_dropped, cancel_outcome, cancel_all_outcome, fill, fee, kill_switch, decision, reconcile,
 *   reconcile_failed, started, stopped), `rateLimitState(endpoint)` (`client.rateLimit`), `queueMetrics`.
 *
 * Calls, as the daemon wires them:
 * - `await engine.start()` once: reads positions (the baseline), applies the start-up policy, runs the
 *   start-up reconcile, then quotes. Books and fills may arrive before; they wait. Rejects with MmError
 *   `engine_start_failed` when the start-up reconcile fails;
 * - `onBookState(state)` on every BookTracker state event and `onBook(tokenId, view)` on every book
 *   event: a token is quoted only once its tracker state says quotable (a book still without its
 *   first snapshot 30 s after start is named once at warn: first-snapshot-watch.ts);
 * - `onFill(fillFromWire(payload))` per user_fill; `onMarketStatus(marketId, status)` per market
 *   status change (a placement answered 409 `market_not_open` also gates its market, for a cool-down
 *   or until a push says OPEN: market-refusals.ts; a market is also gated from the first millisecond
 *   after its closesAt, on the Clock: market-closes.ts); `onPlatformStatus(frozen)` per platform_status
 *   push (the engine also reads GET /api/platform/status at start, on 503 `exchange_unavailable`
 *   answers and while frozen, when the port has `platformFrozen`: platform-watch.ts); `onReconnect()`
 *   after every WebSocket reconnect;
 * - `await engine.stop(reason, timeoutMs)` → `{ openOrders }` (0 = clean; idempotent) on SIGINT/SIGTERM
 *   or a fatal auth close; `status()` for /ready.
 * Nothing here reads ambient time or does I/O except through the deps, so the backtest drives this
 * same object on a SimClock (quoting steps run one microtask after the events that call for them).
 */
import type { BookState } from "../book/book-state.js";
import type { BookView } from "../book/order-book.js";
import { monotonicNow } from "../core/clock.js";
import { MmError } from "../core/errors.js";
import type { Fill } from "../core/trading.js";
import type { TokenAccount } from "../execution/inventory-math.js";
import { isTerminal } from "../execution/order-state.js";
import type { RateBudget } from "../execution/rate-budget.js";
import { EndedInFlight } from "./ended-in-flight.js";
import type { Engine, EngineStatus, StopCount } from "./engine-api.js";
import type { EngineCore } from "./engine-core.js";
import { type EngineDeps, resolveEngineOptions } from "./engine-deps.js";
import { FillIntake } from "./engine-fills.js";
import {
  markFromBook,
  observeStartPnl,
  rearmKillSwitch,
  reportKillSwitchTrip,
  restoreKillSwitch,
} from "./engine-kill-switch.js";
import { prepareStart, shutdown } from "./engine-lifecycle.js";
import { orderError, watchPlatform } from "./engine-platform.js";
import { marketBook, quoteToken } from "./engine-quote.js";
import { type ReconcileRun, ReconcileScheduler } from "./engine-reconcile.js";
import { type ReconcileMemory, reconcileOnce } from "./engine-reconcile-run.js";
import { CancelAllWaiters, handleQueueReport } from "./engine-reports.js";
import { engineStatus } from "./engine-status.js";
import { buildCore, enforceDecision } from "./engine-wiring.js";
import { holdUnquotableAtStart } from "./fee-cap.js";
import { FirstSnapshotWatch } from "./first-snapshot-watch.js";
import { HaltEndWatch } from "./halt-end.js";
import { MarketCloses } from "./market-closes.js";
import { DriftRecordGate } from "./market-record-read.js";
import { MarketStatuses } from "./market-statuses.js";
import type { PlatformWatch } from "./platform-watch.js";
import { ReconcileFailures } from "./reconcile-failures.js";
import { SignFailures, signFailureCountEveryMs } from "./sign-failures.js";

/**
 * Builds the engine: order store, inventory, order manager, rate budget and queue over the given ports.
 * @example
 * const engine = createEngine({ clock, exchange: new HttpExchange(client), sign: intentSigner(builder, markets),
 *   markets, strategyFor: () => parseStrategyConfig(cfg.strategy), risk: new RiskGuard(parseRiskConfig(cfg.risk)),
 *   logger, options: { session: "a1b2c3" } });
 * await engine.start();
 */
export function createEngine(deps: EngineDeps): TradingEngine {
  return new TradingEngine(deps);
}

/** The Engine (see the file's header for the API as the adapters use it). */
export class TradingEngine implements Engine {
  readonly #core: EngineCore;
  readonly #fills: FillIntake;
  readonly #waiters = new CancelAllWaiters();
  readonly #signFailures: SignFailures;
  readonly #scheduler: ReconcileScheduler;
  readonly #failures: ReconcileFailures; // failed reconciles' log lines and events
  /** Market statuses from pushes, records and refusals (market-statuses.ts). */
  readonly #markets: MarketStatuses;
  readonly #closes: MarketCloses;
  readonly #platform: PlatformWatch;
  readonly #haltEnd: HaltEndWatch;
  readonly #firstBooks: FirstSnapshotWatch;
  readonly #memory: ReconcileMemory = {
    priorDrifts: [],
    driftReads: new DriftRecordGate(),
    lastOkAtMs: undefined,
  };
  readonly #dirty = new Set<string>();
  /** Placements pushed ended before their answer came (ended-in-flight.ts). */
  readonly #endedInFlight = new EndedInFlight();
  #flushQueued = false;
  #started = false;
  /** The start-up reconcile has completed: later runs (a reconnect during start) may act. */
  #startupRan = false;
  #enabled = false;
  #sinceMs: number | undefined;
  #startup: { error: unknown; adopted: number } = { error: undefined, adopted: 0 };
  #stopping: Promise<StopCount> | undefined;

  constructor(deps: EngineDeps) {
    const options = resolveEngineOptions(deps.options);
    const log = deps.logger;
    this.#signFailures = new SignFailures(log, signFailureCountEveryMs(deps.risk.config.errorRate));
    this.#core = buildCore(deps, options, {
      quotingEnabled: () => this.#enabled,
      requote: (t) => this.#requote(t),
      reconcileSoon: (reason) => this.#scheduler.soon(reason),
      enforce: (d) => {
        if (d === undefined) return;
        enforceDecision(this.#core, d);
        if (d.reason === "error_rate_halt") this.#haltEnd.arm();
        if (d.reason === "kill_switch") reportKillSwitchTrip(this.#core);
      },
      orderError: (code) => orderError(this.#core, this.#platform, code),
      suspectFrozen: () => this.#platform.suspect(),
      marketRefused: (marketId) => this.#markets.refused(marketId),
      recordSettled: (marketId, record, after) =>
        this.#markets.recordRead(marketId, record, `after ${after}`),
      onReport: (r) => {
        handleQueueReport(this.#core, r, this.#waiters, this.#signFailures);
        if (this.#endedInFlight.answered(r, (cid) => this.#core.store.get(cid))) {
          this.#scheduler.soon("order_ended");
        }
      },
    });
    // An earlier run's trip the operator never re-armed holds from the first quoting step on.
    restoreKillSwitch(this.#core);
    this.#fills = new FillIntake(this.#core);
    const { clock, emit } = this.#core;
    this.#markets = new MarketStatuses(this.#core);
    this.#platform = watchPlatform(this.#core);
    this.#haltEnd = new HaltEndWatch(clock, this.#core.risk, () => this.#core.requoteAll());
    this.#firstBooks = new FirstSnapshotWatch(clock, log, this.#core.tokens);
    this.#closes = new MarketCloses(clock, (marketId, closesAtMs) =>
      this.#marketClosed(marketId, closesAtMs),
    );
    // Once stopping, a run cut short is expected (the stop closes the client under a read): debug.
    this.#failures = new ReconcileFailures(this.#core, () => this.#stopping !== undefined);
    const { reconcileIntervalMs: intervalMs, reconcileDebounceMs: debounceMs } = options;
    const timing = { intervalMs, debounceMs, retryMs: options.reconcileRetryMs };
    const run: ReconcileRun = async (reason, counted) => {
      // Before the start-up run only it may act: the baseline is not taken and orphans are not yet the
      // start-up policy's to cancel or adopt. A run asked for while it runs (a reconnect: fills may
      // be lost after it read the trades) follows it and must act, though start() has not returned.
      if (!this.#started && !this.#startupRan && reason !== "startup") return { pending: 0 };
      const adopt = reason === "startup" && options.startupPolicy === "adopt";
      const since = this.#sinceMs ?? clock.now();
      const summary = await reconcileOnce(this.#core, this.#memory, reason, since, adopt, counted);
      if (reason === "startup") {
        this.#startup.adopted = summary.adopted;
        this.#startupRan = true;
      }
      this.#failures.succeeded(reason);
      emit({ type: "reconcile", atMs: summary.atMs, summary });
      // Unknown placements and orders whose state it could not settle are both followed up.
      return { pending: summary.pending + (summary.inDoubt ?? 0), unread: summary.unread ?? 0 };
    };
    this.#scheduler = new ReconcileScheduler(clock, timing, run, (reason, error, failure) => {
      if (reason === "startup") this.#startup.error = error;
      this.#failures.failed(reason, error, failure);
    });
  }

  async start(): Promise<void> {
    if (this.#started) return;
    const { clock, log, options, tokens } = this.#core;
    const prep = await prepareStart(this.#core, this.#fills, this.#waiters);
    // stop() may run while start() awaits (a fatal close in the daemon): a stopped engine must not
    // go on to enable quoting, start the scheduler or arm close timers that nothing would clear.
    if (this.#stopping !== undefined) return;
    this.#sinceMs = prep.sinceMs;
    this.#startup = { error: undefined, adopted: 0 };
    await this.#scheduler.now("startup");
    // The start-up search has handed over the older fills on untraded tokens (or failed): the stream's may follow.
    this.#fills.releaseUntraded();
    if (this.#stopping !== undefined) return;
    const { error, adopted } = this.#startup;
    if (error !== undefined) {
      throw new MmError("engine_start_failed", "the start-up reconcile failed", {}, { cause: error });
    }
    // A platform frozen before we subscribed may never be pushed: its status is read before quoting.
    await this.#platform.check();
    if (this.#stopping !== undefined) return;
    this.#started = true;
    this.#enabled = true;
    this.#scheduler.start();
    // Markets closed before now are gated at once (before the first quoting step), the rest at their close.
    this.#closes.arm([...tokens.slots()].map((s) => s.market));
    // A book still without its first snapshot a while from now is named once (its wait is at debug).
    this.#firstBooks.arm();
    // The kill switch's starting peak is the PnL now: a loss on the first fills counts.
    observeStartPnl(this.#core);
    // A market closed by its status may reopen without a push: its record is read once a minute.
    this.#markets.start();
    // Markets no quote can pass (a limit below their minimum size, a fee above the cap), before quoting.
    holdUnquotableAtStart(this.#core);
    this.#core.requoteAll();
    log.info({ tokens: tokens.size, policy: options.startupPolicy, adopted }, "engine started");
    this.#core.emit({ type: "started", atMs: clock.now(), adopted, cancelledAtStart: prep.cancelledAtStart });
  }

  onBook(tokenId: string, book: BookView): void {
    const { clock, tokens } = this.#core;
    const slot = tokens.get(tokenId);
    if (slot === undefined) return;
    // σ and the PnL mark follow the market without us: our own quotes at the touch move its mid, and
    // read as market moves fed back into A–S / GLFT spreads and the PnL. σ's time is monotonic: a
    // step of the wall clock is not one long interval replacing its history (SimClock: now()).
    const market = marketBook(this.#core, slot, book);
    tokens.observeBook(slot, book, market, monotonicNow(clock));
    markFromBook(this.#core, tokenId, market);
    this.#requote(tokenId);
  }

  onBookState(state: BookState): void {
    const slot = this.#core.tokens.get(state.tokenId);
    if (slot === undefined) return;
    slot.bookState = state;
    // Before the decision it may cause: a book's first wait for its snapshot is not news, a later one is.
    if (state.status === "synced" && !slot.everSynced) {
      slot.everSynced = true;
      this.#firstBooks.arrived(slot);
    }
    this.#core.decisions.bookState(state);
    this.#core.enforce(this.#core.risk.onBookState(state.tokenId, state));
    this.#requote(state.tokenId);
  }

  onFill(fill: Fill): void {
    this.#fills.onFill(fill);
  }

  onMarketStatus(marketId: string, status: string, payouts?: Readonly<Record<string, string>>): void {
    this.#markets.pushed(marketId, status, payouts);
  }

  /**
   * The clock passed the market's closesAt (market-closes.ts): its quotes are cancelled, logged once
   * as a market decision; the guard gates it from then on by the time alone (no push needed).
   */
  #marketClosed(marketId: string, closesAtMs: number): void {
    this.#core.enforce(this.#core.risk.onMarketClosed(marketId, closesAtMs));
    for (const t of this.#core.tokens.tokensOf(marketId)) this.#requote(t);
  }

  onPlatformStatus(frozen: boolean): void {
    this.#platform.pushed(frozen);
  }

  onReconnect(): void {
    this.#scheduler.soon("reconnect");
  }

  onOrderEnded(orderId: string | undefined, clientOrderId: string | undefined): void {
    const { store } = this.#core;
    const o =
      (clientOrderId === undefined ? undefined : store.get(clientOrderId)) ??
      (orderId === undefined ? undefined : store.byOrderId(orderId));
    // Our own cancels (cancelling) and orders already ended need nothing: their answers settle them.
    if (o?.state === "open") this.#scheduler.soon("order_ended");
    // One whose placement's answer is still on its way: the reconcile comes with that answer.
    else if (o !== undefined) this.#endedInFlight.note(o);
  }

  stop(reason: string, timeoutMs: number): Promise<StopCount> {
    this.#stopping ??= (async () => {
      const { clock, log } = this.#core;
      const deadline = clock.now() + Math.max(0, timeoutMs);
      this.#enabled = false;
      this.#scheduler.stop();
      this.#markets.stop();
      // A reconcile still running reads no market record for its drifts: the answer would be dropped.
      this.#memory.driftReads.stop();
      this.#closes.clear();
      this.#core.requoteTimer.stop();
      this.#core.orderRenewal.stop();
      this.#haltEnd.stop();
      this.#firstBooks.stop();
      this.#core.decisions.stop();
      this.#platform.stop();
      this.#fills.releaseUntraded();
      log.info({ reason, timeoutMs }, "engine stopping: cancelling every quote");
      const left = await shutdown(this.#core, this.#waiters, reason, deadline);
      if (left.openOrders === 0) log.info({ reason }, "engine stopped: no open orders");
      else log.warn({ reason, openOrders: left.openOrders }, "engine stopped with orders still open");
      this.#core.emit({ type: "stopped", atMs: clock.now(), reason, openOrders: left.openOrders });
      return left;
    })();
    return this.#stopping;
  }

  /** The order queue's local rate budget: its buckets, for the metrics (`mm_queue_bucket_*`). */
  get rateBudget(): RateBudget {
    return this.#core.budget;
  }

  status(): EngineStatus {
    return engineStatus(this.#core, this.#started, this.#started && this.#scheduler.runs > 0);
  }

  rearmKillSwitch(): boolean {
    return rearmKillSwitch(this.#core);
  }

  /** Position in a token relative to the baseline, micro-shares (tests, reports). */
  positionOf(tokenId: string): bigint {
    return this.#core.positions.position(tokenId);
  }

  /**
   * The shares of a token the engine takes the wallet to hold (baseline + position), micro-shares:
   * what the position check compares with the exchange's (tests, diagnostics).
   */
  heldOf(tokenId: string): bigint {
    const { positions } = this.#core;
    return positions.baseline(tokenId) + positions.position(tokenId);
  }

  /** A token's account relative to the baseline: position, cost basis, realised PnL, fees (journal). */
  account(tokenId: string): TokenAccount {
    return this.#core.inventory.account(tokenId);
  }

  /**
   * The account and integer mark (mid, when known) of every engine token that has traded or was
   * restored, for the journal's snapshots.
   */
  accounts(): { tokenId: string; account: TokenAccount; markMicro: number | undefined }[] {
    const { inventory, tokens, positions } = this.#core;
    const out = [];
    for (const tokenId of inventory.tokens()) {
      if (tokens.get(tokenId) === undefined) continue;
      out.push({ tokenId, account: inventory.account(tokenId), markMicro: positions.markOf(tokenId) });
    }
    return out;
  }

  /** A token's integer mark now (its mid, a payout, or a restored mark), micro-USDC; the journal's rows. */
  markOf(tokenId: string): number | undefined {
    return this.#core.positions.markOf(tokenId);
  }

  /** Non-terminal orders the engine tracks (a read-only copy, for tests and diagnostics). */
  liveOrders(): { clientOrderId: string; orderId: string | undefined; tokenId: string; state: string }[] {
    const out = [];
    for (const o of this.#core.store.all()) {
      if (isTerminal(o.state)) continue;
      out.push({ clientOrderId: o.clientOrderId, orderId: o.orderId, tokenId: o.tokenId, state: o.state });
    }
    return out;
  }

  /** Runs a REST reconcile now (operator action, tests); resolves when done. */
  reconcileNow(): Promise<void> {
    return this.#scheduler.now("manual");
  }

  #requote(tokenId: string): void {
    this.#dirty.add(tokenId);
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    // One step per token per microtask: a burst of frames in one socket read costs one step each.
    queueMicrotask(() => this.#flush());
  }

  #flush(): void {
    this.#flushQueued = false;
    // Before the start the store holds only what the start-up reconcile adopted: a step now (a book
    // update during the start's last reads) cancelled them all as quoting_disabled, losing the queue
    // priority `adopt` keeps. They stay dirty for the start's requoteAll; a stop steps them (cancels).
    if (!this.#started && this.#stopping === undefined) return;
    const batch = [...this.#dirty];
    this.#dirty.clear();
    for (const t of batch) quoteToken(this.#core, t);
  }
}
