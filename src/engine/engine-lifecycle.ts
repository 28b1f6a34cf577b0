import { MmError } from "../core/errors.js";
import { toWei } from "../core/wei.js";
import type { CancelAllIntent, Intent } from "../execution/intents.js";
import { isTerminal } from "../execution/order-state.js";
import { TIMED_OUT, untilDeadline } from "./deadline.js";
import type { EngineCore } from "./engine-core.js";
import type { FillIntake } from "./engine-fills.js";
import type { CancelAllWaiters } from "./engine-reports.js";

/** What start-up did, for the `started` event. */
export interface StartupResult {
  readonly sinceMs: number;
  /** Open orders found and cancelled by the start-up cancel-all (policy `cancel`). */
  readonly cancelledAtStart: number;
}

/**
 * The first half of start-up, before the start-up reconcile:
 * 1. reads the wallet's positions: with baseline `positions` they are the baseline, and the instant
 *    they were read is the session start (fills stamped before it are in the baseline);
 * 2. policy `cancel`: if the wallet has open orders, one wallet-wide cancel-all through the queue,
 *    awaited (orders that survive it are orphans for the reconcile to cancel). Policy `adopt` leaves
 *    them for the reconcile to adopt.
 */
export async function prepareStart(
  core: EngineCore,
  fills: FillIntake,
  waiters: CancelAllWaiters,
): Promise<StartupResult> {
  const remote = await core.exchange.positions();
  const sinceMs = core.clock.now();
  if (core.options.inventoryBaseline === "positions") {
    const sizes = new Map<string, bigint>();
    for (const p of remote) sizes.set(p.tokenId, (sizes.get(p.tokenId) ?? 0n) + readQuantity(p));
    core.positions.setBaseline(sizes);
  }
  fills.open(sinceMs);
  if (core.options.startupPolicy !== "cancel") return { sinceMs, cancelledAtStart: 0 };
  const open = await core.exchange.openOrders();
  if (open.length === 0) return { sinceMs, cancelledAtStart: 0 };
  const intent: CancelAllIntent = { kind: "cancel_all", marketId: undefined, reason: "startup_cancel" };
  const answered = waiters.wait(intent);
  core.send([intent]);
  const ok = await answered;
  core.log.info({ found: open.length, ok }, "start-up: pre-existing orders cancelled");
  return { sinceMs, cancelledAtStart: ok ? open.length : 0 };
}

/**
 * Shutdown: cancels every quote and reports what is left open on the exchange.
 * 1. a cancel-all per market the engine has orders in, then the wallet-wide cancel-all (the queue
 *    folds them into one request), and single cancels of every open order riding along (they are
 *    sent one by one only if cancel-all fails or is not offered); queued placements are dropped;
 * 2. the queue closes: no more placements, and it resolves once every cancel has been answered;
 * 3. GET /api/orders/open; if orders remain (a placement that landed after the cancel-all), one more
 *    wallet cancel-all and a last check.
 * Every wait ends at `deadline` on the Clock; when the final read cannot be made in time, the count is
 * the orders the engine still believes live.
 */
export async function shutdown(
  core: EngineCore,
  waiters: CancelAllWaiters,
  reason: string,
  deadline: number,
): Promise<number> {
  const now = core.clock.now();
  const markets = marketsWithOrders(core);
  const intents: Intent[] = markets.map((marketId) => ({ kind: "cancel_all", marketId, reason }));
  intents.push(...core.om.killAll(reason, now));
  for (const m of markets) intents.push(...core.om.cancelMarket(m, reason, now));
  core.send(intents);
  if ((await untilDeadline(core.clock, core.queue.close(), deadline)) === TIMED_OUT) {
    core.log.warn({ reason }, "shutdown: the queue did not drain in time");
  }
  let left = await openCount(core, deadline);
  if (left !== undefined && left > 0 && core.clock.now() < deadline) {
    const again: CancelAllIntent = { kind: "cancel_all", marketId: undefined, reason: `${reason}_final` };
    const answered = waiters.wait(again);
    core.send([again]);
    await untilDeadline(core.clock, answered, deadline);
    left = await openCount(core, deadline);
  }
  waiters.failAll();
  return left ?? believedLive(core);
}

async function openCount(core: EngineCore, deadline: number): Promise<number | undefined> {
  if (core.clock.now() >= deadline) return undefined;
  try {
    const open = await untilDeadline(core.clock, core.exchange.openOrders(), deadline);
    return open === TIMED_OUT ? undefined : open.length;
  } catch (err) {
    core.log.warn({ err }, "shutdown: could not read the open orders");
    return undefined;
  }
}

function marketsWithOrders(core: EngineCore): string[] {
  const out = new Set<string>();
  for (const o of core.store.all()) if (!isTerminal(o.state)) out.add(o.marketId);
  return [...out];
}

function believedLive(core: EngineCore): number {
  let n = 0;
  for (const o of core.store.all()) if (!isTerminal(o.state)) n++;
  return n;
}

function readQuantity(p: { tokenId: string; quantity: string }): bigint {
  try {
    return toWei(p.quantity, "quantity");
  } catch (err) {
    throw new MmError(
      "engine_start_failed",
      "unreadable position quantity at start",
      { tokenId: p.tokenId },
      {
        cause: err,
      },
    );
  }
}
