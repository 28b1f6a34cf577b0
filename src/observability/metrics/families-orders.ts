import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { MetricsContext } from "./sources.js";

/** Seconds; from sub-millisecond (in-process) to the client's 10 s timeout. */
export const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Up to a whole rate window: the longest a Retry-After holds the paced reads (GATE_MAX_BLOCK_MS). */
const GATE_WAIT_BUCKETS = [...WAIT_BUCKETS, 60];

/** Order, queue and latency families (see README "Metrics"). */
export function orderFamilies(registry: Registry, ctx: MetricsContext) {
  const registers = [registry];
  const { sources, labels, clock } = ctx;
  /** A gauge sampled at scrape time from every local rate budget (one field of its snapshot). */
  const budgetGauge = (name: string, help: string, field: "remaining" | "limit") =>
    new Gauge({
      name,
      help,
      labelNames: ["op", "bucket", "scope"] as const,
      registers,
      collect() {
        this.reset();
        for (const b of sources.budgets) {
          for (const s of b.snapshot(clock.now()))
            this.set({ op: s.op, bucket: s.bucket, scope: s.scope }, s[field]);
        }
      },
    });
  /** A gauge sampled at scrape time from the server's last X-RateLimit headers per endpoint. */
  const serverGauge = (name: string, help: string, field: "remaining" | "limit") =>
    new Gauge({
      name,
      help,
      labelNames: ["endpoint"] as const,
      registers,
      collect() {
        this.reset();
        for (const r of sources.rateLimits)
          for (const [endpoint, st] of r.entries()) this.set({ endpoint }, st[field]);
      },
    });
  return {
    clockOffset: new Gauge({
      name: "mm_exchange_clock_offset_seconds",
      help: "The exchange's clock minus ours, as estimated from X-Server-Time (positive: ours is behind); absent until an answer carried it.",
      registers,
      collect() {
        const offsetMs = sources.serverClock?.offsetMs;
        // A gauge without labels exports 0 by default: no sample at all until there is an estimate.
        if (offsetMs === undefined) this.remove({});
        else this.set(offsetMs / 1_000);
      },
    }),
    placed: new Counter({
      name: "mm_orders_placed_total",
      help: "Placements the exchange accepted, per market.",
      labelNames: ["market"] as const,
      registers,
    }),
    rejected: new Counter({
      name: "mm_orders_rejected_total",
      help: "Placements the exchange definitely refused, by error code (rate_limited, insufficient_funds…).",
      labelNames: ["code"] as const,
      registers,
    }),
    ambiguous: new Counter({
      name: "mm_orders_ambiguous_total",
      help: "Writes whose effect is unknown (timeout after sending, 5xx), by op; the reconciler resolves them.",
      labelNames: ["op"] as const,
      registers,
    }),
    cancels: new Counter({
      name: "mm_order_cancels_total",
      help: "Cancel outcomes, by result (done, covered by a cancel-all, not_sent, failed, ambiguous).",
      labelNames: ["result"] as const,
      registers,
    }),
    cancelRequests: new Counter({
      name: "mm_order_cancel_requests_total",
      help: "Cancels and cancel-alls the engine asked for, by reason (requote, superseded, risk_limit, kill_switch, book_stale, shutdown, orphan…); withdrawals of queued placements never sent count too (no request: also in mm_orders_dropped_total).",
      labelNames: ["reason"] as const,
      registers,
    }),
    cancelAlls: new Counter({
      name: "mm_order_cancel_alls_total",
      help: "Cancel-all outcomes, by scope (market, wallet) and result (done, failed, ambiguous).",
      labelNames: ["scope", "result"] as const,
      registers,
    }),
    dropped: new Counter({
      name: "mm_orders_dropped_total",
      help: "Queued placements never sent, by reason (superseded, shed, cancelled_unsent, cancel_all, closed).",
      labelNames: ["reason"] as const,
      registers,
    }),
    inFlight: new Gauge({
      name: "mm_orders_in_flight",
      help: "Requests of the order queue awaiting the exchange's answer.",
      registers,
      collect() {
        const e = sources.engine;
        if (e !== undefined) this.set(e.status().inFlight);
      },
    }),
    open: new Gauge({
      name: "mm_orders_open",
      help: "Orders of ours resting on the exchange (open or being cancelled), per market.",
      labelNames: ["market"] as const,
      registers,
      collect() {
        this.reset();
        for (const m of labels.marketValues()) this.set({ market: m }, 0);
        const live = sources.engine?.liveOrders?.();
        if (live === undefined) return;
        for (const o of live) {
          if (o.state === "open" || o.state === "cancelling")
            this.inc({ market: labels.ofToken(o.tokenId).market });
        }
      },
    }),
    backedOff: new Gauge({
      name: "mm_quote_levels_backed_off",
      help: "Quote levels held empty by the refused-placement back-off (waiting 1 → 30 s for the requote timer's next try), per market.",
      labelNames: ["market"] as const,
      registers,
      collect() {
        this.reset();
        for (const m of labels.marketValues()) this.set({ market: m }, 0);
        const levels = sources.engine?.status().backedOffLevels;
        if (levels === undefined) return;
        for (const [tokenId, n] of levels) this.inc({ market: labels.ofToken(tokenId).market }, n);
      },
    }),
    unknown: new Gauge({
      name: "mm_orders_unknown",
      help: "Orders in the unknown state (an ambiguous answer not yet resolved by the reconciler).",
      registers,
      collect() {
        const live = sources.engine?.liveOrders?.();
        if (live !== undefined) this.set(live.filter((o) => o.state === "unknown").length);
      },
    }),
    queueDepth: new Gauge({
      name: "mm_queue_depth",
      help: "Order-queue lanes: cancel_all, cancel, place, awaiting_order_id, in_flight.",
      labelNames: ["lane"] as const,
      registers,
    }),
    oldestPlacement: new Gauge({
      name: "mm_queue_oldest_placement_age_seconds",
      help: "How long the longest-waiting queued placement has waited unsent (since its level's first queued placement), 0 when none waits: a level starved by the place budget shows here while mm_queue_wait_seconds sees it only once sent.",
      registers,
      collect() {
        this.set((sources.engine?.status().oldestPlacementAgeMs ?? 0) / 1_000);
      },
    }),
    queueWait: new Histogram({
      name: "mm_queue_wait_seconds",
      help: "Time an intent waited in the order queue before it was sent, by op (a placement: since the first queued one of its quote it superseded).",
      labelNames: ["op"] as const,
      buckets: WAIT_BUCKETS,
      registers,
    }),
    queueSent: new Counter({
      name: "mm_queue_sent_total",
      help: "Requests the order queue sent, by op (place, cancel, cancel_all).",
      labelNames: ["op"] as const,
      registers,
    }),
    rateLimited: new Counter({
      name: "mm_queue_rate_limited_total",
      help: "Requests answered 429 rate_limited, by op.",
      labelNames: ["op"] as const,
      registers,
    }),
    shed: new Counter({
      name: "mm_queue_shed_total",
      help: "Calm requotes shed because the rate budget could not send them soon.",
      registers,
    }),
    superseded: new Counter({
      name: "mm_queue_superseded_total",
      help: "Queued placements replaced by a newer one for the same token, side and level.",
      registers,
    }),
    substitutions: new Counter({
      name: "mm_queue_cancel_all_substitutions_total",
      help: "Single cancels replaced by one cancel-all of their market.",
      registers,
    }),
    foreign: new Counter({
      name: "mm_queue_foreign_tokens_total",
      help: "Rate tokens charged to use the bot did not make (the server's headers disagreed), by op.",
      labelNames: ["op"] as const,
      registers,
    }),
    bucketRemaining: budgetGauge(
      "mm_queue_bucket_remaining",
      "Requests the local rate budget may send now, per op, bucket and scope (wallet, ip).",
      "remaining",
    ),
    bucketLimit: budgetGauge(
      "mm_queue_bucket_limit",
      "Limit each local rate bucket is paced at (requests per window), per op, bucket and scope: the rate-limit table's, or lower while the exchange's X-RateLimit-Limit reports lower.",
      "limit",
    ),
    serverRemaining: serverGauge(
      "mm_exchange_rate_limit_remaining",
      "X-RateLimit-Remaining of the last answer, per endpoint (the server's view of the budget).",
      "remaining",
    ),
    serverLimit: serverGauge(
      "mm_exchange_rate_limit_limit",
      "X-RateLimit-Limit of the last answer, per endpoint.",
      "limit",
    ),
    tickToOrder: new Histogram({
      name: "mm_tick_to_order_seconds",
      help: "From the book update that triggered a quoting step to its placement leaving for the exchange.",
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    http: new Histogram({
      name: "mm_http_request_duration_seconds",
      help: "Exchange API calls (retries and a paced read's wait for the rate budget included), by endpoint and outcome (ok, accepted, rejected, retryable, ambiguous, error).",
      labelNames: ["endpoint", "outcome"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    gateWait: new Histogram({
      name: "mm_http_gate_wait_seconds",
      help: "Wait of a paced request (the order and portfolio reads) for its rate-budget token before it was sent, by endpoint.",
      labelNames: ["endpoint"] as const,
      buckets: GATE_WAIT_BUCKETS,
      registers,
    }),
  };
}

/** The families orderFamilies returns. */
export type OrderFamilies = ReturnType<typeof orderFamilies>;
