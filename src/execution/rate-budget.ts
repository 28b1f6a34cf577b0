import type { RateLimitScope } from "../exchange/rate-limits.js";
import { rateLimitsFor } from "../exchange/rate-limits.js";
import {
  ABSENT_RETRY_AFTER_MS,
  GATE_MAX_BLOCK_MS,
  MIN_BLOCK_MS,
  OverLongRetryAfter,
  RateLimitStreak,
  type RetryAfterLog,
} from "./rate-budget-hold.js";
import { headerBucket, type PaceLog, type ServerRateView } from "./reported-limit.js";
import { TokenBucket } from "./token-bucket.js";

/**
 * The requests the engine paces: the order queue's writes, the reconciler's order reads, and the
 * portfolio reads of the reconciler and the start (GET /api/me/positions, /api/me/trades: the
 * wallet's me-reads bucket, which they share with /api/me/balances and the other /api/me reads).
 */
export type BudgetOp = "place" | "cancel" | "cancel_all" | "order_reads" | "me_reads";

/** The endpoint (as the HTTP client names it) whose table rows and headers govern each op. */
export const BUDGET_ENDPOINTS: Readonly<Record<BudgetOp, { method: "GET" | "POST"; route: string }>> = {
  place: { method: "POST", route: "/api/orders/place" },
  cancel: { method: "POST", route: "/api/orders/cancel" },
  cancel_all: { method: "POST", route: "/api/orders/cancel-all" },
  order_reads: { method: "GET", route: "/api/orders/open" },
  me_reads: { method: "GET", route: "/api/me/positions" },
};

/** Endpoint key of an op as RateLimitTracker stores it, e.g. `POST /api/orders/place`. */
export function endpointOf(op: BudgetOp): string {
  const e = BUDGET_ENDPOINTS[op];
  return `${e.method} ${e.route}`;
}

const opCache = new Map<string, BudgetOp | undefined>();

/**
 * The op whose buckets a request spends: the one whose endpoint the rate-limit table puts in exactly
 * the same buckets (GET /api/orders/{id}, /history, /{id}/fills… share `order_reads` with
 * /api/orders/open); undefined for a request no op budgets. `route` is a path or route template.
 * @example budgetOpOf("GET", "/api/orders/{id}") // "order_reads"
 * @example budgetOpOf("GET", "/api/me/trades") // "me_reads"
 * @example budgetOpOf("GET", "/api/me/withdrawals") // undefined
 */
export function budgetOpOf(method: string, route: string): BudgetOp | undefined {
  const key = `${method.toUpperCase()} ${route}`;
  if (opCache.has(key)) return opCache.get(key);
  const buckets = bucketKey(method, route);
  let found: BudgetOp | undefined;
  if (buckets !== "") {
    for (const op of Object.keys(BUDGET_ENDPOINTS) as BudgetOp[]) {
      const e = BUDGET_ENDPOINTS[op];
      if (bucketKey(e.method, e.route) === buckets) found = op;
    }
  }
  opCache.set(key, found);
  return found;
}

/** The table's buckets that count a request, as one comparable string ("" when none). */
function bucketKey(method: string, route: string): string {
  return rateLimitsFor(method, route)
    .map((a) => `${a.rule.scope}:${a.rule.bucket}`)
    .sort()
    .join(",");
}

export interface RateBudgetOptions {
  /** The partner's rateLimitPerMin (baseline 600): scales every wallet-scoped limit. */
  rateLimitPerMin: number;
  /** Arrival-jitter allowance per bucket (see TokenBucket.marginMs). Default 50 ms. */
  marginMs?: number;
  /**
   * Multiplier on IP-scoped limits for a whitelisted IP (spec: operators lift IP limits per IP).
   * Default 1. Only set it to what the operator granted.
   */
  ipLimitFactor?: number;
  /** IP buckets shared with other wallets' budgets in this process (one IP, several wallets). */
  shareIpWith?: RateBudget;
  /**
   * Longest one {@link RateBudget.block} holds an op, ms (default GATE_MAX_BLOCK_MS, 60 s). It wins
   * over MIN_BLOCK_MS: a cap set below it is the longest any hold lasts (0: a 429 holds nothing).
   */
  maxBlockMs?: number;
  /**
   * Told, at warn and once per op and episode, of a hold asked beyond maxBlockMs, and at info of each
   * change of a bucket's pace by the exchange's headers (a pino Logger fits).
   */
  log?: (RetryAfterLog & Partial<PaceLog>) | undefined;
}

