import type { MockContext } from "../context.js";
import { HttpProblem } from "../http/problem.js";

/**
 * The two injected faults that only POST /api/orders/place can apply, for its handler to call.
 *
 * While the platform is frozen the matcher is treated as halted: placements are refused with 503
 * `exchange_unavailable` in the nested envelope (the spec's code for "exchange service or matcher
 * unreachable"; a retryable reject for the client, so nothing is ambiguous), before anything
 * reaches the venue. Cancels, cancel-all and every read keep working, as in a cancel-only halt, so
 * a bot can still pull its quotes. The flow simulator stops trading while frozen, too.
 * @example refuseWhileFrozen(ctx); // first thing in the placement handler
 */
export function refuseWhileFrozen(ctx: MockContext): void {
  if (ctx.faults.platformFrozen) {
    throw new HttpProblem(
      503,
      "exchange_unavailable",
      "platform is frozen: the matcher accepts no orders",
      { reason: "platform_frozen" },
      "nested",
    );
  }
}

/**
 * Consumes one pending "hang" (MockAdmin.hangNextPlacements). True means: this placement must go
 * into the venue as usual and then never be answered (return NO_ANSWER), the ambiguous outcome a
 * client sees when a request times out after it left. Call it once per placement that reached the
 * venue, after the venue handled it (whatever its verdict), and before answering.
 */
export function takeHangingPlacement(ctx: MockContext): boolean {
  if (ctx.faults.hangPlacements <= 0) return false;
  ctx.faults.hangPlacements--;
  return true;
}
