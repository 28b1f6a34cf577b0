import type { PlaceOrderOutcome } from "../exchange/place-outcome.js";
import { isRateLimited } from "./order-queue-send.js";

/**
 * Which 429s to placements the error-rate halt is spared (QueueReport `retryForgone`).
 *
 * A placement answered 429 was definitely not done and is re-queued once; when the engine then
 * withdraws it before that resend (a newer price supersedes it, a gate, a cancel, a cancel-all, the
 * stop) or the queue sheds it, its 429 is its last answer, yet no order of the engine's failed: the
 * level is quoted afresh. Counted, a start burst that outran the exchange's window (the in-process
 * paper mock, its count lagging our sends under CPU load) tripped the halt on 429s alone.
 *
 * Forgiven is the first such 429 on a quote level (token, side, band) only: after it, every 429 there
 * counts until a placement on that level is answered otherwise, so an exchange answering every
 * placement 429 still trips the halt, whatever the requote rate (a level's next placement is then
 * answered 429 too, and counts), and a 429 to the resend itself (the last attempt) always counts.
 */
export class ForgoneRetries {
  /** Quote keys whose last 429 was forgiven, with no placement there answered otherwise since. */
  readonly #forgiven = new Set<string>();

  /**
   * A placement of quote `key` leaves the queue with this answer as its last, with a resend left
   * that it will not get (withdrawn or shed before it): whether its 429 is forgiven.
   */
  forgoes(key: string, outcome: PlaceOrderOutcome): boolean {
    if (outcome.kind !== "rejected" || !outcome.retryable || !isRateLimited(outcome.error)) return false;
    if (this.#forgiven.has(key)) return false;
    this.#forgiven.add(key);
    return true;
  }

  /** A placement of quote `key` was answered: anything but a 429 ends the level's forgiveness. */
  answered(key: string, outcome: PlaceOrderOutcome): void {
    if (outcome.kind === "rejected" && outcome.retryable && isRateLimited(outcome.error)) return;
    this.#forgiven.delete(key);
  }
}
