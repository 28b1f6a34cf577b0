/** Binary-search helpers over ascending number arrays (the token bucket's release times). */

/** Index of the first element > x. */
export function upperBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first element ≥ x. */
export function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts `x` after any equal elements, keeping `a` ascending. */
export function insertSorted(a: number[], x: number): void {
  const i = upperBound(a, x);
  if (i === a.length) a.push(x);
  else a.splice(i, 0, x);
}
