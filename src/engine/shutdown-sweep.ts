import { backoffDelay } from "../book/tracker-config.js";
import { ExchangeError, keyRefused } from "../exchange/exchange-error.js";
import type { Order } from "../exchange/types.js";
import type { CancelAllIntent, CancelIntent, CancelReason } from "../execution/intents.js";
import { cancelOf } from "../execution/order-manager.js";
import { isTerminal } from "../execution/order-state.js";
import { orphanCancels } from "../execution/reconcile-orphans.js";
import { type Deadline, TIMED_OUT, untilDeadline } from "./deadline.js";
import type { StopCount } from "./engine-api.js";
import type { EngineCore } from "./engine-core.js";
import type { CancelAllWaiters } from "./engine-reports.js";

/** How often shutdown looks whether the queue has answered its last cancels. */
const DRAIN_POLL_MS = 10;
/**
 * The pause before a repeated attempt (a read after a failed one, a cancel round after the first),
 * doubled each time up to the cap: a burst of 5xx gets a prompt retry, an outage a few requests a
 * second (the HTTP client already retries each GET), never a spin.
 */
export const SWEEP_PAUSE_FIRST_MS = 50;
export const SWEEP_PAUSE_MAX_MS = 500;
const SWEEP_BACKOFF = { baseMs: SWEEP_PAUSE_FIRST_MS, factor: 2, maxMs: SWEEP_PAUSE_MAX_MS } as const;

/**
 * Shutdown's last step, once the queue is closed: makes sure nothing of ours rests on the exchange,
 * trying again until `limit` passes rather than giving up after one failed answer.
 * - GET /api/orders/open; when it lists nothing, done (0);
 * - otherwise (orders listed, or the read failed: orders may remain) a cancel round: one wallet
 *   cancel-all; if it does not succeed (501, a failure, an ambiguous 5xx, no answer in time), a single
 *   cancel of every order listed or, the read having failed, of every live order the engine knows an
 *   id for, the queue's cancels drained;
 * - then the read again, retried after a failure with a pause on the Clock ({@link SWEEP_PAUSE_FIRST_MS}
 *   doubling up to {@link SWEEP_PAUSE_MAX_MS}) until it succeeds or the deadline passes; orders still
 *   listed start another round (after a pause). A definite refusal of the read (a 4xx: a revoked key,
 *   a wrong URL) is not retried: the same request would get the same answer, and the stop of a
 *   refused key (exit 3) should not wait out the budget for nothing. When the first read is refused
 *   because the key itself is (401, a banned wallet), there is no round at all: every cancel would be
 *   refused too, and step 1 has already tried them all.
 * A cancel refused for a scope the key lacks (403 `api_key_scope_missing`: orders:write, in step 1
 * or a round; OrderQueue.cancelsRefused) ends the rounds: every cancel with this key is refused too,
 * so another round would only spend the budget (with a read-only key, the stop took the whole 8 s of
 * the default budget to exit 3). What the read lists is the count ({@link refusedCancels}).
 * A round after a failed read whose cancel-all succeeded, with no order left that the engine believes
 * live, ends the sweep with 0 too (the wallet-wide cancel-all removed whatever the read would list).
 * @returns what the last read made after the last cancel round lists; when there is none (the
 * deadline came first, the read refused), the orders the engine still believes live, `believed`.
 */
export async function sweepOpenOrders(
  core: EngineCore,
  waiters: CancelAllWaiters,
  reason: string,
  limit: Deadline,
): Promise<StopCount> {
  const pauses = backOff();
  const first = await readOpenOrders(core, limit);
  // Step 1 already sent the cancels this round would send again, each refused at the cancel rate.
  if (first === "key_refused") return unconfirmed(core, "key_refused");
  let listed = typeof first === "string" ? undefined : first;
  let paused = true; // no pause before the first round
  while (listed === undefined || listed.length > 0) {
    if (core.queue.cancelsRefused !== undefined)
      return refusedCancels(core, listed, first === "refused", limit, pauses);
    // Orders listed again at once after a round (the read did not need a retry): pause before the
    // next round, so that a refusal that comes back at once does not spin.
    if (!paused) await limit.pause(pauses.next());
    if (limit.passed)
      return listed === undefined ? unconfirmed(core, "deadline") : { openOrders: listed.length };
    const cleared = await cancelRound(core, waiters, reason, listed, limit);
    if (cleared && listed === undefined && believedLive(core) === 0) return { openOrders: 0 };
    const read = await readRetrying(core, limit, pauses);
    if (read.listed === undefined) return unconfirmed(core, limit.passed ? "deadline" : "read_refused");
    listed = read.listed;
    paused = read.attempts > 1;
  }
  return { openOrders: 0 };
}

/**
 * The count once the key was refused cancels for their scope: what `listed` (the last read, made
 * after the last cancels) lists; with none, the read is tried again (retried after a failure, until
 * the deadline) unless it was refused, and without an answer the orders the engine believes live.
 */
async function refusedCancels(
  core: EngineCore,
  listed: readonly Order[] | undefined,
  readRefused: boolean,
  limit: Deadline,
  pauses: { next(): number },
): Promise<StopCount> {
  core.log.warn(
    { code: core.queue.cancelsRefused?.code, listed: listed?.length },
    "shutdown: the API key may not cancel (a cancel was refused for its scope): no further cancel round",
  );
  if (listed !== undefined) return { openOrders: listed.length };
  if (readRefused) return unconfirmed(core, "read_refused");
  const read = await readRetrying(core, limit, pauses);
  if (read.listed === undefined) return unconfirmed(core, limit.passed ? "deadline" : "read_refused");
  return { openOrders: read.listed.length };
}

