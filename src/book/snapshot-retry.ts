import type { Clock, TimerId } from "../core/clock.js";
import { type BackoffConfig, backoffDelay } from "./tracker-config.js";

/** What a SnapshotRetry does when it acts. */
export interface SnapshotRetryHooks {
  /** Sends get_book_snapshot (through the tracker's port). */
  send(): void;
  /** A requested or expected snapshot did not arrive in time. */
  timedOut(): void;
}

/**
 * The snapshot request cycle of one book, on the injected Clock: request → wait up to the
 * timeout → on failure or timeout wait back-off(attempt) → request again, until settle().
 * At most one timer is pending at any time.
 */
export class SnapshotRetry {
  readonly #clock: Clock;
  readonly #backoff: BackoffConfig;
  readonly #timeoutMs: number;
  readonly #hooks: SnapshotRetryHooks;
  #timer: TimerId | undefined;
  #attempt = 0;

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

  /** Sends a request now and waits for its answer. */
  requestNow(): void {
    this.cancel();
    this.#attempt++;
    this.#arm(this.#timeoutMs, () => this.#onTimeout());
    this.#hooks.send();
  }

  /** Waits for a snapshot that is coming unasked (the one after subscribe). */
  expect(): void {
    this.cancel();
    this.#arm(this.#timeoutMs, () => this.#onTimeout());
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

  /** Cancels the pending timer, keeping the attempt count. */
  cancel(): void {
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
  }

  #arm(delayMs: number, fn: () => void): void {
    this.#timer = this.#clock.setTimer(delayMs, () => {
      this.#timer = undefined;
      fn();
    });
  }

  #onTimeout(): void {
    this.#hooks.timedOut();
    this.failed();
  }
}
