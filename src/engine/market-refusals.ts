import type { Clock, TimerId } from "../core/clock.js";

/** The placement reject code (409) by which the exchange says a market's status is not OPEN. */
export const MARKET_NOT_OPEN = "market_not_open";

/**
 * How long a market stays gated, by default (the engine's `marketRecheckMs`), after the exchange
 * refused a placement there with `market_not_open` and no lifecycle push, nor the market's record,
 * said why; then quoting retries (a repeated reject gates it again). A minute, as the error-rate
 * halt's default cool-down: one probing burst per market per minute at most.
 */
export const MARKET_REFUSED_COOLDOWN_MS = 60_000;

/** The status recorded for a market the exchange refused (not a status the exchange sends). */
export const REFUSED_STATUS = "NOT_OPEN";

/**
 * Markets gated because the exchange answered a placement `market_not_open`. The engine learns a
 * market's status from condition_lifecycle pushes, which the spec says are mostly not yet emitted: a
 * market may pause or close silently, and the exchange's answer is then the only word on it. The
 * answer is taken as a market status report (`NOT_OPEN`, which gates the market and pulls its quotes
 * like a pause) with a way back, since nothing may ever report it OPEN again:
 * - after the cool-down (`coolDownMs`, default MARKET_REFUSED_COOLDOWN_MS) the market is reported
 *   OPEN and quoting retries;
 * - a lifecycle push (`pushed`) supersedes the refusal: OPEN lifts the gate at once, any other
 *   status keeps it until a push says OPEN.
 * Further rejects while a market is gated (placements in flight when it was) change nothing.
 * @example
 * const refusals = new MarketRefusals(clock, (marketId, status) => applyStatus(marketId, status));
 * refusals.refused("m1"); // gated now, reported OPEN again 60 s later
 */
export class MarketRefusals {
  readonly #clock: Clock;
  readonly #report: (marketId: string, status: string) => void;
  readonly #coolDownMs: number;
  readonly #gated = new Map<string, TimerId>();
  /** Markets a push last reported not OPEN: gated by the push, which a refusal must not undo. */
  readonly #pushedClosed = new Set<string>();

  constructor(
    clock: Clock,
    report: (marketId: string, status: string) => void,
    coolDownMs = MARKET_REFUSED_COOLDOWN_MS,
  ) {
    this.#clock = clock;
    this.#report = report;
    this.#coolDownMs = coolDownMs;
  }

  /** A placement on `marketId` was rejected `market_not_open`; returns whether this gated it. */
  refused(marketId: string): boolean {
    // A placement in flight when a push closed the market is refused too: the push's status stands
    // (a refusal reporting NOT_OPEN, then OPEN after the cool-down, would reopen a resolved market).
    if (this.#gated.has(marketId) || this.#pushedClosed.has(marketId)) return false;
    const timer = this.#clock.setTimer(this.#coolDownMs, () => {
      this.#gated.delete(marketId);
      this.#report(marketId, "OPEN");
    });
    this.#gated.set(marketId, timer);
    this.#report(marketId, REFUSED_STATUS);
    return true;
  }

  /**
   * A lifecycle push reported the market's status: the refusal's cool-down no longer applies, and
   * while the status is not OPEN, later refusals change nothing.
   */
  pushed(marketId: string, status: string): void {
    if (status === "OPEN") this.#pushedClosed.delete(marketId);
    else this.#pushedClosed.add(marketId);
    const timer = this.#gated.get(marketId);
    if (timer === undefined) return;
    this.#clock.cancelTimer(timer);
    this.#gated.delete(marketId);
  }

  /** Whether the market is gated by a refusal (tests, diagnostics). */
  gated(marketId: string): boolean {
    return this.#gated.has(marketId);
  }

  /** Cancels every cool-down (engine stop: nothing is requoted any more). */
  clear(): void {
    for (const timer of this.#gated.values()) this.#clock.cancelTimer(timer);
    this.#gated.clear();
  }
}
