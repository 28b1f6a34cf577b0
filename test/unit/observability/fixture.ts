import { Registry } from "prom-client";
import { BookTracker } from "../../../src/book/tracker.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Fill } from "../../../src/core/trading.js";
import type { EngineStatus } from "../../../src/engine/engine-api.js";
import { RateLimitTracker } from "../../../src/exchange/rate-limit-state.js";
import { ServerClock } from "../../../src/exchange/server-clock.js";
import type { PlaceIntent } from "../../../src/execution/intents.js";
import { Inventory } from "../../../src/execution/inventory.js";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import { zeroGatewayCounters } from "../../../src/gateway/counters.js";
import { createMetrics } from "../../../src/observability/metrics.js";
import { tokenDecision, walletDecision } from "../../../src/risk/decision.js";

export const T0 = 1_700_000_000_000;

/** Three binary markets; with a cap of 2 the third is reported as `other`. */
export const TOKENS = [
  { tokenId: "1001", marketId: "m1", outcome: "YES", feeTakerBps: 200 },
  { tokenId: "1002", marketId: "m1", outcome: "NO", feeTakerBps: 200 },
  { tokenId: "2001", marketId: "m2", outcome: "YES", feeTakerBps: 200 },
  { tokenId: "2002", marketId: "m2", outcome: "NO", feeTakerBps: 200 },
  { tokenId: "3001", marketId: "m3", outcome: "YES", feeTakerBps: 200 },
  { tokenId: "3002", marketId: "m3", outcome: "NO", feeTakerBps: 200 },
] as const;
export const SLUGS: Record<string, string> = { m1: "arg-win", m2: "bra-win", m3: "fra-win" };

const level = (price: string, size: string) => ({ price, size });

export function intent(tokenId: string, marketId: string, cid: string): PlaceIntent {
  return {
    kind: "place",
    tokenId,
    marketId,
    clientOrderId: cid,
    quote: { side: "buy", level: 0, priceMicro: 500_000, sizeMicro: 10_000_000n },
    urgencyTicks: 5,
  };
}

export function fill(
  tokenId: string,
  cid: string,
  side: "buy" | "sell",
  price: number,
  shares: bigint,
): Fill {
  return {
    tradeId: `t-${cid}-${side}-${price}`,
    orderId: `o-${cid}`,
    clientOrderId: cid,
    tokenId,
    side,
    priceMicro: price,
    sizeMicro: shares * 1_000_000n,
    tsMs: T0,
  };
}

/**
 * Metrics on their own registry and a SimClock at T0, at most 2 market labels, wired to nothing:
 * what a test feeds by hand. Default Node metrics off unless asked for.
 */
export function bareMetrics(opts: { defaultMetrics?: boolean } = {}) {
  const clock = new SimClock(T0);
  const registry = new Registry();
  const metrics = createMetrics({
    registry,
    maxMarketLabels: 2,
    clock,
    defaultMetrics: opts.defaultMetrics ?? false,
  });
  return { clock, registry, metrics };
}

/**
 * Metrics on a SimClock wired to real components (BookTracker, RateBudget, RateLimitTracker, gateway
 * counters) and a hand-written engine over a real Inventory (what the metrics read positions and PnL
 * from), then driven through one of everything.
 */
