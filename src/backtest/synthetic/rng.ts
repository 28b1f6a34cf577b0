import { SplitMix64 } from "../../venue/ids.js";

/** A uniform source in [0, 1). */
export type Uniform = () => number;

const TWO_53 = 2 ** 53;

/**
 * A seeded uniform stream: splitmix64, top 53 bits → [0, 1). Each (seed, path, stream) triple
 * gets its own independent stream, so the mid path of path i is the same whatever the strategy
 * does (common random numbers: two strategies are compared on identical prices).
 * @example const u = seededUniform(42, 0, "mid"); u() // same value on every run
 */
export function seededUniform(seed: number, path: number, stream: string): Uniform {
  let h = 0xcbf29ce484222325n;
  for (const ch of `${seed}/${path}/${stream}`)
    h = BigInt.asUintN(64, (h ^ BigInt(ch.charCodeAt(0))) * 0x100000001b3n);
  const rng = new SplitMix64(h);
  return () => Number(rng.next() >> 11n) / TWO_53;
}

/**
 * One standard normal draw (Box–Muller, cosine branch only: two uniforms per draw).
 * @example standardNormal(u) // e.g. -0.41
 */
export function standardNormal(u: Uniform): number {
  const u1 = 1 - u();
  const u2 = u();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
