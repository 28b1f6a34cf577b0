import { ClockStepWatch } from "../core/clock-step.js";
import type { Logger } from "../observability/logger.js";
import type { ErrorRateSettings } from "../risk/error-rate.js";

/** While signing keeps failing, at most one error line this often (plus the first). */
export const SIGN_FAILURE_LOG_EVERY_MS = 60_000;

/**
 * At most one signing failure per this many ms counts towards the error-rate halt: windowMs / (2 ×
 * maxErrors). Signing failures spend no rate token, so only the requote rate bounds them: a signer
 * hiccup of ~1 s while 50 tokens requote failed ~100 placements at once and tripped the default halt
 * (10 in 30 s) alone. Paced so, a failure shorter than about half the window cannot trip it alone,
 * while a signer that keeps failing (placements still attempted) trips it after about half the
 * window, whatever maxErrors is.
 * @example signFailureCountEveryMs({ maxErrors: 10, windowMs: 30_000, ... }) // 1500
 */
export function signFailureCountEveryMs(s: Pick<ErrorRateSettings, "maxErrors" | "windowMs">): number {
  return Math.floor(s.windowMs / (2 * Math.max(1, s.maxErrors)));
}

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
 * Every failure is in mm_orders_rejected_total; at most one per `countEveryMs` counts towards the
 * error-rate halt (signFailureCountEveryMs: {@link failed} says which), across episodes, so a
 * signer failing on and off is paced too. Time is passed in (the engine's Clock); a clock stepped back logs at once, and
 * the episode's start moves back with a step beyond CLOCK_STEP_BACK_MS (else nothing signed until
 * the clock caught up could end it).
 * @example
 * const sf = new SignFailures(log);
 * sf.failed(now, { tokenId, clientOrderId, err }); // true (counts towards the halt); logged
 * sf.failed(now + 10, { tokenId, clientOrderId, err }); // in the episode's count, not logged
 * sf.signed(now - 50, now + 20); // signed before the episode: nothing
 * sf.signed(now + 15, now + 20); // "signing works again", failed 2
 */
export class SignFailures {
  readonly #log: Logger;
  #episode: Episode | undefined;
  readonly #steps = new ClockStepWatch();
  readonly #countEveryMs: number;
  #countedAt: number | undefined;

  /** `countEveryMs`: see signFailureCountEveryMs; 0 counts every failure. */
  constructor(log: Logger, countEveryMs = 0) {
    this.#log = log;
    this.#countEveryMs = countEveryMs;
  }

  /**
   * A placement's signing failed at `now`: nothing was sent. True when this failure counts towards
   * the error-rate halt: the first, then one per countEveryMs (a clock step back beyond
   * CLOCK_STEP_BACK_MS moves the last count's time with it; a reading a little behind is within it).
   */
  failed(now: number, f: SignFailure): boolean {
    this.#follow(now);
    this.#logFailure(now, f);
    const at = this.#countedAt;
    if (this.#countEveryMs > 0 && at !== undefined && now - at < this.#countEveryMs) return false;
    this.#countedAt = now;
    return true;
  }

  #logFailure(now: number, f: SignFailure): void {
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
    if (step === 0) return;
    if (this.#episode !== undefined) this.#episode.since -= step;
    if (this.#countedAt !== undefined) this.#countedAt -= step;
  }
}
