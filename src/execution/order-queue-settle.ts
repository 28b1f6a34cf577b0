import type { ExchangeError } from "../exchange/exchange-error.js";
import { missingScope, scopeMissing } from "../exchange/scope-refusal.js";
import type { CancelAllResult } from "../exchange/types.js";
import type { ForgoneRetries } from "./forgone-retries.js";
import type { CancelIntent } from "./intents.js";
import type { PlaceAnswer, QueuedCancel, QueuedCancelAll, QueuedPlace } from "./order-queue-lanes.js";
import { isRateLimited, type PlaceSend, type WriteSend } from "./order-queue-send.js";
import { type DroppedPlace, notSentReason } from "./order-queue-state.js";
import type {
  CancelAllOutcome,
  CancelOutcome,
  FailedRequest,
  PlaceDropReason,
  QueueReport,
} from "./order-queue-types.js";

/** The part of the queue that settlement acts on (kept narrow so the rules read in one place). */
export interface SettleTarget {
  readonly awaiting: Map<string, CancelIntent[]>;
  readonly inFlightPlaces: Map<string, QueuedPlace>;
  cancelAllAvailable: boolean;
  /** The queue is closing (the stop): see settleCancel. */
  readonly closed: boolean;
  /**
   * The first cancel or cancel-all answered 403 `api_key_scope_missing` for orders:write (refusesEveryCancel):
   * the key lacks the scope every cancel needs (spec, Authentication step 5: scopes are the key's), so
   * none can succeed with it. Once closed, the queue sends no more cancels (OrderQueue.cancelsRefused).
   */
  cancelsRefused: ExchangeError | undefined;
  readonly maxCancelAttempts: number;
  /** Which placements' 429s the error-rate halt is spared (see QueueReport `retryForgone`). */
  readonly forgone: ForgoneRetries;
  report(r: QueueReport): void;
  dropPlace(item: DroppedPlace, reason: PlaceDropReason): void;
  intakeCancel(intent: CancelIntent, orderId: string | undefined): void;
  requeuePlace(item: QueuedPlace, answer: PlaceAnswer): boolean;
  requeueCancel(item: QueuedCancel): void;
  requeueCancelAll(item: QueuedCancelAll): void;
  /** A single cancel answered 429 that a cancel-all of its scope takes care of: folded or reported covered. */
  coverRateLimited(item: QueuedCancel): boolean;
  /** A cancel-all of `scope` (a market, "*") sent at `sentSeq` (QueuedCancelAll.sentSeq) succeeded. */
  cleared(scope: string, sentSeq: number, cancelled: number): void;
  /** No cancel-all is substituted in `scope` (a market, "*" = every market) for a while. */
  pauseSubstitution(scope: string): void;
}

/**
 * A placement's answer. A retryable reject is re-queued once when still desired (see
 * QueueState.requeuePlace); otherwise the outcome is reported as is. A re-queued placement withdrawn
 * before its second send is reported with its first answer (QueueState.dropPlace). Cancels that
 * waited for this placement then proceed: with its orderId when accepted, as `not_sent` when
 * definitely rejected, as ambiguous when the placement is.
 */
export function settlePlace(q: SettleTarget, item: QueuedPlace, res: PlaceSend): void {
  const coid = item.intent.clientOrderId;
  q.inFlightPlaces.delete(coid);
  const waiting = q.awaiting.get(coid) ?? [];
  q.awaiting.delete(coid);
  if (res.kind === "withdrawn") {
    q.dropPlace(item, waiting.length > 0 ? "cancelled_unsent" : (item.withdrawnBy ?? "superseded"));
    for (const intent of waiting)
      q.report({ kind: "cancel", intent, outcome: { kind: "not_sent", reason: notSentReason(item) } });
    return;
  }
  const { outcome } = res;
  if (outcome.kind === "rejected" && outcome.retryable && waiting.length === 0) {
    const answer: PlaceAnswer = { outcome, sentAt: res.sentAt, answeredAt: res.answeredAt };
    if (q.requeuePlace(item, answer)) return;
  }
  // Not re-queued though its resend was left (attempts counts this send): the engine has withdrawn
  // it already (superseded, no longer desired, a cancel waiting on it, the stop).
  const forgone = item.attempts <= 1 && q.forgone.forgoes(item.key, outcome);
  if (!forgone) q.forgone.answered(item.key, outcome);
  q.report({
    kind: "place",
    intent: item.intent,
    outcome,
    sentAt: res.sentAt,
    answeredAt: res.answeredAt,
    ...(forgone ? { retryForgone: true } : {}),
  });
  for (const intent of waiting) {
    if (outcome.kind === "accepted") q.intakeCancel(intent, outcome.result.orderId);
    else if (outcome.kind === "rejected") {
      q.report({ kind: "cancel", intent, outcome: { kind: "not_sent", reason: "placement_rejected" } });
    } else {
      // No request of its own: the placement's ambiguous answer is the one counted.
      q.report({
        kind: "cancel",
        intent,
        outcome: { kind: "ambiguous", error: outcome.error, requestError: false },
      });
    }
  }
}