/** One bucket as metrics see it. */
export interface BucketSnapshot {
  op: BudgetOp;
  bucket: string;
  scope: RateLimitScope;
  limit: number;
  windowMs: number;
  remaining: number;
  blockedUntil: number;
}

interface Slot {
  readonly bucket: string;
  readonly scope: RateLimitScope;
  readonly tb: TokenBucket;
}

/**
 * Every rate bucket mm's trading path spends, built from the rate-limit table (src/exchange/rate-limits.ts)
 * as data: per wallet place 50/s, cancel 20/s, cancel-all 5/s, order reads 600/60 s, portfolio reads
 * 1800/60 s (scaled by rateLimitPerMin / 600), per IP place 1000/60 s. An op may send only when every bucket that applies to
 * it has a token (the server checks both scopes).
 *
 * Smoothing: a 1 s bucket may be spent in one burst; a longer window is paced at limit / window with a
 * burst of ten seconds' worth, so a 60 s IP budget is not spent in the first seconds and then idle.
 * @example
 * const budget = new RateBudget({ rateLimitPerMin: 600 });
 * if (budget.available("place", clock.now()) > 0) budget.reserve("place", clock.now());
 */
export class RateBudget {
  readonly #slots = new Map<BudgetOp, Slot[]>();
  readonly #ipBuckets: Map<string, TokenBucket>;
  readonly #holds = new Map<BudgetOp, OverLongRetryAfter>();
  readonly #streaks = new Map<BudgetOp, RateLimitStreak>();
  readonly #maxBlockMs: number | undefined;
  readonly #log: (RetryAfterLog & Partial<PaceLog>) | undefined;

  constructor(opts: RateBudgetOptions) {
    if (opts.maxBlockMs !== undefined && !(Number.isFinite(opts.maxBlockMs) && opts.maxBlockMs >= 0))
      throw new RangeError(`maxBlockMs must be a finite number ≥ 0, got ${opts.maxBlockMs}`);
    this.#maxBlockMs = opts.maxBlockMs;
    this.#log = opts.log;
    const margin = opts.marginMs ?? 50;
    const ipFactor = opts.ipLimitFactor ?? 1;
    this.#ipBuckets = opts.shareIpWith === undefined ? new Map() : opts.shareIpWith.#ipBuckets;
    for (const op of Object.keys(BUDGET_ENDPOINTS) as BudgetOp[]) {
      const e = BUDGET_ENDPOINTS[op];
      const applied = rateLimitsFor(e.method, e.route, { rateLimitPerMin: opts.rateLimitPerMin });
      const slots = applied.map((a): Slot => {
        const limit = a.rule.scope === "ip" ? Math.max(1, Math.floor(a.limit * ipFactor)) : a.limit;
        const make = () =>
          new TokenBucket({
            limit,
            windowMs: a.windowMs,
            marginMs: margin,
            burst: burstFor(limit, a.windowMs),
          });
        if (a.rule.scope === "wallet") return { bucket: a.rule.bucket, scope: "wallet", tb: make() };
        let tb = this.#ipBuckets.get(a.rule.bucket);
        if (tb === undefined) {
          tb = make();
          this.#ipBuckets.set(a.rule.bucket, tb);
        }
        return { bucket: a.rule.bucket, scope: "ip", tb };
      });
      this.#slots.set(op, slots);
    }
  }

