import type { Registry } from "prom-client";
import type { BookStateEvent } from "../book/book-state.js";
import type { BookView } from "../book/order-book.js";
import type { Clock } from "../core/clock.js";
import { LiveClock } from "../core/live-clock.js";
import type { Fill } from "../core/trading.js";
import type { EngineEvent, ReconcileReason, ReconcileSummary } from "../engine/engine-events.js";
import type { FeeAmount } from "../execution/inventory-math.js";
import type { OrderQueueMetrics } from "../execution/order-queue-types.js";
import type { GatewayCounters } from "../gateway/counters.js";
import type { RiskDecision } from "../risk/decision.js";
import { BookedFees, bookedFeePico } from "./metrics/booked-fees.js";
import { applyEngineEvent, type EngineEventSink } from "./metrics/engine-listener.js";
import { bookFamilies } from "./metrics/families-book.js";
import { orderFamilies } from "./metrics/families-orders.js";
import { tradingFamilies } from "./metrics/families-trading.js";
import { wsFamilies } from "./metrics/families-ws.js";
import { FillRoles } from "./metrics/fill-roles.js";
import { initialSeries, marketSeries } from "./metrics/initial-series.js";
import { LabelCap } from "./metrics/label-cap.js";
import { type MarketLabelSource, MarketLabels } from "./metrics/market-labels.js";
import { MarkoutTracker } from "./metrics/markout.js";
import { registerProcessMetrics } from "./metrics/process-metrics.js";
import {
  type Families,
  type FillOptions,
  type FillState,
  markoutSink,
  queueHooks,
  recordDecision,
  recordFee,
  recordFill,
  recordReconcile,
  recordReconcileFailed,
} from "./metrics/recorders.js";
import {
  type BookTrackerLike,
  DeltaTracker,
  type EngineLike,
  emptySources,
  type GatewayName,
  type MetricsContext,
  midMicroOf,
  type RateBudgetLike,
  type RateLimitsLike,
  type ServerClockLike,
} from "./metrics/sources.js";
import { TickToOrder } from "./metrics/tick-to-order.js";

export type { FillRole } from "./metrics/fill-roles.js";
export type { MarketLabelSource } from "./metrics/market-labels.js";
export type { FillOptions, FillSource } from "./metrics/recorders.js";
export type {
  BookTrackerLike,
  EngineLike,
  GatewayName,
  RateBudgetLike,
  RateLimitsLike,
  ServerClockLike,
} from "./metrics/sources.js";

export interface MetricsOptions {
  /** Where every metric is registered; never the global default registry. */
  readonly registry: Registry;
  /** Markets that keep their own `market` label; later ones are reported as `other`. Default 50. */
  readonly maxMarketLabels?: number;
  /** Time of ages, markout horizons and timestamps. Default: the wall clock. */
  readonly clock?: Clock;
  /** Markout horizons, ms. Default 1 s, 10 s, 60 s. */
  readonly markoutHorizonsMs?: readonly number[];
  /**
   * The periodic reconcile's period (reconcile.intervalMs), exported as mm_reconcile_interval_seconds
   * so MmReconcileStale can scale with it; unset (a backtest, a test) exports 0.
   */
  readonly reconcileIntervalMs?: number;
  /** Register the process_* and nodejs_* defaults (collectDefaultMetrics). Default true. */
  readonly defaultMetrics?: boolean;
}

/**
 * Builds mm's metrics on an injected prom-client Registry (see README "Metrics" for every family)
 * and returns the adapters the wiring calls. Counters, histograms and gauges follow Prometheus
 * naming (base units, `_total`, `_seconds`, `mm_` prefix); per-market labels are capped.
 * @example
 * const registry = new Registry();
 * const metrics = createMetrics({ registry, maxMarketLabels: 20 });
 * metrics.registerMarkets(markets.tokens, (id) => markets.slugOf(id));
 * metrics.watchBookTracker(feeds.market.tracker);
 * metrics.watchGateway("market", feeds.market.client);
 * const engine = createEngine({ ..., exchange: instrumentExchange(new HttpExchange(client), metrics),
 *   listener: metrics.listener, queueMetrics: metrics.queueMetrics });
 * metrics.watchEngine(engine);
 */
