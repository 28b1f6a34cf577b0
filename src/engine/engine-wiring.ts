import { monotonicSource } from "../core/clock.js";
import type { Fill } from "../core/trading.js";
import type { PlaceOrderOutcome } from "../exchange/place-outcome.js";
import type { Intent } from "../execution/intents.js";
import { Inventory } from "../execution/inventory.js";
import type { FeeAmount } from "../execution/inventory-math.js";
import { OrderManager } from "../execution/order-manager.js";
import { markPlacementSent } from "../execution/order-manager-outcomes.js";
import { OrderQueue } from "../execution/order-queue.js";
import type { OrderQueueOptions, QueueReport } from "../execution/order-queue-types.js";
import type { TrackedOrder } from "../execution/order-state.js";
import { OrderStore } from "../execution/order-store.js";
import { RateBudget } from "../execution/rate-budget.js";
import { budgetGate } from "../execution/rate-budget-wait.js";
import { RestoredFees } from "../execution/restored-fees.js";
import type { RiskDecision } from "../risk/decision.js";
import { emitCancelRequests, gateCancelReason } from "./cancel-reasons.js";
import type { EngineCore } from "./engine-core.js";
import { DecisionLog } from "./engine-decisions.js";
import type { EngineDeps, EngineRestore, ResolvedEngineOptions } from "./engine-deps.js";
import type { EngineEvent } from "./engine-events.js";
import { PositionBook } from "./engine-positions.js";
import { settleListed } from "./engine-settlement.js";
import { TokenTable } from "./engine-tokens.js";
import { FeeRecheck } from "./fee-recheck.js";
import { OrderRenewal } from "./order-renewal.js";
import { EXCHANGE_UNAVAILABLE } from "./platform-watch.js";
import type { MarketRecordStatus } from "./ports.js";
import { RequoteTimer } from "./requote-timer.js";
import { ResyncGroup } from "./resync-group.js";
import { SignatureCheck } from "./signature-check.js";
import { StrategyHealth } from "./strategy-health.js";

/** What the engine object supplies to the core: its switches and schedulers. */
export interface CoreHooks {
  quotingEnabled(): boolean;
  requote(tokenId: string): void;
  reconcileSoon(reason: "ambiguous" | "reconnect" | "unresolved"): void;
  enforce(decision: RiskDecision | undefined): void;
  marketRefused(marketId: string): void;
  recordSettled(marketId: string, record: MarketRecordStatus, after: string): void;
  orderError(code: string): void;
  /** A placement was just answered 503 `exchange_unavailable` (it may be re-sent). */
  suspectFrozen(): void;
  onReport(report: QueueReport): void;
}

/**
 * Wires the execution objects over the deps: order store, inventory, order manager, rate budget and
 * the order queue. The queue's port marks each placement `sent` in the store at the instant it is
 * written (so the order manager never supersedes a request already on the wire) and reports it to
 * the listener (where tick-to-order latency ends).
 */