/**
 * One wallet cancel-all, awaited; when it does not succeed, single cancels, drained. They are sent
 * after its answer, on their own: sent with it they would ride along and share its failure, and the
 * closed queue does not substitute a cancel-all for them (order-queue.ts).
 * @returns whether the cancel-all succeeded.
 */
async function cancelRound(
  core: EngineCore,
  waiters: CancelAllWaiters,
  stop: string,
  listed: readonly Order[] | undefined,
  limit: Deadline,
): Promise<boolean> {
  const reason = "shutdown";
  const all: CancelAllIntent = { kind: "cancel_all", marketId: undefined, reason };
  const answered = waiters.wait(all);
  core.send([all]);
  if ((await untilDeadline(core.clock, answered, limit)) === true) return true;
  if (limit.passed) return false;
  // A listed order, ids in hand, may be one the engine does not track (an `unknown` placement that
  // landed); without a list, the engine's own ids are all there is.
  const singles =
    listed === undefined
      ? knownCancels(core, reason)
      : orphanCancels(listed, (o) => core.tokens.tokenOf(o), reason);
  core.log.warn(
    { reason, stop, orders: singles.length, listed: listed !== undefined },
    "shutdown: cancel-all did not succeed, cancelling one by one",
  );
  core.send(singles);
  await cancelsDrained(core, limit);
  return false;
}

/** A cancel of every order the engine believes live and knows the exchange id of. */
function knownCancels(core: EngineCore, reason: CancelReason): CancelIntent[] {
  const out: CancelIntent[] = [];
  for (const o of core.store.all()) {
    if (!isTerminal(o.state) && o.orderId !== undefined) out.push(cancelOf(o, reason));
  }
  return out;
}

/**
 * The read, retried after a failure with a pause, until it succeeds, is refused or the deadline passes.
 * @returns what it lists (undefined: refused, or the deadline came first) and how many reads were tried.
 */
async function readRetrying(
  core: EngineCore,
  limit: Deadline,
  pauses: { next(): number },
): Promise<{ listed: readonly Order[] | undefined; attempts: number }> {
  for (let attempts = 1; ; attempts++) {
    const read = await readOpenOrders(core, limit);
    if (typeof read !== "string") return { listed: read, attempts };
    if (read === "refused" || read === "key_refused" || limit.passed) return { listed: undefined, attempts };
    await limit.pause(pauses.next());
  }
}

/**
 * GET /api/orders/open within the deadline: the list; `failed` when it failed in a way a retry may
 * get past (5xx, 429, no answer, too late); `key_refused` when the exchange refuses every request
 * of this key ({@link refusesEveryRequest}); `refused` on another definite reject (4xx, 501).
 */
async function readOpenOrders(
  core: EngineCore,
  limit: Deadline,
): Promise<readonly Order[] | "failed" | "refused" | "key_refused"> {
  if (limit.passed) return "failed";
  try {
    const open = await untilDeadline(core.clock, core.exchange.openOrders(), limit);
    return open === TIMED_OUT ? "failed" : open;
  } catch (err) {
    core.log.warn({ err }, "shutdown: could not read the open orders");
    if (!(err instanceof ExchangeError) || err.outcome !== "rejected") return "failed";
    return refusesEveryRequest(err) ? "key_refused" : "refused";
  }
}

/**
 * Whether a refused read says every request of this key, cancels included, is refused: a 401 with
 * the exchange's code (keyRefused; the spec's key checks — format, unknown, secret, revoked,
 * expired, suspended, IP — apply to every endpoint alike) or a 403 `wallet_banned`. A 403 `api_key_scope_missing` names the read's scope
 * (orders:read) only: cancels need orders:write, which the key may hold. Other 4xx (a 404 from a
 * wrong path for this one endpoint) say nothing about the cancels either.
 */
function refusesEveryRequest(err: ExchangeError): boolean {
  const banned = err.httpStatus === 403 && err.code === "wallet_banned";
  return banned || keyRefused(err);
}

/** Waits (on the Clock, until the deadline) for the closed queue to answer every cancel it holds. */
async function cancelsDrained(core: EngineCore, limit: Deadline): Promise<void> {
  while (!limit.passed) {
    const d = core.queue.depth();
    if (d.cancel + d.cancelAll + d.inFlight === 0) return;
    await limit.pause(DRAIN_POLL_MS);
  }
}

/**
 * The stop's count when no read of the open orders answered after the last cancel round: the orders
 * mm believes live, said at warn as such, so that "engine stopped: no open orders" that follows is
 * not read as the exchange's word.
 */
function unconfirmed(core: EngineCore, why: "key_refused" | "deadline" | "read_refused"): StopCount {
  const n = believedLive(core);
  core.log.warn(
    { believedOpen: n, why },
    "shutdown: the exchange's open orders could not be read: the count is the orders mm believes live",
  );
  // Only earlier runs' orders are the journal's to count too (DaemonRun's exit-3 line); those the
  // engine held, even ended and pruned since, are not.
  const held = new Set(core.restored.held(core.store));
  return held.size === 0 ? { openOrders: n, believed: true } : { openOrders: n, believed: true, held };
}

/** Orders the engine has not seen end (open, cancelling, placing, unknown). */
function believedLive(core: EngineCore): number {
  let n = 0;
  for (const o of core.store.all()) if (!isTerminal(o.state)) n++;
  return n;
}

/** Successive pauses of one sweep: SWEEP_PAUSE_FIRST_MS doubling to SWEEP_PAUSE_MAX_MS (the book's back-off rule). */
function backOff(): { next(): number } {
  let attempt = 0;
  return { next: () => backoffDelay(++attempt, SWEEP_BACKOFF) };
}
