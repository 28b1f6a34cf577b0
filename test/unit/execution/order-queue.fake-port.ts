import type { Clock } from "../../../src/core/clock.js";
import { sleep } from "../../../src/core/clock.js";
import type { PlaceOrderRequest } from "../../../src/core/types.js";
import type { ExchangePort } from "../../../src/engine/ports.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import {
  type RateLimitState,
  RateLimitTracker,
  readRateLimitHeaders,
} from "../../../src/exchange/rate-limit-state.js";
import { type AppliedRateLimit, rateLimitsFor } from "../../../src/exchange/rate-limits.js";
import type { CancelAllResult } from "../../../src/exchange/types.js";
import { BUDGET_ENDPOINTS, endpointOf } from "../../../src/execution/rate-budget.js";

export type FakeOp = "place" | "cancel" | "cancel_all";

/** One request as the fake exchange saw it. */
export interface FakeCall {
  op: FakeOp;
  /** Clock time of the port call (the request leaves). */
  sentAt: number;
  /** Clock time the fake "server" counted it against its fixed windows. */
  arrivedAt: number;
  limited: boolean;
  clientOrderId?: string | undefined;
  orderId?: string | undefined;
  marketId?: string | undefined;
}

/** A scripted answer for the next request of an op (taken in order; the default is success). */
export type Scripted =
  | { kind: "ambiguous" }
  | { kind: "unavailable" }
  | { kind: "limited"; retryAfterMs: number }
  | { kind: "reject"; code: string; status: number; details?: Record<string, unknown> };

export interface FakePortOptions {
  clock: Clock;
  rateLimitPerMin?: number;
  ipLimitFactor?: number;
  /** Offset of the server's fixed windows against the clock (they start at multiples of the window minus phase). */
  phaseMs?: number;
  /** Request (to arrival) and response (after arrival) delays per call; zero by default. */
  latency?: () => { inMs: number; outMs: number };
  /**
   * The server's own limits per table bucket id (e.g. `{ "place-ip": 500 }`), where they differ from
   * the table: an exchange whose figures shifted (the spec: "may shift by a small factor").
   */
  serverLimits?: Readonly<Record<string, number>>;
}

interface Window {
  start: number;
  count: number;
}

/**
 * A hand-written exchange for queue tests: enforces the spec's fixed windows (from the rate-limit
 * table, counted on arrival, with a configurable phase), answers 429 with Retry-After like the mock,
 * keeps X-RateLimit-* state like the HTTP client (`rateLimit(endpoint)`), records every call with its
 * clock times, and can be scripted to answer ambiguously, 503 or a definite reject.
 */
export class FakeExchangePort implements Pick<ExchangePort, "place" | "cancel" | "cancelAll"> {
  readonly calls: FakeCall[] = [];
  readonly rateLimits = new RateLimitTracker();
  rules: Record<FakeOp, AppliedRateLimit[]>;
  readonly #o: FakePortOptions;
  readonly #windows = new Map<string, Window>();
  readonly #script: Record<FakeOp, Scripted[]> = { place: [], cancel: [], cancel_all: [] };
  #nextOrder = 1;

  constructor(opts: FakePortOptions) {
    this.#o = opts;
    this.rules = this.#rulesFor(opts.serverLimits ?? {});
  }

  /** The server changes its limits from now on (its windows' counts stay): see FakePortOptions.serverLimits. */
  setServerLimits(limits: Readonly<Record<string, number>>): void {
    this.rules = this.#rulesFor(limits);
  }