export function buildCore(deps: EngineDeps, options: ResolvedEngineOptions, hooks: CoreHooks): EngineCore {
  const { clock, exchange, risk, logger: log, listener } = deps;
  const emit = (e: EngineEvent) => {
    try {
      listener?.(e);
    } catch (err) {
      log.error({ err, event: e.type }, "engine listener failed");
    }
  };
  const tokens = new TokenTable(deps.markets, deps.strategyFor, options.volatility);
  for (const s of tokens.slots()) risk.watch(s.market);
  // Its unknown-order grace on elapsed time where the wall clock can step (LiveClock).
  // Any change of a token's orders (a cancel answered, a reject, a prune) re-reads its worst case
  // for the other tokens' caps (PositionBook.exposure); the book is built below.
  let ordersMoved: (tokenId: string) => void = () => undefined;
  const store = new OrderStore({ monotonic: monotonicSource(clock), onChange: (t) => ordersMoved(t) });
  // A fee is attached inside the reconcile's backfill (mid-run): only noted here, acted on once the
  // backfill is over (afterFees), like the fills it backfills.
  const feeTokens = new Set<string>();
  const onFee = (fill: Fill, fee: FeeAmount) => {
    feeTokens.add(fill.tokenId);
    emit({ type: "fee", atMs: clock.now(), fill, fee });
  };
  const inventory = new Inventory({ onFee });
  const seeded = seedInventory(inventory, tokens, options.restore);
  // Only fills folded into a seeded account can take their fee alone.
  const inSeeded = new Set(seeded);
  const pending = (options.restore.feePending ?? []).filter((f) => inSeeded.has(f.tokenId));
  // Fills of the restored orders made while mm was down: applied on the engine's tokens, handed to
  // the journal alone on the others (their accounts are not this run's).
  const restored = new RestoredFees(inventory, pending, onFee, {
    orders: options.restore.orders,
    journaled: options.restore.orderFills ?? [],
    sinceMs: options.restore.ordersSinceMs,
    tokens: options.restore.orderTokens ?? new Map(),
    traded: (t) => tokens.get(t) !== undefined,
  });
  // A 429's Retry-After beyond any rate window holds an op 60 s at most, with a warning, whoever
  // blocks it: the queue's writes or the gated reads (RateBudget.block).
  const budget = new RateBudget({
    rateLimitPerMin: options.rateLimitPerMin,
    log,
    ...budgetOptions(options.queue),
  });
  // The reconciler's order reads (GET /api/orders/*) and the portfolio reads of the reconciler and
  // the start (GET /api/me/positions, /api/me/trades pages) — every page, every retry — wait for the
  // budget's order_reads and me_reads tokens, so a burst of reconciles stays within the wallet's
  // limits instead of drawing 429s; their answers' rate-limit headers and 429s feed the budget back
  // (another process reading the same wallet).
  exchange.gateRequests?.(budgetGate(budget, clock, ["order_reads", "me_reads"]));
  // The first 503 of a freeze is seen here, before the queue re-sends the placement: the platform
  // status is read at once (platform-watch.ts). Only a port that can read the status is watched
  // (not the backtest's venue, whose answers then keep their exact timing).
  const watchPlace =
    exchange.platformFrozen === undefined
      ? undefined
      : (outcome: PlaceOrderOutcome): PlaceOrderOutcome => {
          if (outcome.kind === "rejected" && outcome.code === EXCHANGE_UNAVAILABLE) hooks.suspectFrozen();
          return outcome;
        };
  const queue = new OrderQueue({
    clock,
    port: {
      place: (req) => {
        const o = req.clientOrderId === undefined ? undefined : store.get(req.clientOrderId);
        if (o?.state === "placing" && o.queued) markPlacementSent(store, o.clientOrderId, clock.now());
        const clientOrderId = req.clientOrderId ?? "";
        emit({
          type: "place_sent",
          atMs: clock.now(),
          tokenId: o?.tokenId ?? "",
          clientOrderId,
          ...(o === undefined ? {} : { order: sentOrder(o) }),
        });
        return watchPlace === undefined ? exchange.place(req) : exchange.place(req).then(watchPlace);
      },
      cancel: (orderId) => exchange.cancel(orderId),
      cancelAll: (marketId) => exchange.cancelAll(marketId),
    },
    // The market as held now: a fee re-read after a bad_signature (fee-recheck.ts) signs the next one.
    sign: (i) => deps.sign(i, tokens.get(i.tokenId)?.market),
    budget,
    onReport: (r) => hooks.onReport(r),
    restingOrders: (marketId) => restingIn(store, tokens, marketId),
    // A placement answered "retry later" is sent again only if the engine still wants it.
    stillDesired: (i) =>
      hooks.quotingEnabled() &&
      store.get(i.clientOrderId)?.state === "placing" &&
      risk.mustCancel(i.tokenId, clock.now()) === undefined,
    // Queued again in the store: the next step replaces it at a new price, or a gate withdraws it;
    // the old request must not go out when the Retry-After ends onto a book that moved.
    onRequeued: (i) => {
      store.apply(i.clientOrderId, { kind: "requeued" }, clock.now());
      hooks.requote(i.tokenId);
    },
    ...(deps.rateLimitState === undefined ? {} : { rateLimitState: deps.rateLimitState }),
    ...(deps.queueMetrics === undefined ? {} : { metrics: deps.queueMetrics }),
    ...queueOptions(options.queue),
  });
  const positions = new PositionBook(
    inventory,
    [...tokens.slots()].map((s) => s.market),
    (t) => restored.sharesOut(t),
    store,
  );
  ordersMoved = (t) => positions.ordersMoved(t);
  for (const t of seeded) positions.refresh(t);
  // A market listed settled at start (a restart after its resolution) counts nothing, as after a
  // push, and its tokens are marked at the record's payouts, or else at the journal's last mark.
  settleListed(
    positions,
    [...tokens.slots()].map((s) => s.market),
    options.restore.marks,
    log,
  );
  if (seeded.length > 0) {
    log.info(
      { tokens: seeded.length, feesPending: pending.length },
      "inventory restored from an earlier run",
    );
  }
  const renewal = new OrderRenewal(
    clock,
    { lifetimeSeconds: options.orderExpirySeconds, leadMs: options.orderRenewLeadMs },
    tokens,
    store,
    (t) => hooks.requote(t),
  );
  const fees = new FeeRecheck({
    clock,
    exchange,
    log,
    tokens,
    risk,
    enforce: (d) => hooks.enforce(d),
    quotingEnabled: () => hooks.quotingEnabled(),
    requote: (t) => hooks.requote(t),
  });
  return {
    clock,
    exchange,
    log,
    options,
    risk,
    store,
    inventory,
    restored,
    budget,
    om: new OrderManager({
      session: options.session,
      store,
      tolerance: options.tolerance,
      firstSeq: firstSeqAt(clock.now()),
      // Off (no expiry: a backtest), the diff is exactly what it was.
      ...(renewal.enabled ? { expiring: (o: TrackedOrder, now: number) => renewal.expiring(o, now) } : {}),
    }),
    queue,
    tokens,
    positions,
    decisions: new DecisionLog(
      log,
      emit,
      (t) => tokens.get(t)?.everSynced === true,
      new ResyncGroup(clock, log),
      (m) => tokens.slugOf(m),
    ),
    strategies: new StrategyHealth(clock, log, emit, options.strategySlowMs),
    feeTokens,
    emit,
    quotingEnabled: () => hooks.quotingEnabled(),
    requote: (t) => hooks.requote(t),
    requoteAll: () => {
      for (const t of tokens.ids()) hooks.requote(t);
    },
    requoteTimer: new RequoteTimer(clock, options.requoteIntervalMs, tokens, (t) => hooks.requote(t)),
    orderRenewal: renewal,
    reconcileSoon: (reason) => hooks.reconcileSoon(reason),
    send: (intents: readonly Intent[]) => {
      // Counted as asked for (mm_order_cancel_requests_total), before the queue may answer any.
      emitCancelRequests(intents, clock.now(), emit);
      queue.enqueueAll(intents);
    },
    enforce: (d) => hooks.enforce(d),
    marketRefused: (marketId) => hooks.marketRefused(marketId),
    signatureRefused: (marketId) => fees.refused(marketId),
    signatures: new SignatureCheck(log, deps.signedOrders, (m) => tokens.slugOf(m)),
    recordSettled: (marketId, record, after) => hooks.recordSettled(marketId, record, after),
    orderError: (code) => hooks.orderError(code),
  };
}