  /** Sends of `op` allowed at `now`: the minimum over its buckets. */
  available(op: BudgetOp, now: number): number {
    let n = Number.POSITIVE_INFINITY;
    for (const s of this.#of(op)) n = Math.min(n, s.tb.available(now));
    return n;
  }

  /** Earliest time ≥ now at which `op` may send once (Infinity while only an answer can free a token). */
  nextAvailableAt(op: BudgetOp, now: number): number {
    let at = now;
    for (const s of this.#of(op)) at = Math.max(at, s.tb.nextAvailableAt(now));
    return at;
  }

  /** Estimated sends of `op` possible within the next `horizonMs`. */
  capacityWithin(op: BudgetOp, now: number, horizonMs: number): number {
    let n = Number.POSITIVE_INFINITY;
    for (const s of this.#of(op)) n = Math.min(n, s.tb.capacityWithin(now, horizonMs));
    return n;
  }

  /** Per-window limit of `op`'s tightest bucket in requests per second (for cost comparisons). */
  ratePerSecond(op: BudgetOp): number {
    let r = Number.POSITIVE_INFINITY;
    for (const s of this.#of(op)) r = Math.min(r, (s.tb.capacity * 1000) / s.tb.windowMs);
    return r;
  }

  /** Holds a token in every bucket of `op`. Throws BucketEmptyError (a bug) when one is empty. */
  reserve(op: BudgetOp, now: number): void {
    const slots = this.#of(op);
    // Check all first so that an empty bucket leaves no partial reservation behind; its reserve throws.
    const empty = slots.find((s) => s.tb.available(now) < 1);
    if (empty !== undefined) empty.tb.reserve(now);
    for (const s of slots) s.tb.reserve(now);
  }

  /** The reserved request left at `sentAt`. */
  commit(op: BudgetOp, sentAt: number): void {
    for (const s of this.#of(op)) s.tb.commit(sentAt);
  }

  /** The reserved request was not sent. */
  release(op: BudgetOp, now: number): void {
    for (const s of this.#of(op)) s.tb.release(now);
  }

  /** Reserve and commit at once (reads and other immediate sends). */
  take(op: BudgetOp, now: number): void {
    this.reserve(op, now);
    this.commit(op, now);
  }

  /**
   * A 429's Retry-After (or a back-off): `op`'s buckets send nothing for `forMs` from `now` (the 429
   * names no scope, so all of them), at least MIN_BLOCK_MS (a `Retry-After: 0` resent at once, three
   * times in a millisecond, used up a cancel's attempts) and at most maxBlockMs whoever asks: a longer
   * one is not the rate limit the spec describes (see GATE_MAX_BLOCK_MS), and is reported at warn once
   * per op and episode (until {@link answered}), so a 5-minute ban answered every minute makes one
   * line, not five. The cap wins over the floor: a maxBlockMs below MIN_BLOCK_MS is a deliberate
   * choice of the caller (the floor is a guess at a server's rounding), and holding longer than it
   * would break the one promise the cap makes.
   * @returns the hold applied, ms
   * @example budget.block("cancel", now, 300_000) // 60_000, warned
   */
  block(op: BudgetOp, now: number, forMs: number): number {
    const slots = this.#of(op);
    let hold = this.#holds.get(op);
    if (hold === undefined) {
      hold = new OverLongRetryAfter(op, this.#maxBlockMs, this.#log);
      this.#holds.set(op, hold);
    }
    const floor = Math.min(MIN_BLOCK_MS, this.#maxBlockMs ?? GATE_MAX_BLOCK_MS);
    const heldMs = Math.max(floor, hold.heldMs(Math.max(0, forMs)) ?? 0);
    if (heldMs > 0) for (const s of slots) s.tb.block(now + heldMs, now);
    return heldMs;
  }

  /**
   * A 429 to a request of `op` sent at `sentAt`, answered at `now`: holds the op (block) for
   * max(Retry-After, streak floor). A usable Retry-After (at least MIN_BLOCK_MS) is the server's own
   * figure and is honoured as sent: it ends the streak, so an honest `Retry-After: 1` repeated by a
   * 429 storm holds 1 s each time (doubled, the storm's twentieth 429 held ~50 s past what the
   * server asked). Only a 429 with no usable wait — absent (`absentMs` is assumed), 0, or below
   * MIN_BLOCK_MS — is a step of the op's streak (RateLimitStreak): MIN_BLOCK_MS doubled for each
   * such retry answered 429 again, within maxBlockMs, so a server rounding its delta seconds down to
   * 0 is outlasted within a few retries instead of drawing one 429 per 100 ms. What block() alone
   * does (a back-off) is no step of the streak.
   * @returns the hold applied, ms
   * @example budget.rateLimited("cancel", 0, 5, 0) // 100; then budget.rateLimited("cancel", 105, 110, 0) // 200
   * @example budget.rateLimited("cancel", 0, 5, 1_000) // 1_000, however many came before
   */
  rateLimited(
    op: BudgetOp,
    sentAt: number,
    now: number,
    retryAfterMs: number | undefined,
    absentMs = ABSENT_RETRY_AFTER_MS,
  ): number {
    let streak = this.#streaks.get(op);
    if (streak === undefined) {
      streak = new RateLimitStreak();
      this.#streaks.set(op, streak);
    }
    // The streak's cap is block()'s: an unusable 429's hold ends where the streak counts it ending.
    const cap = this.#maxBlockMs ?? GATE_MAX_BLOCK_MS;
    return this.block(op, now, streak.waitMs(sentAt, now, retryAfterMs, absentMs, cap));
  }

  /** An answer of `op` that was not a 429: it ends an over-long Retry-After's episode (see block) and a 429 streak. */
  answered(op: BudgetOp): void {
    this.#holds.get(op)?.heldMs(undefined);
    this.#streaks.get(op)?.reset();
  }

  /**
   * Applies an answer's X-RateLimit-* headers. They describe the tightest applicable bucket without
   * naming it, so they go to the bucket of `op` the header most plausibly describes (headerBucket,
   * src/execution/reported-limit.ts): one whose window the reset fits in, nearest by limit. Its
   * limit sets that bucket's pace (lower, or back up to the table: ReportedLimit), and a lowered pace
   * of `op`'s other buckets that no header repeated for long goes back to the table; each change is
   * logged at info.
   * @returns tokens charged as foreign use
   */
  observe(op: BudgetOp, view: ServerRateView, sentAt: number, now: number): number {
    const slots = this.#of(op);
    const before = slots.map((s) => s.tb.capacity);
    for (const s of slots) s.tb.lapse(now);
    const best = headerBucket(slots, (s) => s.tb, view);
    const charged = best === undefined ? 0 : best.tb.observe(view, sentAt, now);
    slots.forEach((s, i) => {
      if (s.tb.capacity !== before[i]) this.#paceChanged(op, s, s === best ? view.limit : undefined);
    });
    return charged;
  }

  /**
   * One info line per change of a bucket's pace (limits and rates only: nothing secret); `reported`
   * is the header's limit, undefined when a lowered pace lapsed unconfirmed.
   */
  #paceChanged(op: BudgetOp, s: Slot, reported: number | undefined): void {
    const { capacity, limit, windowMs } = s.tb;
    this.#log?.info?.(
      {
        op,
        bucket: s.bucket,
        scope: s.scope,
        limit: capacity,
        tableLimit: limit,
        windowMs,
        perSecond: Number(((capacity * 1000) / windowMs).toFixed(3)),
        ...(reported === undefined ? {} : { reportedLimit: reported }),
      },
      capacity < limit
        ? "rate budget: pacing the bucket at the lower limit the exchange reports"
        : reported === undefined
          ? "rate budget: no answer repeated the bucket's lower limit for 5 min; pacing it at the table's limit again"
          : "rate budget: pacing the bucket at the table's limit again, as the exchange reports",
    );
  }

  /** Remaining budget of every bucket, for metrics. */
  snapshot(now: number): BucketSnapshot[] {
    const out: BucketSnapshot[] = [];
    for (const [op, slots] of this.#slots) {
      for (const s of slots) {
        out.push({
          op,
          bucket: s.bucket,
          scope: s.scope,
          limit: s.tb.capacity,
          windowMs: s.tb.windowMs,
          remaining: s.tb.available(now),
          blockedUntil: s.tb.blockedUntil,
        });
      }
    }
    return out;
  }

  /** The buckets of `op` (tests and diagnostics). */
  buckets(op: BudgetOp): readonly TokenBucket[] {
    return this.#of(op).map((s) => s.tb);
  }

  #of(op: BudgetOp): Slot[] {
    const slots = this.#slots.get(op);
    if (slots === undefined) throw new RangeError(`unknown budget op ${op}`);
    return slots;
  }
}

/** One-second windows may burst their whole limit; longer ones are paced with ten seconds' worth. */
function burstFor(limit: number, windowMs: number): number {
  return windowMs <= 1_000 ? limit : Math.max(1, Math.ceil((limit * 10_000) / windowMs));
}
