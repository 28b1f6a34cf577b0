/**
 * Draws from a seeded uniform source. The flow simulator never calls Math.random: every draw comes
 * from the mock's seeded generator, so a run replays exactly for a given seed.
 */

/** A uniform source in [0, 1), e.g. MockContext.random. */
export type Uniform = () => number;

/**
 * One standard normal draw by Box–Muller (two uniforms per draw; the sine twin is discarded so a
 * draw always consumes exactly two uniforms and the sequence stays easy to reason about).
 * @example standardNormal(ctx.random) // e.g. -0.41
 */
export function standardNormal(u: Uniform): number {
  const u1 = 1 - u(); // (0, 1]: log(0) is never taken
  const u2 = u();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/**
 * One exponential draw with the given mean (inverse transform). Inter-arrival times of a Poisson
 * process with rate λ are exponential with mean 1/λ.
 * @example exponential(ctx.random, 2_000) // ms until the next arrival, mean 2 s
 */
export function exponential(u: Uniform, mean: number): number {
  return -mean * Math.log(1 - u());
}

/**
 * An integer uniform in [min, max], both inclusive.
 * @example uniformInt(ctx.random, 5, 60)
 */
export function uniformInt(u: Uniform, min: number, max: number): number {
  return min + Math.min(max - min, Math.floor(u() * (max - min + 1)));
}
