import type { Uniform } from "./random.js";
import { standardNormal } from "./random.js";

/**
 * The fair-value process of a market's YES token: a Gaussian random walk in logit space, so the
 * value can never leave (0, 1) however long it runs. The step's standard deviation in logit units
 * is `volatilityPerStep / (p·(1 − p))` (the delta-method conversion), which makes the change per
 * step about `volatilityPerStep` in price units near the middle of the range and shrinks it near
 * 0 and 1 where a price cannot move much further.
 *
 * The fair value is a model quantity (a float); prices derived from it are snapped to integer
 * micro-units and to the market's tick before they reach the venue (see layout.ts).
 */

/** |logit(p)| never exceeds this: p stays within [1e-4, 1 − 1e-4]. */
export const LOGIT_BOUND = Math.log(9_999);

/** Largest logit step's standard deviation, so a value near the bounds does not jump across the range. */
export const MAX_LOGIT_SIGMA = 0.5;

/** ln(p / (1 − p)). */
export function logit(p: number): number {
  return Math.log(p / (1 - p));
}

/** 1 / (1 + e^−x). */
export function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Clamps a value into the process's range [logistic(−LOGIT_BOUND), logistic(LOGIT_BOUND)]. */
export function clampFairValue(p: number): number {
  if (!Number.isFinite(p)) return 0.5;
  const lo = logistic(-LOGIT_BOUND);
  const hi = logistic(LOGIT_BOUND);
  return p < lo ? lo : p > hi ? hi : p;
}

/**
 * One step of the walk: draws one standard normal (two uniforms) and returns the next value.
 * @example let p = 0.55; p = stepFairValue(p, 0.002, ctx.random);
 */
export function stepFairValue(p: number, volatilityPerStep: number, u: Uniform): number {
  const z = standardNormal(u);
  const current = clampFairValue(p);
  const sigma = Math.min(volatilityPerStep / (current * (1 - current)), MAX_LOGIT_SIGMA);
  const x = logit(current) + sigma * z;
  return logistic(x < -LOGIT_BOUND ? -LOGIT_BOUND : x > LOGIT_BOUND ? LOGIT_BOUND : x);
}
