import type { Side } from "../core/types.js";
import type { CancelIntent, PlaceIntent } from "../execution/intents.js";
import {
  applyCancelAllOutcome,
  applyCancelOutcome,
  applyPlaceOutcome,
  markPlacementDropped,
} from "../execution/order-manager-outcomes.js";
import { SIGN_FAILED } from "../execution/order-queue-send.js";
import type { CancelOutcome, QueueReport } from "../execution/order-queue-types.js";
import type { EngineCore } from "./engine-core.js";
import { answeredByFill } from "./engine-fills.js";
import { BAD_SIGNATURE } from "./fee-recheck.js";
import { MARKET_NOT_OPEN } from "./market-refusals.js";
import type { SignFailures } from "./sign-failures.js";

/**
 * Applies one order-queue report to the order store and acts on what it means:
 * - placement accepted → open / filled; rejected → the order does not exist, the code goes to the
 *   risk guard's error rate (not a 429 withdrawn before its resend: `retryForgone`; so does a signing failure, nothing sent, logged once an episode:
 *   `signFailures`; 409 `market_not_open` instead gates that market: market-refusals.ts;
 *   503 `exchange_unavailable` is first checked against the platform status: platform-watch.ts);
 *   ambiguous → `unknown` (never resent: the order manager places nothing more on that level until
 *   it is resolved), a reconcile is scheduled, and its code goes to the error rate too;
 * - placement dropped unsent → it never existed;
 * - cancel done / covered by a cancel-all → cancelled; failed or ambiguous → logged with its reason
 *   (logCancelFailure), the reconciler finds out
 *   (and a retryable failure leaves the order open, so the next step cancels it again); a failed or
 *   ambiguous request counts once towards the error rate, however many intents it answered
 *   (requestError);
 * - cancel-all done → every open or cancelling order in its scope is cancelled, and its tokens are
 *   requoted (a step since may have kept orders the answer has just ended); not done → its tokens
 *   are requoted too, so that a gate it enforced falls back to each gated step's single cancels;
 *   failed or ambiguous, it counts once towards the error rate;
 * - a cancel-all the queue substituted for single cancels failed → logged, and counted once towards
 *   the error rate (its cancels are reported one by one as they settle; answered ambiguously, its
 *   first covered cancel's report counts it).
 * Ambiguous answers count because an exchange that cannot say whether it pulled a quote leaves it
 * resting at a stale price while the bot quotes anew beside it: the halt stops the placements, and
 * the cancels and reconciles that resolve the ambiguity go on (README "Risk limits").
 * A token whose last step held a placement back until its live orders are answered
 * (engine-in-flight.ts) is requoted on any answer about its orders; one whose last step read the
 * clock and sent intents, on a cancel's answer too (it is on no requote timer meanwhile).
 * Orphan cancels (orders the store does not track) feed the log and the listener, and a failed or
 * ambiguous one counts towards the error rate as any cancel does.
 * `waiters` resolves callers waiting for a cancel-all (start-up and shutdown).
 */