/**
 * A single cancel's answer; retryable failures go back to the front until maxCancelAttempts. A 429
 * first looks for a cancel-all of its market or of every market that clears its order (queued, in
 * flight, or done: QueueState.coverRateLimited); the cancel is then that cancel-all's. Otherwise,
 * until the queue closes, a 429 spends no attempt: it proves the cancel was not done, and the budget
 * holds the next send (RateBudget.rateLimited). A cancel is the risk-reducing request: counted, three
 * 429s ended it as a retryable failure, its quote left resting until the next requote, within ~300 ms
 * of a server that rounds `Retry-After` down to 0 with most of a second left. Once the queue is
 * closing (the stop) a 429 counts again: close() waits for every cancel, and one on an endpoint
 * that keeps answering 429 held it, and the stop with it, until the stop's deadline, skipping the
 * open-orders sweep that follows — which tries a wallet cancel-all and single cancels again, in
 * rounds, and reads what is left.
 */
export function settleCancel(
  q: SettleTarget,
  item: QueuedCancel,
  res: WriteSend<{ orderId: string; status: string | undefined }>,
): void {
  if (!res.ok && isRateLimited(res.error)) {
    if (q.coverRateLimited(item)) return;
    if (!q.closed) {
      item.attempts--;
      q.requeueCancel(item);
      return;
    }
  }
  if (!res.ok && res.error.outcome === "retryable" && item.attempts < q.maxCancelAttempts) {
    q.requeueCancel(item);
    return;
  }
  if (res.ok) {
    const done: CancelOutcome = { kind: "done", orderId: res.value.orderId, status: res.value.status };
    for (const intent of item.intents) q.report({ kind: "cancel", intent, outcome: done });
    return;
  }
  if (refusesEveryCancel(res.error)) q.cancelsRefused ??= res.error;
  // One request: the duplicates riding along share its failure but do not count it again.
  item.intents.forEach((intent, i) => {
    q.report({ kind: "cancel", intent, outcome: failure(res.error, i === 0) });
  });
}

/**
 * A cancel-all's answer. Success settles the cancels it covered as `covered`. A retryable failure is
 * retried until maxCancelAttempts; after that, or on a definite reject, the covered cancels go back to
 * the cancel lane (still wanted), and a 501 turns cancel-all off. Ambiguity spreads to covered cancels.
 * `sent` is false for an item failed without a request (cancel-all turned off while it was queued).
 * A failed or ambiguous request counts once (requestError): on its first intent's report, or, for a
 * cancel-all the queue substituted (no intents), on a `substitution_failed` report when it failed
 * and on its first covered cancel's ambiguous report when it was answered ambiguously. After such a
 * failure, or an ambiguous answer (a timeout, 500, 502, 504) to one sent, no cancel-all is
 * substituted in its scope for SUBSTITUTION_PAUSE_MS: the cancels it gave back go singly, where
 * substituting again at once would send up to the cancel-all budget (5/s) of doomed requests and
 * hold the market's cancels behind each. An ambiguous one gives none back, but the reconciler finds
 * its orders still open and the order manager cancels them again: substituted again, an endpoint
 * answering 500 every time kept those quotes up for good.
 */
