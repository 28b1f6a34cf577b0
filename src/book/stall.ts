import type { StallConfig } from "./tracker-config.js";

/**
 * A book's own update rate: the exponentially weighted mean of the times between its applied
 * updates. Times are milliseconds of the injected Clock; floats are fine here (no money).
 */
export class ArrivalRate {
  readonly #alpha: number;
  #mean: number | undefined;
  #samples = 0;
  #last: number | undefined;

  constructor(alpha: number) {
    this.#alpha = alpha;
  }

  /** Records an update at `ts`: the time since the previous one becomes a sample. */
  arrive(ts: number): void {
    if (this.#last !== undefined) this.absorb(ts - this.#last);
    this.#last = ts;
  }

  /** Restarts the interval clock at `ts` without a sample (after a snapshot or a resync). */
  restart(ts: number): void {
    this.#last = ts;
  }

  /** Adds one inter-arrival sample. */
  absorb(intervalMs: number): void {
    const x = Math.max(0, intervalMs);
    this.#mean = this.#mean === undefined ? x : this.#mean + this.#alpha * (x - this.#mean);
    this.#samples++;
  }

  /** EWMA of the inter-arrival time; undefined before the first sample. */
  get meanMs(): number | undefined {
    return this.#mean;
  }

  /** Number of samples absorbed. */
  get samples(): number {
    return this.#samples;
  }
}

/**
 * How long a book may stay silent before it is judged stale: max(k × mean, floor), or undefined
 * while the book has fewer than `minSamples` samples (no yardstick: only liveness judges it).
 */
export function silenceLimitMs(rate: ArrivalRate, cfg: StallConfig): number | undefined {
  const mean = rate.meanMs;
  if (mean === undefined || rate.samples < cfg.minSamples) return undefined;
  return Math.max(cfg.k * mean, cfg.floorMs);
}

/** True when a book last updated at `lastUpdateTs` is silent beyond its own limit at `now`. */
export function isSilent(
  rate: ArrivalRate,
  lastUpdateTs: number | undefined,
  now: number,
  cfg: StallConfig,
): boolean {
  const limit = silenceLimitMs(rate, cfg);
  return limit !== undefined && lastUpdateTs !== undefined && now - lastUpdateTs > limit;
}