export function handleQueueReport(
  core: EngineCore,
  r: QueueReport,
  waiters: CancelAllWaiters,
  signFailures: SignFailures,
): void {
  const now = core.clock.now();
  switch (r.kind) {
    case "place":
      onPlace(core, signFailures, r.intent, r, now);
      return;
    case "place_dropped":
      core.signatures.dropped(r.intent.clientOrderId);
      markPlacementDropped(core.store, r.intent.clientOrderId, now);
      core.emit({ type: "place_dropped", atMs: now, intent: r.intent, reason: r.reason });
      requoteIfAwaiting(core, r.intent.tokenId, r.intent.quote.side);
      return;
    case "cancel": {
      const { intent, outcome } = r;
      core.emit({
        type: "cancel_outcome",
        atMs: now,
        clientOrderId: intent.clientOrderId,
        outcome: outcome.kind,
        reason: intent.reason,
      });
      const counted = (outcome.kind === "failed" || outcome.kind === "ambiguous") && outcome.requestError;
      if (core.store.get(intent.clientOrderId) === undefined) {
        if (outcome.kind === "failed" || outcome.kind === "ambiguous") {
          core.log.warn(
            { orderId: intent.orderId, outcome: outcome.kind, reason: intent.reason },
            "orphan cancel did not confirm",
          );
          // A request sent like any other cancel: an exchange refusing every orphan cancel is as
          // unhealthy as one refusing ours, and the orphan rests on at a price nobody chose.
          if (counted) core.orderError(outcome.error.code);
          core.reconcileSoon("ambiguous");
        }
        return;
      }
      if (outcome.kind === "done" || outcome.kind === "covered") {
        const cancelled = core.store.get(intent.clientOrderId);
        // Its replacement waited for this answer (cancel-then-place: order-manager-diff.ts).
        const doubted = cancelled?.cancelDoubted === true || cancelled?.cancelFirst === true;
        applyCancelOutcome(core.store, intent.clientOrderId, { ok: true }, now);
        // The replacement a cancel-replace held back (engine-in-flight.ts), or that waited for the
        // cancel of an order whose cancel once failed (order-manager-diff.ts), can go now. A token
        // whose last step read the clock and sent intents is on no requote timer until a step is
        // remembered: its cancel's answer steps it (QuoteMemo.clockedUnremembered).
        if (doubted || core.tokens.get(intent.tokenId)?.memo.clockedUnremembered === true)
          core.requote(intent.tokenId);
        else requoteIfAwaiting(core, intent.tokenId, core.store.get(intent.clientOrderId)?.side);
      } else if (outcome.kind === "failed" || outcome.kind === "ambiguous") {
        const eff = applyCancelOutcome(
          core.store,
          intent.clientOrderId,
          { ok: false, error: outcome.error },
          now,
        );
        logCancelFailure(core, intent, outcome);
        if (counted) core.orderError(outcome.error.code);
        if (eff.reconcile) core.reconcileSoon("ambiguous");
        core.requote(intent.tokenId);
      }
      return;
    }
    case "cancel_all": {
      const { intent, outcome } = r;
      core.emit({
        type: "cancel_all_outcome",
        atMs: now,
        marketId: intent.marketId,
        outcome: outcome.kind,
        reason: intent.reason,
      });
      if (outcome.kind === "done") {
        applyCancelAllOutcome(core.store, intent.marketId, now);
      } else {
        core.log.warn(
          { marketId: intent.marketId, code: outcome.error.code, reason: intent.reason },
          `cancel-all ${outcome.kind}`,
        );
        if (outcome.requestError) core.orderError(outcome.error.code);
        core.reconcileSoon("ambiguous");
      }
      // Every token in its scope is requoted. Done: a step may have run since the cancel-all was
      // sent (a thaw, a re-armed switch) and kept orders that this answer has just ended; a gated
      // step sends nothing; it also frees a placement held back for them (engine-in-flight.ts).
      // Not done (failed, refused after a 501, ambiguous): a wallet or market gate was enforced by
      // this cancel-all alone, and a quiet token is requoted by nothing else; its gated step now
      // cancels its quotes one by one.
      for (const s of core.tokens.slots()) {
        if (intent.marketId === undefined || s.market.marketId === intent.marketId) {
          core.requote(s.market.tokenId);
        }
      }
      waiters.settle(intent, outcome.kind === "done");
      return;
    }
    case "substitution_failed": {
      // A cancel-all the queue sent in place of the market's single cancels: no intent of ours, but
      // a request sent and refused, so it is logged and counted like one. Its cancels go singly now
      // (each reported as usual), and the queue substitutes none in that market for a while.
      const { marketId, cancels, outcome } = r;
      core.log.warn(
        { marketId, cancels, code: outcome.code, httpStatus: outcome.error.httpStatus },
        "substituted cancel-all failed; its cancels go singly",
      );
      if (outcome.requestError) core.orderError(outcome.code);
      return;
    }
  }
}