export function drivenMetrics(opts: { defaultMetrics?: boolean } = {}) {
  const { clock, registry, metrics } = bareMetrics(opts);
  metrics.registerMarkets(TOKENS, (id) => SLUGS[id]);
  const requested: string[] = [];
  const tracker = new BookTracker({
    clock,
    port: { requestSnapshot: (t) => requested.push(t) > 0 },
    config: { stall: { enabled: false } },
  });
  metrics.watchBookTracker(tracker);
  const gateway = { counters: zeroGatewayCounters() };
  metrics.watchGateway("market", gateway);
  metrics.watchRateBudget(new RateBudget({ rateLimitPerMin: 600 }));
  const limits = new RateLimitTracker();
  limits.update("POST /api/orders/place", { limit: 50, remaining: 42, resetAt: T0 + 1_000, observedAt: T0 });
  metrics.watchRateLimits(limits);
  // One answer with a 10 ms round trip, stamped 2.5 s ahead of our clock at its midpoint.
  const serverClock = new ServerClock(clock);
  serverClock.observe(T0 - 10, T0, T0 - 5 + 2_500);
  metrics.watchServerClock(serverClock);
  const status: EngineStatus = {
    started: true,
    reconciled: true,
    quotingTokens: 3,
    openOrders: 2,
    inFlight: 1,
    killSwitch: true,
    pnlMicro: -1_500_000n,
    drawdownMicro: 1_500_000n,
  };
  // The engine's own accounts: it applies each fill (and corrects drifts) before telling the listener,
  // and reports each fee it attaches (a `fee` event), as the engine wires its Inventory.
  const inventory = new Inventory({
    onFee: (f, fee) => metrics.listener({ type: "fee", atMs: clock.now(), fill: f, fee }),
  });
  metrics.watchEngine({
    status: () => status,
    accounts: () => inventory.tokens().map((tokenId) => ({ tokenId, account: inventory.account(tokenId) })),
    liveOrders: () => [
      { tokenId: "1001", state: "open" },
      { tokenId: "3001", state: "cancelling" },
      { tokenId: "2001", state: "unknown" },
    ],
  });

  // Books: three snapshots, then a gap on 1001 (it resyncs) and a delta on 2001.
  tracker.onEvent({
    type: "book_snapshot",
    tokenId: "1001",
    seq: 1,
    bids: [level("0.50", "10")],
    asks: [level("0.52", "7")],
  });
  tracker.onEvent({
    type: "book_snapshot",
    tokenId: "2001",
    seq: 1,
    bids: [level("0.30", "10")],
    asks: [level("0.35", "7")],
  });
  tracker.onEvent({
    type: "book_snapshot",
    tokenId: "3001",
    seq: 1,
    bids: [level("0.60", "1")],
    asks: [level("0.61", "1")],
  });
  clock.advanceBy(5_000);
  tracker.onEvent({
    type: "book_delta",
    tokenId: "2001",
    seq: 2,
    prevSeq: 1,
    changes: [{ side: "buy", price: "0.31", size: "4" }],
  });
  tracker.onEvent({ type: "book_delta", tokenId: "1001", seq: 5, prevSeq: 3, changes: [] });

  gateway.counters.framesByType.book_delta = 5;
  gateway.counters.malformed.not_json = 1;
  gateway.counters.dropped.unsolicited = 1;
  gateway.counters.subscriptionRefusals["user_fills:not_accepted"] = 1;
  gateway.counters.subscriptionsLost.token_book = 1;
  gateway.counters.connectionsOpen = 1;
  gateway.counters.subscriptionChecksActive = 1;
  gateway.counters.connectionsOpened = 2;
  gateway.counters.reconnects = 1;

  // Queue hooks as the OrderQueue calls them.
  const q = metrics.queueMetrics;
  q.depth?.({ cancelAll: 0, cancel: 1, place: 3, awaitingOrderId: 0, inFlight: 2 });
  q.waited?.("place", 120);
  q.sent?.("place");
  q.rateLimited?.("place", 1_000);
  q.shed?.(intent("2001", "m2", "x-shed"));
  q.superseded?.(intent("2001", "m2", "x-sup"));
  q.substituted?.("m1", 4);
  q.foreignUse?.("cancel", 2);

  // Engine events: a tick-driven quote, its placement and every outcome kind.
  const on = metrics.listener;
  metrics.onBookUpdate(tracker.book("2001") as NonNullable<ReturnType<typeof tracker.book>>);
  const at = clock.now();
  on({ type: "quote", atMs: at, tokenId: "2001", desired: 2, places: 2, cancels: 0 });
  on({ type: "place_sent", atMs: at + 3, tokenId: "2001", clientOrderId: "c1" });
  on({
    type: "place_outcome",
    atMs: at,
    intent: intent("2001", "m2", "c1"),
    outcome: "accepted",
    code: undefined,
    latencyMs: 4,
  });
  on({
    type: "place_outcome",
    atMs: at,
    intent: intent("3001", "m3", "c2"),
    outcome: "accepted",
    code: undefined,
    latencyMs: 4,
  });
  on({
    type: "place_outcome",
    atMs: at,
    intent: intent("2001", "m2", "c3"),
    outcome: "rejected",
    code: "insufficient_funds",
    latencyMs: 4,
  });
  on({
    type: "place_outcome",
    atMs: at,
    intent: intent("2001", "m2", "c4"),
    outcome: "ambiguous",
    code: "request_timeout",
    latencyMs: 4,
  });
  on({ type: "place_dropped", atMs: at, intent: intent("2001", "m2", "c5"), reason: "shed" });
  on({ type: "cancel_outcome", atMs: at, clientOrderId: "c1", outcome: "done", reason: "requote" });
  on({ type: "cancel_outcome", atMs: at, clientOrderId: "c1", outcome: "ambiguous", reason: "requote" });
  on({ type: "cancel_all_outcome", atMs: at, marketId: undefined, outcome: "done", reason: "kill_switch" });

  // Fills: a taker buy while its placement is in flight, then a maker sell of a resting order.
  const applied = (f: Fill, source: "stream" | "backfill") => {
    inventory.applyFill(f);
    on({ type: "fill", atMs: at, fill: f, source, positionMicro: 0n, pnlMicro: 0n });
  };
  metrics.onPlacementSending("f1");
  applied(fill("2001", "f1", "buy", 300_000, 10n), "stream");
  metrics.onPlacementAnswered("f1", 10_000_000n);
  metrics.onPlacementAnswered("f2", 0n);
  const makerSell = fill("2001", "f2", "sell", 330_000, 4n);
  applied(makerSell, "stream");
  applied(fill("3001", "f9", "buy", 600_000, 1n), "backfill");
  // The maker sell's fee settles (0.002 USDC); the taker buy's has not yet.
  inventory.setFee(makerSell.tradeId, makerSell.orderId, { asset: "usdc", amountMicro: 2_000n });

  inventory.correct("2002", 5_000_000n, at); // the drift the reconcile below reports as corrected
  on({ type: "decision", atMs: at, decision: walletDecision("error_rate_halt") });
  on({ type: "decision", atMs: at, decision: tokenDecision("book_stale", "1001", "m1") });
  on({ type: "oversize_dropped", atMs: at, tokenId: "1001", marketId: "m1", size: "300", maxSize: "250" });
  on({
    type: "reconcile",
    atMs: at,
    summary: {
      reason: "periodic",
      atMs: at,
      tookMs: 40,
      updates: 2,
      orphans: 1,
      adopted: 0,
      pending: 1,
      backfilled: 1,
      tradePagesCapped: true,
      searchFailures: 2,
      searchStuck: 1,
      lookupStuck: 2,
      drifts: [
        {
          tokenId: "2002",
          localMicro: 0n,
          remoteMicro: 5_000_000n,
          driftMicro: 5_000_000n,
          sinceMs: 0,
          runSinceMs: 0,
          runMs: 45_000,
        },
      ],
      corrections: [
        {
          tokenId: "2002",
          localMicro: 0n,
          remoteMicro: 5_000_000n,
          driftMicro: 5_000_000n,
          sinceMs: 0,
          runSinceMs: 0,
          runMs: 45_000,
        },
      ],
    },
  });
  on({ type: "reconcile_failed", atMs: at, reason: "ambiguous", error: new Error("boom") });
  metrics.observeHttp("POST /api/orders/place", "accepted", 0.004);
  metrics.observeGateWait("GET /api/orders/open", 1.5);
  return { clock, registry, metrics, tracker, gateway, requested };
}