export function createMetrics(opts: MetricsOptions): Metrics {
  return new Metrics(opts);
}

/** mm's metrics and their adapters; build with {@link createMetrics}. */
export class Metrics implements EngineEventSink {
  readonly registry: Registry;
  readonly ctx: MetricsContext;
  readonly families: Families;
  readonly tickToOrder = new TickToOrder();
  readonly codes = new LabelCap(50);
  /** Pass as EngineDeps.queueMetrics (or OrderQueueOptions.metrics). */
  readonly queueMetrics: OrderQueueMetrics;
  /** Pass as EngineDeps.listener: every engine event becomes metrics. */
  readonly listener: (e: EngineEvent) => void;
  readonly #roles = new FillRoles();
  readonly #fees: BookedFees;
  readonly #markouts: MarkoutTracker;
  readonly #fills: FillState;
  readonly #unsubscribe: (() => void)[] = [];

  constructor(opts: MetricsOptions) {
    this.registry = opts.registry;
    const clock = opts.clock ?? new LiveClock();
    this.ctx = {
      clock,
      labels: new MarketLabels(opts.maxMarketLabels ?? 50),
      sources: emptySources(),
      deltas: new DeltaTracker(),
    };
    const reg = opts.registry;
    this.families = {
      book: bookFamilies(reg, this.ctx),
      orders: orderFamilies(reg, this.ctx),
      trading: tradingFamilies(reg, this.ctx),
    };
    wsFamilies(reg, this.ctx);
    this.#fees = new BookedFees((fill, role, pico) => recordFee(this.ctx, this.families, fill, role, pico));
    if (opts.defaultMetrics !== false) registerProcessMetrics(reg);
    if (opts.reconcileIntervalMs !== undefined)
      this.families.trading.reconcileInterval.set(opts.reconcileIntervalMs / 1_000);
    this.#markouts = new MarkoutTracker({
      clock,
      mid: (tokenId) => midMicroOf(this.ctx.sources, tokenId),
      ...markoutSink(this.ctx, this.families),
      ...(opts.markoutHorizonsMs === undefined ? {} : { horizonsMs: opts.markoutHorizonsMs }),
    });
    const startMs = clock.now();
    this.#fills = { markouts: this.#markouts, lastFillMs: startMs };
    this.queueMetrics = queueHooks(this.families);
    this.listener = (e) => applyEngineEvent(this, e);
    initialSeries(this.families, this.#markouts.horizonsMs, startMs);
  }

  /** Names the quoted tokens' markets (slug when `slugOf` knows it) and creates their series at zero. */
  registerMarkets(
    tokens: readonly MarketLabelSource[],
    slugOf?: (marketId: string) => string | undefined,
  ): void {
    this.ctx.labels.register(tokens, slugOf);
    marketSeries(this.families, this.ctx.labels, this.#markouts.horizonsMs);
  }

  /** Book states, ages, spreads and the tracker's counters; returns the unsubscribe. */
  watchBookTracker(tracker: BookTrackerLike): () => void {
    this.ctx.sources.trackers.add(tracker);
    const offState = tracker.onState((e) => this.onBookState(e));
    const offBook = tracker.onBook((b) => this.onBookUpdate(b));
    const off = () => {
      offState();
      offBook();
      this.ctx.sources.trackers.delete(tracker);
    };
    this.#unsubscribe.push(off);
    return off;
  }

  /** A GatewayClient's counters (connections, reconnects, frames, malformed) under `gateway`. */
  watchGateway(gateway: GatewayName, client: { readonly counters: GatewayCounters }): void {
    this.ctx.sources.gateways.set(gateway, client);
  }

  /** Remaining tokens of a RateBudget's buckets, read at scrape time. */
  watchRateBudget(budget: RateBudgetLike): void {
    this.ctx.sources.budgets.add(budget);
  }

  /** The server's X-RateLimit-* view per endpoint (ExchangeHttpClient.rateLimits). */
  watchRateLimits(limits: RateLimitsLike): void {
    this.ctx.sources.rateLimits.add(limits);
  }

  /** The exchange's clock as estimated from X-Server-Time (ExchangeHttpClient.serverClock). */
  watchServerClock(serverClock: ServerClockLike): void {
    this.ctx.sources.serverClock = serverClock;
  }

  /**
   * Open orders, in-flight requests, kill switch, total PnL and quoting tokens from engine.status();
   * per-token positions and per-market PnL from engine.accounts().
   */
  watchEngine(engine: EngineLike): void {
    this.ctx.sources.engine = engine;
  }

  /** A book state change (BookTracker.onState): gaps and resyncs per token. */
  onBookState(e: BookStateEvent): void {
    const l = this.ctx.labels.ofToken(e.tokenId);
    const b = this.families.book;
    if (e.reason === "gap") b.gaps.inc(l);
    if (e.status === "resyncing" && e.previous !== undefined && e.previous !== "resyncing") {
      b.resyncs.inc({ ...l, reason: e.reason });
    }
  }

  /** A book frame applied (BookTracker.onBook): per-token updates; the tick of tick-to-order. */
  onBookUpdate(book: BookView): void {
    this.families.book.updates.inc(this.ctx.labels.ofToken(book.tokenId));
    this.tickToOrder.tick(book.tokenId, this.ctx.clock.now());
  }

  /** One exchange call: `endpoint` as `METHOD /route/template`, outcome ok/accepted/rejected/retryable/ambiguous/error. */
  observeHttp(endpoint: string, outcome: string, seconds: number): void {
    this.families.orders.http.observe({ endpoint, outcome }, Math.max(0, seconds));
  }

  /** A paced request (`METHOD /route/template`) waited `seconds` for its rate-budget token. */
  observeGateWait(endpoint: string, seconds: number): void {
    this.families.orders.gateWait.observe({ endpoint }, Math.max(0, seconds));
  }

  /** A placement carrying `clientOrderId` is being sent (fill roles). */
  onPlacementSending(clientOrderId: string): void {
    this.#roles.sending(clientOrderId);
  }

  /** Its answer: filled micro-shares at placement when accepted, undefined otherwise (fill roles). */
  onPlacementAnswered(clientOrderId: string, filledMicro: bigint | undefined): void {
    this.#roles.answered(clientOrderId, filledMicro);
  }

  /**
   * A fill of ours as the engine applied it (its `fill` event: the engine drops duplicates); its role
   * is attributed unless given. A backfilled fill (`source: "backfill"`) has its markouts timed from
   * its own time, so horizons already past count as missing. Its fee counts when booked (onFee).
   */
  onFill(fill: Fill, opts: FillOptions = {}): void {
    const role = opts.role ?? this.#roles.roleOf(fill);
    recordFill(this.ctx, this.families, this.#fills, fill, { role, source: opts.source ?? "stream" });
    this.#fees.fill(fill, role);
  }

  /**
   * A fee the engine booked for a fill of ours (its `fee` event: settled, or corrected), counted in
   * mm_fill_fees_usdc_total at the value the engine booked, under the role its fill was counted with.
   */
  onFee(fill: Fill, fee: FeeAmount): void {
    this.#fees.fee(fill, bookedFeePico(fill, fee));
  }

  /** A risk decision: counted by reason; wallet/market cancels are halts. */
  onRiskDecision(d: Pick<RiskDecision, "reason" | "action" | "scope" | "detail">): void {
    recordDecision(this.families, d);
  }

  /** A successful REST reconcile. */
  onReconcile(summary: ReconcileSummary): void {
    recordReconcile(this.families, summary);
    // Every fill the reconcile applied has been reported: a fee still waiting for one is an earlier run's.
    this.#fees.settleHeld();
  }

  /** A failed REST reconcile. */
  onReconcileFailed(reason: ReconcileReason): void {
    recordReconcileFailed(this.families, reason);
    this.#fees.settleHeld();
  }

  /** One engine event (same as `listener`). */
  onEngineEvent(e: EngineEvent): void {
    applyEngineEvent(this, e);
  }

  /** Fills whose markouts are still pending. */
  get pendingMarkouts(): number {
    return this.#markouts.pending;
  }

  /** Stops markout timers and listeners. The registry keeps its metrics (clear it if reused). */
  close(): void {
    this.#markouts.close();
    for (const off of this.#unsubscribe.splice(0)) off();
  }
}
