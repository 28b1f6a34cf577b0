import type { Clock, TimerId } from "../core/clock.js";
import { type BackoffConfig, backoffDelay } from "./tracker-config.js";

/** What a SnapshotRetry does when it acts. */
export interface SnapshotRetryHooks {
  /**
   * Sends get_book_snapshot (through the tracker's port). False when nothing could be sent (the
   * book's subscription is not live): then there is no answer to time out.
   */
  send(): boolean;
  /** A requested or expected snapshot did not arrive in time. */
  timedOut(): void;
}

/**
 * The snapshot request cycle of one book, on the injected Clock: request → wait up to the
 * timeout → on failure or timeout wait back-off(attempt) → request again, until settle().
 * A request that could not be sent parks the cycle: no timer, nothing counted, until expect()
 * (the resubscribe's snapshot is coming) or another call starts it again; retrying in a loop
 * could send nothing either. At most one timer is pending at any time.
 */
export class SnapshotRetry {
  readonly #clock: Clock;
  readonly #backoff: BackoffConfig;
  readonly #timeoutMs: number;
  readonly #hooks: SnapshotRetryHooks;
  #timer: TimerId | undefined;
  #attempt = 0;
  #parked = false;
  /** Parked by a request of its own that could not be sent (not by park()). */
  #unsent = false;

  constructor(clock: Clock, backoff: BackoffConfig, timeoutMs: number, hooks: SnapshotRetryHooks) {
    this.#clock = clock;
    this.#backoff = backoff;
    this.#timeoutMs = timeoutMs;
    this.#hooks = hooks;
  }

  /** Requests sent in the current cycle. */
  get attempt(): number {
    return this.#attempt;
  }

  /** True while a timeout or a back-off timer is pending. */
  get pending(): boolean {
    return this.#timer !== undefined;
  }

  /** Parked: the last request could not be sent, and nothing is pending until told otherwise. */
  get parked(): boolean {
    return this.#parked;
  }

  /**
   * Parked because a request of its own could not be sent: the book wanted a snapshot that no
   * subscribe had promised (park() alone means one is promised once the subscription is back).
   */
  get unsent(): boolean {
    return this.#unsent;
  }

  /** Sends a request now and waits for its answer (parks when it could not be sent). */
  requestNow(): void {
    this.cancel();
    this.#attempt++;
    // Armed before sending: an answer delivered within send() settles this very timer.
    const timer = this.#arm(this.#timeoutMs, () => this.#onTimeout());
    if (this.#hooks.send() || this.#timer !== timer) return;
    this.#attempt--;
    this.park();
    this.#unsent = true;
  }

  /** Waits for a snapshot that is coming unasked (the one after subscribe). */
  expect(): void {
    this.cancel();
    this.#arm(this.#timeoutMs, () => this.#onTimeout());
  }

  /** Nothing can be asked now (the subscription is down): wait, without a timer, for expect(). */
  park(): void {
    this.cancel();
    this.#parked = true;
  }

  /** The last request failed: request again after the back-off delay. */
  failed(): void {
    this.cancel();
    this.#arm(backoffDelay(this.#attempt, this.#backoff), () => this.requestNow());
  }

  /** A snapshot arrived: stop, and start the next cycle from attempt 0. */
  settle(): void {
    this.cancel();
    this.#attempt = 0;
  }

  /** Cancels the pending timer (and unparks), keeping the attempt count. */
  cancel(): void {
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
    this.#parked = false;
    this.#unsent = false;
  }

  #arm(delayMs: number, fn: () => void): TimerId {
    const timer = this.#clock.setTimer(delayMs, () => {
      this.#timer = undefined;
      fn();
    });
    this.#timer = timer;
    return timer;
  }

  #onTimeout(): void {
    this.#hooks.timedOut();
    this.failed();
  }
}