/**
 * Acts on a risk decision taken on an event, after logging it: the wallet scope (kill switch, platform
 * frozen, error-rate halt) sends the kill switch (one wallet-wide cancel-all, queued placements
 * dropped); the market scope cancels the market's quotes; the token scope the token's.
 */
export function enforceDecision(core: EngineCore, d: RiskDecision): void {
  const { clock, om, decisions } = core;
  const now = clock.now();
  decisions.event(d, now);
  if (d.scope === "wallet") {
    // A halt that ends with time is requoted at its end by the engine's HaltEndWatch.
    core.send(om.killAll(gateCancelReason(d), now));
  } else if (d.scope === "market" && d.marketId !== undefined) {
    core.send(om.cancelMarket(d.marketId, gateCancelReason(d), now));
  } else if (d.scope === "token" && d.tokenId !== undefined) {
    core.send(om.cancelAllFor(d.tokenId, gateCancelReason(d), now));
  }
}

/**
 * The first clientOrderId sequence number of a run started at `nowMs`: the start instant in µs. A
 * fixed `engine.session` tag is legal, and the exchange answers a repeated clientOrderId with the
 * first placement's stored result (deduplication): a restarted run must never mint an id of the run
 * before. Counting from the clock keeps every id above those of any earlier run unless that run
 * placed more than 1,000 orders per ms of its life; on a SimClock it stays deterministic. Exact as a
 * number until the year 2255 (2^53 µs).
 */