  #rulesFor(limits: Readonly<Record<string, number>>): Record<FakeOp, AppliedRateLimit[]> {
    const opts = this.#o;
    const rules = (op: FakeOp) => {
      const e = BUDGET_ENDPOINTS[op];
      return rateLimitsFor(e.method, e.route, { rateLimitPerMin: opts.rateLimitPerMin ?? 600 }).map((a) => {
        const own = limits[a.rule.bucket];
        if (own !== undefined) return { ...a, limit: own };
        return a.rule.scope === "ip" ? { ...a, limit: Math.floor(a.limit * (opts.ipLimitFactor ?? 1)) } : a;
      });
    };
    return { place: rules("place"), cancel: rules("cancel"), cancel_all: rules("cancel_all") };
  }

  /** Queues scripted answers for the next requests of `op`. */
  script(op: FakeOp, ...answers: Scripted[]): void {
    this.#script[op].push(...answers);
  }

  /** Another client spends `n` of `op`'s wallet buckets in the current windows. */
  foreignUse(op: FakeOp, n: number): void {
    for (const r of this.rules[op]) if (r.rule.scope === "wallet") this.#window(r).count += n;
  }

  /** What ExchangeHttpClient.rateLimit would return. */
  rateLimit(endpoint: string): RateLimitState | undefined {
    return this.rateLimits.get(endpoint);
  }

  /** Calls of one op. */
  of(op: FakeOp): FakeCall[] {
    return this.calls.filter((c) => c.op === op);
  }

  async place(req: PlaceOrderRequest): Promise<PlaceOrderOutcome> {
    const r = await this.#serve("place", { clientOrderId: req.clientOrderId, marketId: req.marketId });
    if (r.error !== undefined) {
      if (r.error.outcome === "ambiguous") return { kind: "ambiguous", error: r.error };
      return {
        kind: "rejected",
        code: r.error.code,
        retryable: r.error.outcome === "retryable",
        error: r.error,
      };
    }
    const orderId = `o-${this.#nextOrder++}`;
    const result = {
      orderId,
      status: "OPEN" as const,
      filledQty: "0",
      remainingQty: req.quantity,
      trades: [],
    };
    return { kind: "accepted", result, requestId: undefined };
  }

  async cancel(orderId: string): Promise<{ orderId: string; status: string }> {
    const r = await this.#serve("cancel", { orderId });
    if (r.error !== undefined) throw r.error;
    return { orderId, status: "CANCELLED" };
  }

  async cancelAll(marketId?: string): Promise<CancelAllResult> {
    const r = await this.#serve("cancel_all", { marketId });
    if (r.error !== undefined) throw r.error;
    return marketId === undefined ? { cancelled: 3 } : { cancelled: 3, marketId };
  }

  async #serve(op: FakeOp, meta: Partial<FakeCall>): Promise<{ error: ExchangeError | undefined }> {
    const { clock } = this.#o;
    const sentAt = clock.now();
    const lat = this.#o.latency?.() ?? { inMs: 0, outMs: 0 };
    if (lat.inMs > 0) await sleep(clock, lat.inMs);
    const verdict = this.#count(op);
    const call: FakeCall = { op, sentAt, arrivedAt: clock.now(), limited: !verdict.allowed, ...meta };
    this.calls.push(call);
    const scripted = verdict.allowed ? this.#script[op].shift() : undefined;
    if (lat.outMs > 0) await sleep(clock, lat.outMs);
    const endpoint = endpointOf(op);
    const headers = {
      "x-ratelimit-limit": String(verdict.limit),
      "x-ratelimit-remaining": String(verdict.remaining),
      "x-ratelimit-reset": String(verdict.resetSeconds),
    };
    const state = readRateLimitHeaders(headers, clock.now());
    if (state !== undefined) this.rateLimits.update(endpoint, state);
    if (!verdict.allowed) return { error: limited(endpoint, verdict.resetSeconds * 1000) };
    if (scripted === undefined) return { error: undefined };
    if (scripted.kind === "limited") return { error: limited(endpoint, scripted.retryAfterMs) };
    if (scripted.kind === "ambiguous") {
      return {
        error: new ExchangeError({
          code: "request_timeout",
          message: "timeout",
          outcome: "ambiguous",
          endpoint,
        }),
      };
    }
    if (scripted.kind === "unavailable") {
      const init = {
        code: "exchange_unavailable",
        message: "503",
        outcome: "retryable" as const,
        endpoint,
        httpStatus: 503,
      };
      return { error: new ExchangeError(init) };
    }
    const outcome = scripted.status >= 500 && scripted.status !== 501 ? "ambiguous" : "rejected";
    return {
      error: new ExchangeError({
        code: scripted.code,
        message: scripted.code,
        outcome,
        endpoint,
        httpStatus: scripted.status,
        ...(scripted.details === undefined ? {} : { details: scripted.details }),
      }),
    };
  }

  /** The mock's fixed-window rule: both scopes must pass; a refused request consumes nothing. */
  #count(op: FakeOp): { allowed: boolean; limit: number; remaining: number; resetSeconds: number } {
    const now = this.#o.clock.now();
    const slots = this.rules[op].map((r) => ({ r, w: this.#window(r) }));
    const allowed = slots.every((s) => s.w.count < s.r.limit);
    if (allowed) for (const s of slots) s.w.count++;
    const resetMs = (s: (typeof slots)[number]) => s.w.start + s.r.windowMs - now;
    const pick = allowed
      ? slots.reduce((a, b) => (b.r.limit - b.w.count < a.r.limit - a.w.count ? b : a))
      : slots.filter((s) => s.w.count >= s.r.limit).reduce((a, b) => (resetMs(b) > resetMs(a) ? b : a));
    return {
      allowed,
      limit: pick.r.limit,
      remaining: Math.max(0, pick.r.limit - pick.w.count),
      resetSeconds: Math.max(1, Math.ceil(resetMs(pick) / 1000)),
    };
  }

  #window(r: AppliedRateLimit): Window {
    const now = this.#o.clock.now();
    const phase = this.#o.phaseMs ?? 0;
    const start = now - ((((now + phase) % r.windowMs) + r.windowMs) % r.windowMs);
    const key = r.rule.bucket;
    let w = this.#windows.get(key);
    if (w === undefined || w.start !== start) {
      w = { start, count: 0 };
      this.#windows.set(key, w);
    }
    return w;
  }
}

function limited(endpoint: string, retryAfterMs: number): ExchangeError {
  return new ExchangeError({
    code: "rate_limited",
    message: "rate limited",
    outcome: "retryable",
    endpoint,
    httpStatus: 429,
    retryAfterMs,
  });
}
