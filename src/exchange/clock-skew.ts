import type { Logger } from "pino";

/**
 * |exchange − our clock| above which the operator is warned, ms. A host under NTP agrees with the
 * exchange to tens of ms, and the estimate's own error is half a round trip (ServerClock): 2 s is
 * no jitter of either, but a clock left unsynchronised. Order expiries are signed on the exchange's
 * clock whatever the skew, so nothing breaks at once; what does not follow is every time mm writes
 * (log lines, journal rows, fill ages), which then disagree with the exchange's records by the skew.
 */
export const CLOCK_SKEW_WARN_MS = 2_000;

/**
 * |offset| at or under which a skew that was warned of counts as gone, ms. Below the warning's
 * threshold so that an estimate hovering around 2 s (its moving average moves by tens of ms with
 * each answer's round trip) does not warn and clear at every other answer.
 */
export const CLOCK_SKEW_CLEAR_MS = 1_500;

/**
 * Tells the operator once when our clock drifts from the exchange's by more than CLOCK_SKEW_WARN_MS
 * (a warning naming the offset), and once when it comes back within CLOCK_SKEW_CLEAR_MS (an info
 * line); nothing in between, however many answers carry the skew. Fed the ServerClock's estimate
 * (ServerClock.onSample); it reads no clock itself.
 * @example
 * const skew = new ClockSkewWatch(logger);
 * client.serverClock.onSample((offsetMs) => skew.check(offsetMs));
 */
export class ClockSkewWatch {
  readonly #log: Logger;
  #skewed = false;

  constructor(logger: Logger) {
    this.#log = logger;
  }

  /** Whether the last check found our clock skewed (warned, not yet cleared). */
  get skewed(): boolean {
    return this.#skewed;
  }

  /** One estimate of the exchange's clock minus ours, ms (positive: ours is behind). */
  check(offsetMs: number): void {
    if (!Number.isFinite(offsetMs)) return;
    const abs = Math.abs(offsetMs);
    const rounded = Math.round(offsetMs);
    if (!this.#skewed && abs > CLOCK_SKEW_WARN_MS) {
      this.#skewed = true;
      const way = offsetMs > 0 ? "behind" : "ahead of";
      this.#log.warn(
        { offsetMs: rounded },
        `our clock is ${Math.abs(rounded)} ms ${way} the exchange's (X-Server-Time): log and journal times disagree with the exchange's records by that much; order expiries are signed on the exchange's clock. Check the host's time sync (NTP)`,
      );
    } else if (this.#skewed && abs <= CLOCK_SKEW_CLEAR_MS) {
      this.#skewed = false;
      this.#log.info(
        { offsetMs: rounded },
        `our clock agrees with the exchange's again (offset ${rounded} ms)`,
      );
    }
  }
}
