import { type Clock, sleepUnlessAborted } from "../core/clock.js";
import { MmError } from "../core/errors.js";
import type { GateAnswer, GateTicket, RequestGate } from "../exchange/caller.js";
import { type BudgetOp, budgetOpOf, type RateBudget } from "./rate-budget.js";

import { ABSENT_RETRY_AFTER_MS } from "./rate-budget-hold.js";

export { GATE_MAX_BLOCK_MS, type RetryAfterLog } from "./rate-budget-hold.js";

/** Retry-After assumed for a 429 that carries none (the order queue's default, order-queue.ts). */
export const GATE_DEFAULT_RETRY_AFTER_MS = ABSENT_RETRY_AFTER_MS;

/** A gate's wait ended because its caller went away (its signal aborted): no token was spent. */
export class GateAbandonedError extends MmError {
  constructor(op: BudgetOp) {
    super("gate_abandoned", `the wait for an ${op} token ended: its caller has gone`, { op });
  }
}

/**
 * Waits on the Clock until `op` has a token, then spends it: for callers outside the order queue
 * that pace one request at a time (the reconciler's order reads). Under SimClock it settles when the
 * clock is advanced past the refill.
 * @returns the clock time the token was spent at (the request's send time)
 * @example
 * await takeWhenAvailable(budget, clock, "order_reads");
 * const open = await port.openOrders();
 */
export async function takeWhenAvailable(budget: RateBudget, clock: Clock, op: BudgetOp): Promise<number> {
  for (;;) {
    const wait = takeOrWait(budget, clock.now(), op);
    if (wait.took) return wait.at;
    await new Promise<void>((resolve) => clock.setTimer(wait.ms, resolve));
  }
}

/** Spends a token of `op` at `now` when one is free; else how long to wait before trying again. */
function takeOrWait(
  budget: RateBudget,
  now: number,
  op: BudgetOp,
): { took: true; at: number } | { took: false; ms: number } {
  if (budget.available(op, now) >= 1) {
    budget.take(op, now);
    return { took: true, at: now };
  }
  const at = budget.nextAvailableAt(op, now);
  // Infinity: only another caller's commit can free a token; poll at the shortest window's pace.
  return { took: false, ms: Number.isFinite(at) ? Math.max(1, at - now) : 100 };
}

/**
 * A request gate (ExchangeHttpClient.gateRequests) that makes every request counted in the buckets
 * of one of `ops` wait for one of that op's tokens and lets every other request through at once.
 * Each paced request's answer feeds the budget back, as the order queue does for its writes
 * (order-queue-send.ts): its X-RateLimit-* headers charge what the server counted beyond our own
 * sends (another process on the wallet), and a 429 blocks `op` until its Retry-After — at most the
 * budget's cap (RateBudget.block) — so the other reads wait instead of drawing 429s of their own.
 * A wait ends, spending nothing, when the caller's `signal` aborts (the HTTP client closed).
 * `ops` may name several ops (the client has one gate): each request waits for its own op's tokens.
 * Only ops nothing else paces belong here: the order queue already spends the write ops' tokens.
 * @example client.gateRequests(budgetGate(budget, clock, ["order_reads", "me_reads"]));
 */
export function budgetGate(
  budget: RateBudget,
  clock: Clock,
  ops: BudgetOp | readonly BudgetOp[],
): RequestGate {
  const gated: readonly BudgetOp[] = typeof ops === "string" ? [ops] : ops;
  // The loop of takeWhenAvailable, returning the ticket itself: a free token costs one tick, no more.
  const ticketed = async (op: BudgetOp, signal: AbortSignal | undefined): Promise<GateTicket> => {
    for (;;) {
      if (signal?.aborted === true) throw new GateAbandonedError(op);
      const wait = takeOrWait(budget, clock.now(), op);
      if (wait.took) {
        const sentAt = wait.at;
        return (answer) => learnFromAnswer(budget, op, sentAt, clock.now(), answer);
      }
      if (!(await sleepUnlessAborted(clock, wait.ms, signal))) throw new GateAbandonedError(op);
    }
  };
  return (method, route, signal) => {
    const op = budgetOpOf(method, route);
    return op !== undefined && gated.includes(op) ? ticketed(op, signal) : undefined;
  };
}

/**
 * Applies one answer of a request of `op` sent at `sentAt` to the budget (budgetGate's tickets).
 * The headers are re-anchored at `now` on the budget's clock: the client may run on another clock
 * (tests), and the answer has just arrived, so its delta-seconds reset counts from now. A 429's
 * Retry-After holds `op` as sent, at most the budget's cap; one with no usable wait (absent, 0)
 * holds longer for each retry answered so again (RateBudget.rateLimited); any other answer ends an
 * over-long Retry-After's episode.
 * @returns tokens charged as foreign use
 * @example learnFromAnswer(budget, "order_reads", sentAt, clock.now(), { status: 429, code: "rate_limited", rateLimit: undefined, retryAfterMs: 2_000 })
 */
export function learnFromAnswer(
  budget: RateBudget,
  op: BudgetOp,
  sentAt: number,
  now: number,
  answer: GateAnswer,
): number {
  const limited = answer.status === 429 || answer.code === "rate_limited";
  if (limited) budget.rateLimited(op, sentAt, now, answer.retryAfterMs, GATE_DEFAULT_RETRY_AFTER_MS);
  else budget.answered(op);
  const rl = answer.rateLimit;
  if (rl === undefined) return 0;
  const view = {
    limit: rl.limit,
    remaining: rl.remaining,
    resetAt: now + Math.max(0, rl.resetAt - rl.observedAt),
    observedAt: now,
  };
  return budget.observe(op, view, sentAt, now);
}
