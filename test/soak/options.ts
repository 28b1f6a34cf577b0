import { parseArgs } from "node:util";

/** What one soak run does. */
export interface SoakOptions {
  /** Length of the measured run after start-up, minutes (fractions allowed: 0.1 = 6 s). */
  readonly minutes: number;
  /** Generated binary markets quoted (two tokens each). */
  readonly markets: number;
  /** Seconds between samples (and progress lines). */
  readonly sampleSeconds: number;
  /** Warm-up, minutes from the start of the run; see defaultWarmupMinutes. */
  readonly warmupMinutes: number;
  /** Where the JSON report goes, when set. */
  readonly out: string | undefined;
  /** A directory for V8 heap snapshots at the end of warm-up and at the end (leak hunting), when set. */
  readonly heapSnapshots: string | undefined;
}

export const SOAK_HELP = `npm run soak -- --minutes N [--markets 100] [--sample-seconds S] [--warmup-minutes W] [--out FILE]

Paper trading under load for N minutes: the mock exchange (flow simulator on) in a child process,
the bot (daemon + metrics server, as \`mm run\`) in this one, quoting every generated market.
Samples the bot's RSS, heap, event-loop delay, orders, fills and errors; prints a line per sample
and a final report with the verdict against the goals (RSS growth < 10% after warm-up, event-loop
delay p99 < 50 ms, zero unhandled errors).

  --minutes N          measured duration in minutes (> 0, fractions allowed; required)
  --markets M          generated markets quoted, 1-500 (default 100)
  --sample-seconds S   seconds between samples, >= 0.5 (default: N, i.e. 60 per run, within 1-10)
  --warmup-minutes W   warm-up before the RSS reference, < N (default: see README "Reliability")
  --out FILE           also write the report as JSON to FILE
  --heap-snapshots DIR write V8 heap snapshots at warm-up end and at the end into DIR (compare
                       them with test/soak/heap-diff.ts); each pauses the bot for seconds
                       and leaves its RSS inflated: a leak hunt, not a run to judge

Exit codes: 0 every goal met, 1 a goal failed (or the run broke), 2 bad flags.`;

/** A bad flag: the soak prints the message and the usage, and exits 2. */
export class SoakUsageError extends Error {
  readonly code = "soak_usage";
}

/**
 * The default warm-up: a tenth of the run, but at least long enough for the bot's longest built-in
 * retention to fill once (terminal orders are kept 10 min, pruned on the 15 s reconcile) when the run
 * is long enough to measure anything after it, and never more than half of the run.
 * @example defaultWarmupMinutes(60) // 10.5; defaultWarmupMinutes(5) // 2.5
 */
export function defaultWarmupMinutes(minutes: number): number {
  const retention = 10.5;
  return Math.min(Math.max(minutes / 10, retention), minutes / 2);
}

/**
 * Parses and validates the soak's flags; throws SoakUsageError naming the bad flag.
 * @example parseSoakArgs(["--minutes", "5"]).markets // 100
 */
export function parseSoakArgs(argv: readonly string[]): SoakOptions | "help" {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        minutes: { type: "string" },
        markets: { type: "string" },
        "sample-seconds": { type: "string" },
        "warmup-minutes": { type: "string" },
        out: { type: "string" },
        "heap-snapshots": { type: "string" },
        help: { type: "boolean" },
      },
    }).values;
  } catch (err) {
    throw new SoakUsageError((err as Error).message);
  }
  if (values.help === true) return "help";
  if (values.minutes === undefined) throw new SoakUsageError("--minutes is required");
  const minutes = number(
    "--minutes",
    values.minutes,
    (n) => n > 0 && n <= 24 * 60,
    "a number of minutes in (0, 1440]",
  );
  const markets = number(
    "--markets",
    values.markets ?? "100",
    (n) => Number.isInteger(n) && n >= 1 && n <= 500,
    "an integer from 1 to 500",
  );
  const sampleSeconds = number(
    "--sample-seconds",
    values["sample-seconds"] ?? String(Math.min(10, Math.max(1, minutes))),
    (n) => n >= 0.5 && n <= 3_600,
    "a number of seconds in [0.5, 3600]",
  );
  const warmupMinutes = number(
    "--warmup-minutes",
    values["warmup-minutes"] ?? String(defaultWarmupMinutes(minutes)),
    (n) => n >= 0 && n < minutes,
    `a number of minutes in [0, ${minutes})`,
  );
  const out = path("--out", values.out);
  const heapSnapshots = path("--heap-snapshots", values["heap-snapshots"]);
  return { minutes, markets, sampleSeconds, warmupMinutes, out, heapSnapshots };
}

function path(flag: string, raw: string | boolean | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== "string" || raw.trim() === "") throw new SoakUsageError(`${flag}: must name a path`);
  return raw;
}

function number(flag: string, raw: string | boolean, ok: (n: number) => boolean, what: string): number {
  const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : Number.NaN;
  if (!Number.isFinite(n) || !ok(n))
    throw new SoakUsageError(`${flag}: must be ${what}, got ${JSON.stringify(raw)}`);
  return n;
}
