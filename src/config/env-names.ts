import { settings } from "./schema.js";

/**
 * `MM_*` variables that are not settings but that mm's own tooling reads, so a config-loading
 * command run under that tooling (a bench's server, a test's child `mm record`) does not report
 * them. Add a variable here when a script, bench, soak or test of this repo starts reading one.
 */
export const TOOLING_ENV: readonly string[] = [
  "MM_FUZZ_RUNS", // runs per fuzz property; `npm run fuzz` sets it (test/fuzz/runs.ts)
  "MM_FUZZ_SEED", // replays a failed fuzz run (test/fuzz/runs.ts)
  "MM_BENCH_REPLAY_DELTAS", // backtest bench sizes (test/bench/backtest.bench.ts)
  "MM_BENCH_MEMORY_DELTAS",
  "MM_BENCH_MOCK_SERVER", // marks the placement bench's server process (test/bench/mock-placement.bench.ts)
  "MM_BENCH_SERVER_CORE",
  "MM_BENCH_SERVER_NODE_ARGS",
  "MM_RECORD_MODULE", // child processes of test/integration/record
  "MM_HUNG_FILE",
  "MM_NODE", // test/e2e/hangup.test.ts
];

/** An `MM_*` variable naming no setting, and the setting's variable it was probably meant for. */
export interface UnknownEnvVar {
  readonly name: string;
  /** A setting's variable close to `name` (a typo, the words reordered, a word missing or added), or null. */
  readonly meant: string | null;
}

/**
 * The `MM_*` variables of `env` that name no setting (nor one of TOOLING_ENV), sorted by name, each
 * with the closest setting's variable when one is close. Values are never looked at: a misspelt
 * MM_PRIVATE_KEY holds a key. `known` is every setting's variable (the schema's by default).
 * @example
 * unknownEnvVars({ MM_SHUTDOWN_TIMEOUT: "5000", PATH: "/bin" });
 * // [{ name: "MM_SHUTDOWN_TIMEOUT", meant: "MM_SHUTDOWN_TIMEOUT_MS" }]
 */
export function unknownEnvVars(
  env: Readonly<Record<string, string | undefined>>,
  known: readonly string[] = settingEnvNames(),
): UnknownEnvVar[] {
  const skip = new Set([...known, ...TOOLING_ENV]);
  return Object.keys(env)
    .filter((name) => name.startsWith("MM_") && env[name] !== undefined && !skip.has(name))
    .sort()
    .map((name) => ({ name, meant: closest(name, known) }));
}

/** Every setting's `MM_*` variable, in schema order. */
export function settingEnvNames(): string[] {
  return settings().map(({ spec }) => spec.env);
}

/** The nearest of `known` to `name` by closeness, then edit distance, then order; null if none is close. */
function closest(name: string, known: readonly string[]): string | null {
  const stem = name.slice(3).toUpperCase();
  let best: { env: string; rank: number; distance: number } | null = null;
  for (const env of known) {
    const target = env.slice(3);
    const distance = editDistance(stem, target);
    const rank = closeness(stem, target, distance);
    if (rank === null) continue;
    if (best === null || rank < best.rank || (rank === best.rank && distance < best.distance)) {
      best = { env, rank, distance };
    }
  }
  return best?.env ?? null;
}

/**
 * How `stem` comes close to a setting's `target` (both without MM_), lower is closer: a slip of
 * the keyboard (case only, or 1 edit — 2 for names of 10 characters or more), the same words in
 * another order, one word missing or added (a unit suffix such as _MS), or a setting's name
 * followed by more words (MM_RISK_ORDER_MAX_SIZE: a JSON setting's key, which has no variable).
 */
function closeness(stem: string, target: string, distance: number): number | null {
  if (distance <= (target.length < 10 ? 1 : 2)) return distance;
  const a = words(stem);
  const b = words(target);
  if (a.length >= 2 && a.length === b.length && a.join("_") === b.join("_")) return 3;
  if (Math.min(a.length, b.length) >= 2 && oneWordApart(a, b)) return 4;
  if (stem.startsWith(`${target}_`)) return 5;
  return null;
}

/** The words of a name, sorted: compared as multisets. */
const words = (stem: string): string[] =>
  stem
    .split("_")
    .filter((w) => w !== "")
    .sort();

/** True when the sorted word lists differ by exactly one word more in one of them. */
function oneWordApart(a: readonly string[], b: readonly string[]): boolean {
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  if (long.length !== short.length + 1) return false;
  for (let skip = 0; skip < long.length; skip++) {
    if (long.filter((_, i) => i !== skip).join("_") === short.join("_")) return true;
  }
  return false;
}

/** Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const up = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(d);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}
