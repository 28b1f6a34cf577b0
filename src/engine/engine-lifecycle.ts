import { MmError } from "../core/errors.js";
import { toWei } from "../core/wei.js";
import type { Order } from "../exchange/types.js";
import type { CancelAllIntent, Intent } from "../execution/intents.js";
import { isTerminal } from "../execution/order-state.js";
import { orphanCancels } from "../execution/reconcile-orphans.js";
import { Deadline, TIMED_OUT, untilDeadline } from "./deadline.js";
import type { EngineCore } from "./engine-core.js";
import type { FillIntake } from "./engine-fills.js";
import { readPositionsAt } from "./engine-positions.js";
import type { CancelAllWaiters } from "./engine-reports.js";

/** How often shutdown looks whether the queue has answered its last cancels. */
const DRAIN_POLL_MS = 10;

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
 * 1. a cancel-all per market the engine has orders in, then the wallet-wide cancel-all (the queue
 *    folds them into one request), and single cancels of every open order riding along (they are
 *    sent one by one only if cancel-all fails or is not offered); queued placements are dropped;
 * 2. the queue closes: no more placements, and it resolves once every cancel has been answered;
 * 3. GET /api/orders/open; if orders remain (a placement that landed after the cancel-all, an
 *    `unknown` order), one more wallet cancel-all; if that does not succeed (501, a failure, no answer
 *    in time), a single cancel of each order listed, the queue's cancels drained; then a last check.
 * Every wait ends at `deadline` (epoch ms, read on the Clock just before): it is turned at once into
 * one timer (Deadline), so that a step of the wall clock during the stop neither stretches it nor cuts
 * it short. When the final read cannot be made in time, the count is the orders the engine still
 * believes live.
 */
export async function shutdown(
  core: EngineCore,
  waiters: CancelAllWaiters,
  reason: string,
  deadline: number,
): Promise<number> {
  const now = core.clock.now();
  const limit = new Deadline(core.clock, deadline - now);
  try {
    return await cancelEverything(core, waiters, reason, now, limit);
  } finally {
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
): Promise<number> {
  const markets = marketsWithOrders(core);
  const intents: Intent[] = markets.map((marketId) => ({ kind: "cancel_all", marketId, reason }));
  intents.push(...core.om.killAll(reason, now));
  for (const m of markets) intents.push(...core.om.cancelMarket(m, reason, now));
  core.send(intents);
  if ((await untilDeadline(core.clock, core.queue.close(), limit)) === TIMED_OUT) {
    core.log.warn({ reason }, "shutdown: the queue did not drain in time");
  }
  const listed = await openOrders(core, limit);
  let left = listed?.length;
  if (listed !== undefined && listed.length > 0 && !limit.passed) {
    const final = `${reason}_final`;
    const again: CancelAllIntent = { kind: "cancel_all", marketId: undefined, reason: final };
    const answered = waiters.wait(again);
    core.send([again]);
    if ((await untilDeadline(core.clock, answered, limit)) !== true) {
      // Cancel-all refused (501), failed or unanswered: the orders just listed, ids in hand, are
      // cancelled one by one (an `unknown` order step 1 could not cancel lands here).
      core.log.warn(
        { reason, orders: listed.length },
        "shutdown: cancel-all did not succeed, cancelling one by one",
      );
      core.send(orphanCancels(listed, (o) => core.tokens.tokenOf(o), final));
      await cancelsDrained(core, limit);
    }
    left = (await openOrders(core, limit))?.length;
  }
  waiters.failAll();
  return left ?? believedLive(core);
}

/** GET /api/orders/open within the deadline; undefined when it fails or comes too late. */
async function openOrders(core: EngineCore, limit: Deadline): Promise<readonly Order[] | undefined> {
  if (limit.passed) return undefined;
  try {
    const open = await untilDeadline(core.clock, core.exchange.openOrders(), limit);
    return open === TIMED_OUT ? undefined : open;
  } catch (err) {
    core.log.warn({ err }, "shutdown: could not read the open orders");
    return undefined;
  }
}

/** Waits (on the Clock, until the deadline) for the closed queue to answer every cancel it holds. */
async function cancelsDrained(core: EngineCore, limit: Deadline): Promise<void> {
  while (!limit.passed) {
    const d = core.queue.depth();
    if (d.cancel + d.cancelAll + d.inFlight === 0) return;
    await limit.pause(DRAIN_POLL_MS);
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
