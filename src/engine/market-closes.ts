import type { Clock, TimerId } from "../core/clock.js";

/**
 * The longest wait given to one Clock timer. Node's setTimeout (under LiveClock) fires at once when
 * asked for more than 2^31 − 1 ms (24.8 days), and a market may close months from now: longer waits
 * are taken in steps of at most a day, the close re-checked at each.
 */
export const MAX_TIMER_STEP_MS = 86_400_000;

/**
 * Tells the engine when each market's closesAt has passed, on the injected Clock (a SimClock in a
 * backtest). The market list gives every market a closesAt, or null; past it the exchange answers
 * placements 409 market_not_open, yet no lifecycle push need come (the spec: most lifecycle events
 * are not yet emitted). `onClose` fires once per market, at the first millisecond after its
 * closesAt, or at once from `arm` for a market that closed before the engine started. Markets
 * without a closesAt are never reported.
 * @example
 * const closes = new MarketCloses(clock, (marketId, closesAtMs) => gate(marketId, closesAtMs));
 * closes.arm([{ marketId: "m1", closesAtMs: Date.parse("2026-07-19T18:00:00Z") }]);
 */
export class MarketCloses {
  readonly #clock: Clock;
  readonly #onClose: (marketId: string, closesAtMs: number) => void;
  readonly #timers = new Map<string, TimerId>();
  readonly #reported = new Set<string>();

  constructor(clock: Clock, onClose: (marketId: string, closesAtMs: number) => void) {
    this.#clock = clock;
    this.#onClose = onClose;
  }

  /**
   * Watches the markets (tokens of one market may all be passed: the earliest closesAt of a market
   * counts). Markets already watched or reported are left as they are.
   */
  arm(markets: Iterable<{ readonly marketId: string; readonly closesAtMs: number | undefined }>): void {
    const earliest = new Map<string, number>();
    for (const m of markets) {
      if (m.closesAtMs === undefined || !Number.isFinite(m.closesAtMs)) continue;
      const known = earliest.get(m.marketId);
      if (known === undefined || m.closesAtMs < known) earliest.set(m.marketId, m.closesAtMs);
    }
    for (const [marketId, closesAtMs] of earliest) {
      if (!this.#timers.has(marketId) && !this.#reported.has(marketId)) this.#schedule(marketId, closesAtMs);
    }
  }

  /** Whether the market's close has been reported. */
  closed(marketId: string): boolean {
    return this.#reported.has(marketId);
  }

  /** Cancels every pending timer (engine stop). */
  clear(): void {
    for (const t of this.#timers.values()) this.#clock.cancelTimer(t);
    this.#timers.clear();
  }

  #schedule(marketId: string, closesAtMs: number): void {
    this.#timers.delete(marketId);
    // Closed from the first millisecond after closesAt: the gate's own test is `now > closesAtMs`.
    const wait = closesAtMs + 1 - this.#clock.now();
    if (wait <= 0) {
      this.#reported.add(marketId);
      this.#onClose(marketId, closesAtMs);
      return;
    }
    const timer = this.#clock.setTimer(Math.min(wait, MAX_TIMER_STEP_MS), () =>
      this.#schedule(marketId, closesAtMs),
    );
    this.#timers.set(marketId, timer);
  }
}
