import { CLOCK_STEP_BACK_MS } from "../src/core/clock-step.js";
import { ValidationError } from "../src/core/errors.js";

/**
 * Online volatility of the mid: an exponentially weighted mean of squared ARITHMETIC mid changes
 * per unit time, for irregularly timed updates. Units: prices in whole units (0.53, not 530_000),
 * time in seconds, so σ is "price units per √second" — the σ of the arithmetic Brownian mid that
 * Avellaneda–Stoikov and GLFT assume (log returns would not match their models' σ).
 *
 * Each update with a mid change r over dt seconds contributes the variance rate r²/dt with weight
 * α = 1 − 2^(−dt/halfLife). For dt ≪ halfLife that makes α·r²/dt ≈ r²·ln2/halfLife, independent of
 * how often the book ticks; for dt ≫ halfLife the latest interval dominates. The running weight
 * W ← (1 − α)·W + α removes the start-up bias: σ² = S / W.
 */

/** Estimator settings. */
export interface VolatilityConfig {
  /** Half-life of an observation's weight, ms (> 0). */
  readonly halfLifeMs: number;
  /** Returns observed before σ is reported (≥ 1); until then sigma() is undefined. */
  readonly minSamples: number;
  /** A gap longer than this (ms) re-anchors without recording a return (a resync, a halt). */
  readonly maxGapMs?: number;
}

/** Estimator state: immutable, replaced by each update. */
export interface VolatilityState {
  readonly config: VolatilityConfig;
  /** Mid (micro-units) and time (ms) the next return is measured from. */
  readonly anchorMid: number | undefined;
  readonly anchorMs: number | undefined;
  /** Weighted sum of variance rates S and total weight W. */
  readonly sum: number;
  readonly weight: number;
  readonly samples: number;
}

/**
 * A fresh estimator; throws ValidationError `volatility_config_invalid` on a bad config.
 * @example const s0 = initVolatility({ halfLifeMs: 60_000, minSamples: 20 });
 */
export function initVolatility(config: VolatilityConfig): VolatilityState {
  if (!(config.halfLifeMs > 0) || !Number.isFinite(config.halfLifeMs)) {
    throw new ValidationError("volatility_config_invalid", "halfLifeMs: must be a positive finite number", {
      halfLifeMs: config.halfLifeMs,
    });
  }
  if (!Number.isInteger(config.minSamples) || config.minSamples < 1) {
    throw new ValidationError("volatility_config_invalid", "minSamples: must be an integer ≥ 1", {
      minSamples: config.minSamples,
    });
  }
  // 0 would re-anchor at every update, so σ would never be reported and σ-driven strategies
  // (A–S, GLFT without a fixed σ) would silently never quote.
  if (config.maxGapMs !== undefined && (!(config.maxGapMs > 0) || !Number.isFinite(config.maxGapMs))) {
    throw new ValidationError("volatility_config_invalid", "maxGapMs: must be a positive finite number", {
      maxGapMs: config.maxGapMs,
    });
  }
  return { config, anchorMid: undefined, anchorMs: undefined, sum: 0, weight: 0, samples: 0 };
}

/**
 * Folds one mid observation in. `tsMs` is elapsed time, on a clock that does not step (the engine
 * passes Clock.monotonic, which is the SimClock's time in a backtest): a forward step of the wall
 * clock read as one long interval holding an ordinary mid change would all but replace the history
 * (α ≈ 1) by a rate far too low (under maxGapMs, or at any size without it).
 * Updates at the anchor's time (or up to a second earlier) change nothing: the next later update
 * measures its return from the anchor, so a move inside one millisecond is not lost. An update more
 * than a second earlier (a clock that stepped back: CLOCK_STEP_BACK_MS) re-anchors without recording
 * a return, like a gap beyond maxGapMs.
 * A non-finite or non-positive mid is ignored.
 * @example
 * let s = initVolatility({ halfLifeMs: 1_000, minSamples: 1 });
 * s = updateVolatility(s, 500_000, 0);
 * s = updateVolatility(s, 501_000, 1_000);
 * sigma(s); // 0.001: r = 0.001 over 1 s
 */
export function updateVolatility(state: VolatilityState, midMicro: number, tsMs: number): VolatilityState {
  if (!Number.isFinite(midMicro) || midMicro <= 0 || !Number.isFinite(tsMs)) return state;
  const { anchorMid, anchorMs, config } = state;
  if (anchorMid === undefined || anchorMs === undefined) {
    return { ...state, anchorMid: midMicro, anchorMs: tsMs };
  }
  const dtMs = tsMs - anchorMs;
  // The clock stepped back: ignoring the reading, as one at the anchor's time is, would freeze σ
  // until the clock caught up with the anchor again (the step's length).
  if (dtMs < -CLOCK_STEP_BACK_MS) return { ...state, anchorMid: midMicro, anchorMs: tsMs };
  if (dtMs <= 0) return state;
  if (config.maxGapMs !== undefined && dtMs > config.maxGapMs) {
    return { ...state, anchorMid: midMicro, anchorMs: tsMs };
  }
  const r = (midMicro - anchorMid) / 1_000_000;
  const dt = dtMs / 1_000;
  const alpha = 1 - 2 ** (-dtMs / config.halfLifeMs);
  return {
    config,
    anchorMid: midMicro,
    anchorMs: tsMs,
    sum: (1 - alpha) * state.sum + alpha * ((r * r) / dt),
    weight: (1 - alpha) * state.weight + alpha,
    samples: state.samples + 1,
  };
}

/**
 * σ in price units per √second, or undefined before `minSamples` returns have been seen.
 * @example sigma(s) // 0.0012
 */
export function sigma(state: VolatilityState): number | undefined {
  if (state.samples < state.config.minSamples || !(state.weight > 0)) return undefined;
  return Math.sqrt(state.sum / state.weight);
}