function onPlace(
  core: EngineCore,
  signFailures: SignFailures,
  intent: PlaceIntent,
  r: Extract<QueueReport, { kind: "place" }>,
  now: number,
): void {
  const { outcome } = r;
  const eff = applyPlaceOutcome(core.store, intent.clientOrderId, outcome, now);
  const code = outcome.kind === "accepted" ? undefined : outcome.error.code;
  const orderId = outcome.kind === "accepted" ? outcome.result.orderId : undefined;
  core.emit({
    type: "place_outcome",
    atMs: now,
    intent,
    outcome: outcome.kind,
    code,
    latencyMs: r.answeredAt - r.sentAt,
    ...(orderId === undefined ? {} : { orderId }),
  });
  // Compared with the order as signed: the fee re-read below is not the only cause (a domain).
  core.signatures.answered(intent, outcome);
  if (outcome.kind === "rejected" && outcome.code === SIGN_FAILED) {
    // Nothing was sent, but an order attempt failed: it counts towards the halt, so a signer that
    // fails every time (a KMS down) stops quoting as an exchange refusing every order would. It only
    // makes the halt easier to reach than its config bound (one error per request) says. At most
    // one per windowMs / (2 × maxErrors) counts, so a signer hiccup while every token requotes does
    // not trip the halt alone; the log is one episode, not a line per attempt (sign-failures.ts).
    const counts = signFailures.failed(now, {
      tokenId: intent.tokenId,
      clientOrderId: intent.clientOrderId,
      err: outcome.error.cause,
    });
    if (counts) core.orderError(SIGN_FAILED);
  } else if (outcome.kind === "rejected") {
    // The exchange's own words and request id: a code alone (invalid_amounts) does not say that the
    // configured tick disagrees with the market's.
    const { message, details, httpStatus, requestId } = outcome.error;
    core.log.warn(
      {
        tokenId: intent.tokenId,
        clientOrderId: intent.clientOrderId,
        code,
        httpStatus,
        requestId,
        exchangeMessage: message,
        details,
        side: intent.quote.side,
        priceMicro: intent.quote.priceMicro,
        sizeMicro: intent.quote.sizeMicro.toString(),
        ...(r.retryForgone === true ? { retryForgone: true } : {}),
      },
      "placement rejected",
    );
    // No immediate requote: a definite reject would come back at once and spin; the next book
    // update or fill (or the requote timer's next period, for a strategy reading the clock) quotes
    // the level afresh under a new clientOrderId.
    // `market_not_open` is the exchange's word on the market, not on our health (lifecycle pushes
    // may never come): it gates that market for a while instead of counting towards the wallet halt.
    // A 429 the placement was withdrawn before retrying (`retryForgone`, the first on its level: see
    // ForgoneRetries) failed no order of ours: the level is quoted afresh. Counted, a start burst
    // that outran the exchange's window tripped the halt on 429s alone.
    if (outcome.code === MARKET_NOT_OPEN) core.marketRefused(intent.marketId);
    else if (r.retryForgone !== true) core.orderError(outcome.code);
    // Usually a fee changed since start (the spec's word on bad_signature): the next placement must
    // be signed with the market's fee now. It still counts: a wrong key must halt quoting.
    if (outcome.code === BAD_SIGNATURE) core.signatureRefused(intent.marketId);
  } else if (outcome.kind === "ambiguous") {
    core.log.warn(
      { tokenId: intent.tokenId, clientOrderId: intent.clientOrderId, code },
      "placement ambiguous",
    );
    // One request whose fate only the reconciler learns: counted as a failure is (once: a placement
    // is never resent after it), so an exchange answering 500 or timing out on every order halts
    // quoting instead of leaving one unknown order per level after another.
    core.orderError(outcome.error.code);
    // A user_fill can bind the order while its answer is still on its way (it crossed at once, then
    // the answer timed out): the ambiguous answer then changes nothing in the store and no search
    // looks for an order with an id, so it is answered here, after its `place_outcome`, or the
    // journal kept it unanswered for the whole run.
    const bound = core.store.get(intent.clientOrderId);
    if (bound?.orderId !== undefined) answeredByFill(core, bound);
  }
  // Signed at its send: one signed before a signing-failure episode began proves nothing of the signer.
  if (outcome.kind !== "rejected" || outcome.code !== SIGN_FAILED) signFailures.signed(r.sentAt, now);
  if (eff.reconcile) core.reconcileSoon("ambiguous");
  // An answered placement unblocks its level: the book may have moved while it was in flight (the
  // step then could not replace it), and one retired or landing while stopping must be cancelled.
  if (outcome.kind === "accepted") {
    core.requoteTimer.accepted(intent.tokenId, intent.quote.side, intent.quote.level);
    core.requote(intent.tokenId);
  } else if (outcome.kind === "rejected") {
    requoteIfAwaiting(core, intent.tokenId, intent.quote.side);
    // The replacement of an order near its expiry: tried again before that order's expiry.
    const { side, level } = intent.quote;
    core.orderRenewal.refused(intent.tokenId, side, level, now);
    // Not at once (a definite reject would spin), but a token quoting on the clock is stepped at the
    // next period, or on a quiet book its level stayed empty until the next event (requote-timer.ts).
    core.requoteTimer.refused(intent.tokenId, side, level);
  }
}

