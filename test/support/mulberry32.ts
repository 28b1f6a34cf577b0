/**
 * A deterministic 32-bit generator (mulberry32) for reproducible test and bench data: uniform
 * numbers in [0, 1) from a seed. One copy for every generator of test data.
 * @example const rnd = mulberry32(3); rnd(); // 0.…
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
