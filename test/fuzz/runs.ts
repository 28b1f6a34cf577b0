import fc from "fast-check";

/*
 * How much the fuzz properties run. `npm test` runs every file of this folder with the small
 * default; `npm run fuzz` sets MM_FUZZ_RUNS=100000. A property's runs are MM_FUZZ_RUNS × its
 * weight (< 1 for properties whose case costs a socket round trip or a file), never below
 * MIN_RUNS. One process seed (MM_FUZZ_SEED, random when unset) derives every property's seed, so
 * a failure names the seed and the command that replays it exactly.
 */

const DEFAULT_RUNS = 300;
const MIN_RUNS = 20;

function envInt(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** Base runs of a weight-1 property. */
export const BASE_RUNS = Math.max(1, envInt("MM_FUZZ_RUNS") ?? DEFAULT_RUNS);

/** The process seed every property's seed derives from. */
export const SEED = envInt("MM_FUZZ_SEED") ?? (Math.random() * 2 ** 31) | 0;

/** True under `npm run fuzz` (MM_FUZZ_RUNS set): files print their case counts. */
export const FULL = process.env.MM_FUZZ_RUNS !== undefined;

/** Runs of a property of the given weight. */
export function runs(weight = 1): number {
  return Math.max(MIN_RUNS, Math.round(BASE_RUNS * weight));
}

/**
 * A vitest timeout for a property of this weight: 30 s covers `npm test`; a full run gets room in
 * proportion (the dearest cases, a 30-frame book stream or a gzip file, cost under 20 ms).
 */
export function timeoutFor(weight = 1): number {
  return Math.max(30_000, runs(weight) * 20);
}

function seedOf(name: string): number {
  let h = SEED | 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** Cases run in this process, by property name (for the summary line). */
const tally = new Map<string, number>();

function failure(name: string, n: number, err: unknown): Error {
  const msg = err instanceof Error ? err.message : String(err);
  return new Error(
    `fuzz property "${name}" failed (MM_FUZZ_SEED=${SEED}, ${n} runs); replay with ` +
      `MM_FUZZ_SEED=${SEED} MM_FUZZ_RUNS=${BASE_RUNS} npx vitest run test/fuzz\n${msg}`,
    { cause: err },
  );
}

/**
 * Runs a synchronous property `runs(weight)` times with a seed derived from SEED and `name`.
 * @example fuzz("parsePriceMicro matches the reference", fc.property(arb, (s) => …));
 */
export function fuzz<Ts extends unknown[]>(name: string, property: fc.IProperty<Ts>, weight = 1): void {
  const n = runs(weight);
  try {
    fc.assert(property, { numRuns: n, seed: seedOf(name) });
  } catch (err) {
    throw failure(name, n, err);
  }
  tally.set(name, (tally.get(name) ?? 0) + n);
}

/** The asynchronous twin of {@link fuzz}. */
export async function fuzzAsync<Ts extends unknown[]>(
  name: string,
  property: fc.IAsyncProperty<Ts>,
  weight = 1,
): Promise<void> {
  const n = runs(weight);
  try {
    await fc.assert(property, { numRuns: n, seed: seedOf(name) });
  } catch (err) {
    throw failure(name, n, err);
  }
  tally.set(name, (tally.get(name) ?? 0) + n);
}

/** Prints one line per property and the file's total (full runs only); call from afterAll. */
export function printTally(file: string, startedAt: number): void {
  if (!FULL) return;
  const total = [...tally.values()].reduce((a, b) => a + b, 0);
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  const lines = [...tally].map(([name, n]) => `  ${String(n).padStart(8)}  ${name}`);
  console.log(`fuzz ${file}: ${total} cases in ${seconds} s (seed ${SEED})\n${lines.join("\n")}`);
}
