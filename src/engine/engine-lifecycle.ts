import { MmError } from "../core/errors.js";
import { toWei } from "../core/wei.js";
import type { CancelAllIntent, Intent } from "../execution/intents.js";
import { isTerminal } from "../execution/order-state.js";
import { Deadline, TIMED_OUT, untilDeadline } from "./deadline.js";
import type { StopCount } from "./engine-api.js";
import type { EngineCore } from "./engine-core.js";
import type { FillIntake } from "./engine-fills.js";
import { readPositionsAt } from "./engine-positions.js";
import type { CancelAllWaiters } from "./engine-reports.js";
import { sweepOpenOrders } from "./shutdown-sweep.js";

/** What start-up did, for the `started` event. */
export interface StartupResult {
  readonly sinceMs: number;
  /** Open orders found and cancelled by the start-up cancel-all (policy `cancel`). */
  readonly cancelledAtStart: number;
}

/**
 * The first half of start-up, before the start-up reconcile:
 * 1. reads the wallet's positions: with baseline `positions` they are the baseline, and the instant
 *    they stand for, on the EXCHANGE's clock (positionsAt: the answer's X-Server-Time), is the session
 *    start: fills are split by their own exchange times (user_fill tsMs, trade createdAt), those
 *    stamped before it being in the baseline and the others applied (FillIntake.open for the
 *    millisecond itself). The local clock would lose the fills made while the answer travelled (and
 *    more when it runs ahead) and count twice those just before the read when it runs behind;
 * 2. policy `cancel`: if the wallet has open orders, one wallet-wide cancel-all through the queue,
 *    awaited (orders that survive it are orphans for the reconcile to cancel). Policy `adopt` leaves
 *    them for the reconcile to adopt.
 */
export async function prepareStart(
  core: EngineCore,
  fills: FillIntake,
  waiters: CancelAllWaiters,
): Promise<StartupResult> {
  const { positions: remote, sinceMs } = await baselineRead(core);
  if (core.options.inventoryBaseline === "positions") {
    const sizes = new Map<string, bigint>();
    // Only the engine's tokens have a baseline: a row of another token (one mm cannot even read)
    // must not stop the start, as it does not stop a periodic reconcile.
    for (const p of remote) {
      if (core.positions.trades(p.tokenId))
        sizes.set(p.tokenId, (sizes.get(p.tokenId) ?? 0n) + readQuantity(p));
    }
    core.positions.setBaseline(sizes);
  }
  fills.open(sinceMs);
  if (core.options.startupPolicy !== "cancel") return { sinceMs, cancelledAtStart: 0 };
  const open = await core.exchange.openOrders();
  if (open.length === 0) return { sinceMs, cancelledAtStart: 0 };
  const intent: CancelAllIntent = { kind: "cancel_all", marketId: undefined, reason: "startup" };
  const answered = waiters.wait(intent);
  core.send([intent]);
  const ok = await answered;
  core.log.info({ found: open.length, ok }, "start-up: pre-existing orders cancelled");
  return { sinceMs, cancelledAtStart: ok ? open.length : 0 };
}

/**
 * The wallet's positions and the exchange-clock instant they stand for. Without one (a port with no
 * positionsAt, an answer without X-Server-Time), the local clock once the answer is in: the old
 * approximation, exact only when both clocks agree and the answer takes no time (a backtest venue).
 */
async function baselineRead(
  core: EngineCore,
): Promise<{ positions: readonly { tokenId: string; quantity: string }[]; sinceMs: number }> {
  const read = await readPositionsAt(core.exchange);
  if (read.asOfMs !== undefined) return { positions: read.positions, sinceMs: read.asOfMs };
  const sinceMs = core.clock.now();
  if (core.exchange.positionsAt !== undefined) {
    core.log.warn(
      { sinceMs },
      "start-up: the positions answer carried no exchange time; the baseline instant is the local clock",
    );
  }
  return { positions: read.positions, sinceMs };
}

/**
 * Shutdown: cancels every quote and reports what is left open on the exchange.
 * 1. the wallet-wide cancel-all (queued placements dropped unsent first), a cancel-all per market the
 *    engine has orders in (the queue folds them into one request), and single cancels of every open
 *    order riding along (they are sent one by one only if cancel-all fails or is not offered);
 * 2. the queue closes: no more placements, and it resolves once every cancel has been answered;
 * 3. GET /api/orders/open, and while it fails or lists orders, rounds of one more wallet cancel-all
 *    then, if that does not succeed, single cancels (of the orders listed, or of every live order the
 *    engine knows an id for when the read failed), each followed by the read again, retried with a
 *    pause: see sweepOpenOrders (shutdown-sweep.ts).
 * Every wait ends at `deadline` (epoch ms, read on the Clock just before): it is turned at once into
 * one timer (Deadline), so that a step of the wall clock during the stop neither stretches it nor cuts
 * it short. When no read after the last cancels could be made in time, the count is the orders the
 * engine still believes live (`believed`).
 */
export async function shutdown(
  core: EngineCore,
  waiters: CancelAllWaiters,
  reason: string,
  deadline: number,
): Promise<StopCount> {
  const now = core.clock.now();
  const limit = new Deadline(core.clock, deadline - now);
  try {
    return await cancelEverything(core, waiters, reason, now, limit);
  } finally {
    waiters.failAll();
    limit.end();
  }
}

/** shutdown()'s steps, every wait bounded by `limit`. */
async function cancelEverything(
  core: EngineCore,
  waiters: CancelAllWaiters,
  reason: string,
  now: number,
  limit: Deadline,
): Promise<StopCount> {
  const markets = marketsWithOrders(core);
  // The stop's own words (SIGTERM, a fatal close…) are logged; every cancel it asks for is `shutdown`.
  const why = "shutdown";
  // The kill switch's batch first: its cancels of queued placements reach the queue while they are
  // still in its lane, and are dropped there unsent. After a cancel-all (which drops them itself),
  // each was a cancel without an exchange id, refused `order_id_unknown`: a failed cancel, a
  // "cancel found the order gone" line and a reconcile for every placement that never left.
  const intents: Intent[] = core.om.killAll(why, now);
  for (const marketId of markets) intents.push({ kind: "cancel_all", marketId, reason: why });
  for (const m of markets) intents.push(...core.om.cancelMarket(m, why, now));
  core.send(intents);
  if ((await untilDeadline(core.clock, core.queue.close(), limit)) === TIMED_OUT) {
    core.log.warn({ reason }, "shutdown: the queue did not drain in time");
  }
  return sweepOpenOrders(core, waiters, reason, limit);
}

function marketsWithOrders(core: EngineCore): string[] {
  const out = new Set<string>();
  for (const o of core.store.all()) if (!isTerminal(o.state)) out.add(o.marketId);
  return [...out];
}

function readQuantity(p: { tokenId: string; quantity: string }): bigint {
  try {
    return toWei(p.quantity, "quantity");
  } catch (err) {
    throw new MmError(
      "engine_start_failed",
      `the wallet's positions answer gives token ${p.tokenId} a quantity that is no exact number of ` +
        `shares (a decimal string of at most 6 decimals): ${JSON.stringify(p.quantity)}`,
      { tokenId: p.tokenId },
      { cause: err },
    );
  }
}