export function settleCancelAll(
  q: SettleTarget,
  item: QueuedCancelAll,
  res: WriteSend<CancelAllResult>,
  sent = true,
): void {
  if (!res.ok && res.error.outcome === "retryable" && item.attempts < q.maxCancelAttempts) {
    q.requeueCancelAll(item);
    return;
  }
  if (res.ok) {
    if (item.sentSeq !== undefined) q.cleared(item.marketId ?? "*", item.sentSeq, res.value.cancelled);
    const done: CancelAllOutcome = { kind: "done", cancelled: res.value.cancelled, marketId: item.marketId };
    for (const intent of item.intents) q.report({ kind: "cancel_all", intent, outcome: done });
    const covered: CancelOutcome = {
      kind: "covered",
      marketId: item.marketId,
      cancelled: res.value.cancelled,
    };
    for (const c of item.covered)
      for (const intent of c.intents) q.report({ kind: "cancel", intent, outcome: covered });
    return;
  }
  const { error } = res;
  if (refusesEveryCancel(error)) q.cancelsRefused ??= error;
  // Before any report: what the engine enqueues on them must already go singly.
  if (sent) q.pauseSubstitution(item.marketId ?? "*");
  // One request however many cancel-alls it absorbed (the kill switch's), none when never sent.
  item.intents.forEach((intent, i) => {
    q.report({ kind: "cancel_all", intent, outcome: failure(error, sent && i === 0) });
  });
  if (error.outcome === "ambiguous") {
    // A substituted cancel-all answers no intent of its own: its first covered cancel counts it.
    let uncounted = sent && item.intents.length === 0;
    for (const c of item.covered)
      for (const intent of c.intents) {
        q.report({ kind: "cancel", intent, outcome: failure(error, uncounted) });
        uncounted = false;
      }
    return;
  }
  if (sent && item.intents.length === 0 && item.marketId !== undefined) {
    const outcome = failedRequest(error, true);
    q.report({ kind: "substitution_failed", marketId: item.marketId, cancels: item.covered.length, outcome });
  }
  if (error.httpStatus === 501 || error.code === "not_implemented") q.cancelAllAvailable = false;
  // Back to the front in their original order.
  for (const c of [...item.covered].reverse()) {
    c.attempts = 0;
    q.requeueCancel(c);
  }
}

/**
 * A queued cancel failed without a request (the key refused cancels for their scope:
 * SettleTarget.cancelsRefused): each intent it carries reported failed with that refusal, none
 * counted as a request error (no request was sent).
 */
export function failCancelUnsent(q: SettleTarget, item: QueuedCancel, error: ExchangeError): void {
  for (const intent of item.intents)
    q.report({ kind: "cancel", intent, outcome: failedRequest(error, false) });
}

/**
 * Whether a cancel's (or cancel-all's) refusal says no cancel with this key can succeed: 403
 * `api_key_scope_missing` for orders:write, the scope the spec gives every cancel endpoint, named by
 * the body's `requiredScope` (the spec's and the mock's 403 carry it, with `have[]`) or, only when
 * the body has none, taken from the endpoint (missingScope). A refusal naming another scope (a finer
 * one an exchange may add) says nothing of the other cancels: failing them all unsent at the stop
 * would leave orders resting that the key could cancel. That holds for a name missingScope does not
 * take as a scope name (`orders:cancel_all`, `orders:write:cancel`…), which it replaces by the
 * endpoint's scope for the log lines: here it is still a scope other than orders:write.
 */
function refusesEveryCancel(err: ExchangeError): boolean {
  if (!scopeMissing(err)) return false;
  const named = err.details.requiredScope;
  return named === undefined ? missingScope(err) === "orders:write" : named === "orders:write";
}

/** The outcome of a request that did not succeed; `requestError` marks the report that counts it. */
function failure(
  error: ExchangeError,
  requestError: boolean,
): Extract<CancelOutcome, { kind: "failed" | "ambiguous" }> {
  return error.outcome === "ambiguous"
    ? { kind: "ambiguous", error, requestError }
    : failedRequest(error, requestError);
}

function failedRequest(error: ExchangeError, requestError: boolean): FailedRequest {
  return { kind: "failed", code: error.code, retryable: error.outcome === "retryable", error, requestError };
}
