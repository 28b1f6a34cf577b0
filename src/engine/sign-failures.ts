import { ClockStepWatch } from "../core/clock-step.js";
import type { Logger } from "../observability/logger.js";

/** While signing keeps failing, at most one error line this often (plus the first). */
export const SIGN_FAILURE_LOG_EVERY_MS = 60_000;

/** What is logged of one failed signing. */
export interface SignFailure {
  tokenId: string;
  clientOrderId: string;
  err: unknown;
}

interface Episode {
  since: number;
  /** Failures in the episode, logged or not. */
  total: number;
  /** Failures since the last line. */
  unlogged: number;
  loggedAt: number;
}

/**
 * Logs a signer that keeps failing (a KMS down, a key gone) as one episode rather than one error line
 * per placement attempt: the first failure at error, then at most one line per
 * SIGN_FAILURE_LOG_EVERY_MS with how many failed since the last (`failures`) and in the episode
 * (`episodeFailures`), and one info line, `signing works again`, when a placement signed after the
 * episode began is answered. A placement signed before it (in flight when the signer broke) proves
 * nothing: ending the episode on its answer logged `signing works again` during an outage, and the
 * next failure opened another episode with another error line, once per placement in flight.
 * Every failure still counts towards the error-rate halt and in mm_orders_rejected_total; only the
 * log is thinned. Time is passed in (the engine's Clock); a clock stepped back logs at once, and
 * the episode's start moves back with a step beyond CLOCK_STEP_BACK_MS (else nothing signed until
 * the clock caught up could end it).
 * @example
 * const sf = new SignFailures(log);
 * sf.failed(now, { tokenId, clientOrderId, err }); // logged: the episode's first
 * sf.failed(now + 10, { tokenId, clientOrderId, err }); // counted, not logged
 * sf.signed(now - 50, now + 20); // signed before the episode: nothing
 * sf.signed(now + 15, now + 20); // "signing works again", failed 2
 */
export class SignFailures {
  readonly #log: Logger;
  #episode: Episode | undefined;
  readonly #steps = new ClockStepWatch();

  constructor(log: Logger) {
    this.#log = log;
  }

  /** A placement's signing failed at `now`: nothing was sent. */
  failed(now: number, f: SignFailure): void {
    this.#follow(now);
    const fields = { tokenId: f.tokenId, clientOrderId: f.clientOrderId, err: f.err };
    const e = this.#episode;
    if (e === undefined) {
      this.#episode = { since: now, total: 1, unlogged: 0, loggedAt: now };
      this.#log.error(fields, "placement not sent: signing failed");
      return;
    }
    e.total++;
    e.unlogged++;
    const elapsed = now - e.loggedAt;
    if (elapsed >= 0 && elapsed < SIGN_FAILURE_LOG_EVERY_MS) return;
    this.#log.error(
      { ...fields, failures: e.unlogged, episodeFailures: e.total, sinceMs: Math.max(0, now - e.since) },
      "placement not sent: signing failed",
    );
    e.unlogged = 0;
    e.loggedAt = now;
  }

  /**
   * A placement signed (and sent) at `signedAt` was answered at `now`: an episode of failures, if
   * any, ends when it began before that signing (strictly: a millisecond's order is unknown).
   */
  signed(signedAt: number, now: number): void {
    this.#follow(now);
    const e = this.#episode;
    if (e === undefined || signedAt <= e.since) return;
    this.#episode = undefined;
    this.#log.info({ failed: e.total, durationMs: Math.max(0, now - e.since) }, "signing works again");
  }

  #follow(now: number): void {
    const step = this.#steps.follow(now);
    if (step > 0 && this.#episode !== undefined) this.#episode.since -= step;
  }
}