/**
 * The codes of a cancel that found its order already gone (filled, cancelled, expired, or never known
 * by that id): a cancel racing a fill, the usual way a requote meets a taker. The same set the
 * error-rate halt leaves uncounted by default (risk/config.ts ignoreCodes).
 */
const GONE_CODES: ReadonlySet<string> = new Set(["not_cancellable", "order_not_found", "order_id_unknown"]);

/**
 * One line per failed or ambiguous cancel of one of our orders, with why it was asked for: a warn,
 * except for a cancel that lost the race against a fill or expiry (GONE_CODES, definite): an info,
 * since each fill that crosses a requote makes one and the reconciler settles it — at warn, they
 * would bury the failures that matter (a refusal, a 5xx after the queue's retries, an unanswered
 * cancel whose order may still rest). One per intent answered, bounded by the queue's cancel rate.
 */
function logCancelFailure(
  core: EngineCore,
  intent: CancelIntent,
  outcome: Extract<CancelOutcome, { kind: "failed" | "ambiguous" }>,
): void {
  const code = outcome.error.code;
  const fields = {
    tokenId: intent.tokenId,
    clientOrderId: intent.clientOrderId,
    orderId: intent.orderId,
    outcome: outcome.kind,
    code,
    reason: intent.reason,
  };
  if (outcome.kind === "failed" && GONE_CODES.has(code)) core.log.info(fields, "cancel found the order gone");
  else core.log.warn(fields, `cancel ${outcome.kind}`);
}

/**
 * Requotes a token whose last step held a placement back on `side` (undefined: either) for the
 * orders still live there (engine-in-flight.ts): the answer that ended one of them freed room.
 * Nothing else is requoted on such answers (a definite reject would come back at once and spin).
 */
function requoteIfAwaiting(core: EngineCore, tokenId: string, side: Side | undefined): void {
  const held = core.tokens.get(tokenId)?.awaiting;
  if (held === undefined) return;
  if (side === undefined ? held.buy || held.sell : held[side]) core.requote(tokenId);
}

/** Callers waiting for the answer to a cancel-all they enqueued. */
export class CancelAllWaiters {
  readonly #waiting = new Map<object, (ok: boolean) => void>();

  /** A promise of whether the cancel-all carrying `intent` succeeded. */
  wait(intent: object): Promise<boolean> {
    return new Promise((resolve) => this.#waiting.set(intent, resolve));
  }

  settle(intent: object, ok: boolean): void {
    const fn = this.#waiting.get(intent);
    if (fn === undefined) return;
    this.#waiting.delete(intent);
    fn(ok);
  }

  /** Resolves every waiter as failed (shutdown cut short). */
  failAll(): void {
    for (const fn of this.#waiting.values()) fn(false);
    this.#waiting.clear();
  }
}