export function firstSeqAt(nowMs: number): number {
  return Math.max(1, Math.floor(nowMs) * 1_000);
}

/** Seeds the accounts an earlier run left for the engine's own tokens; returns the tokens seeded. */
function seedInventory(inventory: Inventory, tokens: TokenTable, restore: EngineRestore): string[] {
  const seeded: string[] = [];
  for (const [tokenId, account] of restore.accounts) {
    if (tokens.get(tokenId) === undefined) continue;
    inventory.seed(tokenId, account);
    seeded.push(tokenId);
  }
  return seeded;
}

/** The placement's terms, for the place_sent event. */
function sentOrder(o: TrackedOrder): NonNullable<Extract<EngineEvent, { type: "place_sent" }>["order"]> {
  return {
    marketId: o.marketId,
    side: o.side,
    level: o.level,
    priceMicro: o.priceMicro,
    sizeMicro: o.sizeMicro,
  };
}

/** Every non-terminal order of ours in a market (the engine only places on its own tokens). */
function restingIn(store: OrderStore, tokens: TokenTable, marketId: string): string[] {
  const out: string[] = [];
  for (const t of tokens.tokensOf(marketId)) for (const o of store.live(t)) out.push(o.clientOrderId);
  return out;
}

type QueueSettings = ResolvedEngineOptions["queue"];

function budgetOptions(q: QueueSettings): { marginMs?: number; ipLimitFactor?: number } {
  return {
    ...(q.marginMs === undefined ? {} : { marginMs: q.marginMs }),
    ...(q.ipLimitFactor === undefined ? {} : { ipLimitFactor: q.ipLimitFactor }),
  };
}

type QueueTuning = Pick<
  OrderQueueOptions,
  | "concurrency"
  | "shedHorizonMs"
  | "calmUrgencyTicks"
  | "maxCancelAttempts"
  | "defaultRetryAfterMs"
  | "cancelAllAvailable"
>;

function queueOptions(q: QueueSettings): QueueTuning {
  const out: { -readonly [K in keyof QueueTuning]: QueueTuning[K] } = {};
  if (q.concurrency !== undefined) out.concurrency = q.concurrency;
  if (q.shedHorizonMs !== undefined) out.shedHorizonMs = q.shedHorizonMs;
  if (q.calmUrgencyTicks !== undefined) out.calmUrgencyTicks = q.calmUrgencyTicks;
  if (q.maxCancelAttempts !== undefined) out.maxCancelAttempts = q.maxCancelAttempts;
  if (q.defaultRetryAfterMs !== undefined) out.defaultRetryAfterMs = q.defaultRetryAfterMs;
  if (q.cancelAllAvailable !== undefined) out.cancelAllAvailable = q.cancelAllAvailable;
  return out;
}
