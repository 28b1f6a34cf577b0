import type { Clock } from "../core/clock.js";
import { type BudgetOp, budgetOpOf, type RateBudget } from "./rate-budget.js";

/**
 * Waits on the Clock until `op` has a token, then spends it: for callers outside the order queue
 * that pace one request at a time (the reconciler's order reads). Under SimClock it settles when the
 * clock is advanced past the refill.
 * @example
 * await takeWhenAvailable(budget, clock, "order_reads");
 * const open = await port.openOrders();
 */
export async function takeWhenAvailable(budget: RateBudget, clock: Clock, op: BudgetOp): Promise<void> {
  for (;;) {
    const now = clock.now();
    if (budget.available(op, now) >= 1) {
      budget.take(op, now);
      return;
    }
    const at = budget.nextAvailableAt(op, now);
    // Infinity: only another caller's commit can free a token; poll at the shortest window's pace.
    const wait = Number.isFinite(at) ? Math.max(1, at - now) : 100;
    await new Promise<void>((resolve) => clock.setTimer(wait, resolve));
  }
}

/**
 * A request gate (ExchangeHttpClient.gateRequests) that makes every request counted in `op`'s
 * buckets wait for one of its tokens (takeWhenAvailable) and lets every other request through at once.
 * Only ops nothing else paces belong here: the order queue already spends the write ops' tokens.
 * @example client.gateRequests(budgetGate(budget, clock, "order_reads"));
 */
export function budgetGate(
  budget: RateBudget,
  clock: Clock,
  op: BudgetOp,
): (method: string, route: string) => Promise<void> | undefined {
  return (method, route) =>
    budgetOpOf(method, route) === op ? takeWhenAvailable(budget, clock, op) : undefined;
}
