/**
 * A small benchmark harness: each bench file exports `benches`, a list of named cases, and the
 * runner prints ops/s per case plus the ratio against the case marked `baseline` in the same file,
 * measured in the same process run so machine noise cancels out.
 */
export interface BenchCase {
  name: string;
  /** The reference this file's other cases are compared with. */
  baseline?: boolean;
  /** Optional one-off preparation, excluded from timing. */
  setup?: () => Promise<void> | void;
  /** Performs `n` operations; returns nothing. Sync or async. */
  run: (n: number) => Promise<void> | void;
  /** Operations per timed batch. */
  batch: number;
  /** Optional cleanup. */
  teardown?: () => Promise<void> | void;
}

export interface BenchResult {
  name: string;
  opsPerSec: number;
  /** Our ops/s relative to the baseline: < 1 means slower. */
  vsBaseline?: number;
}

/**
 * Runs the cases round-robin, one batch of each per round, for about `seconds` in all after a
 * warm-up, and reports each case's median batch rate. Interleaving means a burst of machine
 * noise hits every case alike, so the ratios against the baseline stay trustworthy.
 */
export async function runCases(cases: BenchCase[], seconds = 2): Promise<BenchResult[]> {
  for (const c of cases) {
    await c.setup?.();
    await c.run(c.batch); // warm-up: JIT, caches
  }
  const rates: number[][] = cases.map(() => []);
  const deadline = performance.now() + seconds * 1000 * cases.length;
  while (performance.now() < deadline || (rates[0]?.length ?? 0) < 5) {
    for (const [i, c] of cases.entries()) {
      const t0 = performance.now();
      await c.run(c.batch);
      rates[i]?.push(c.batch / ((performance.now() - t0) / 1000));
    }
  }
  for (const c of cases) await c.teardown?.();
  const results: BenchResult[] = cases.map((c, i) => {
    const sorted = (rates[i] ?? []).sort((a, b) => a - b);
    return { name: c.name, opsPerSec: sorted[Math.floor(sorted.length / 2)] ?? 0 };
  });
  const base = cases.findIndex((c) => c.baseline === true);
  const baseRate = base >= 0 ? results[base]?.opsPerSec : undefined;
  if (baseRate !== undefined) {
    for (const r of results) r.vsBaseline = r.opsPerSec / baseRate;
  }
  return results;
}

/** Prints results as an aligned table. */
export function printResults(title: string, results: BenchResult[]): void {
  console.log(`\n## ${title}`);
  for (const r of results) {
    const ratio = r.vsBaseline === undefined ? "" : `  (${r.vsBaseline.toFixed(2)}× baseline)`;
    console.log(
      `${r.name.padEnd(48)} ${Math.round(r.opsPerSec).toLocaleString("en-US").padStart(14)} ops/s${ratio}`,
    );
  }
}
