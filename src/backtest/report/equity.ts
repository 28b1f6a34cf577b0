const YEAR_MS = 365 * 86_400_000;

/** Sharpe ratio of the equity curve and how it was sampled. */
export interface SharpeFigures {
  readonly intervalMs: number;
  /** Number of increments the ratio is computed from. */
  readonly samples: number;
  /** mean / standard deviation (n − 1) of the PnL increments per interval; null when undefined. */
  readonly perInterval: number | null;
  /** perInterval × √(intervals per 365 days). */
  readonly annualised: number | null;
}

/**
 * The equity curve (total PnL at the marks, Recorder.mid2, in half-pico-USDC so a mid of x.5 micro is exact)
 * observed after every market event and fill. Max drawdown is exact over those observations.
 * The Sharpe ratio samples the curve on a fixed grid of simulated time (every `intervalMs` from
 * the start; each grid point takes the equity as of that time, every observation at or before it
 * included) and uses
 * the increments — PnL, not returns: the strategy has no capital base — with Welford's running
 * mean and variance, so nothing grows with the run's length.
 */
export class EquityCurve {
  readonly #intervalMs: number;
  #nextGrid: number;
  #last = 0n;
  #peak = 0n;
  #maxDrawdown = 0n;
  #prevSample = 0n;
  #n = 0;
  #mean = 0;
  #m2 = 0;

  constructor(startMs: number, intervalMs: number) {
    this.#intervalMs = intervalMs;
    this.#nextGrid = startMs + intervalMs;
  }

  /** The equity is `equity2` (half-pico) from time `t` on. */
  observe(t: number, equity2: bigint): void {
    this.#sampleUntil(t);
    this.#last = equity2;
    if (equity2 > this.#peak) this.#peak = equity2;
    const dd = this.#peak - equity2;
    if (dd > this.#maxDrawdown) this.#maxDrawdown = dd;
  }

  /** Closes the grid at `endMs`. */
  finish(endMs: number): void {
    this.#sampleUntil(endMs + 1);
  }

  /** Largest fall from a running peak (the start counts as a peak of 0), half-pico-USDC. */
  get maxDrawdown2(): bigint {
    return this.#maxDrawdown;
  }

  /** The latest equity, half-pico-USDC. */
  get equity2(): bigint {
    return this.#last;
  }

  /** Sharpe figures of the sampled increments. */
  sharpe(): SharpeFigures {
    const n = this.#n;
    const std = n > 1 ? Math.sqrt(this.#m2 / (n - 1)) : 0;
    const per = n > 1 && std > 0 ? this.#mean / std : null;
    return {
      intervalMs: this.#intervalMs,
      samples: n,
      perInterval: per,
      annualised: per === null ? null : per * Math.sqrt(YEAR_MS / this.#intervalMs),
    };
  }

  #sampleUntil(t: number): void {
    while (this.#nextGrid < t) {
      // Increments in USDC (half-pico / 2e12): a float is fine for a statistic.
      const x = Number(this.#last - this.#prevSample) / 2e12;
      this.#prevSample = this.#last;
      this.#n++;
      const d = x - this.#mean;
      this.#mean += d / this.#n;
      this.#m2 += d * (x - this.#mean);
      this.#nextGrid += this.#intervalMs;
    }
  }
}
