import { type ConfiguredStrategy, parseStrategyConfig } from "../../strategies/registry.js";
import { type TrackerOptions, trackerConfig } from "../book/tracker-config.js";
import { MmError, ValidationError } from "../core/errors.js";
import { type EngineOptions, resolveEngineOptions } from "../engine/engine-deps.js";
import { parseRiskConfig, type RiskConfig } from "../risk/config.js";
import { type ConfigReader, type Json, join } from "./config-reader.js";
import type { LatencySpec } from "./sim/latency.js";
import { readLatency } from "./sim/latency-config.js";

/**
 * Simulated delays, milliseconds of the SimClock: each a constant (a number) or a distribution
 * sampled per message from the run's seed (src/backtest/sim/latency.ts).
 */
export interface LatencySettings {
  /** Market data and fill notices: exchange event → engine (per connection, in order). */
  readonly feedMs: LatencySpec;
  /** Order entry: engine send → venue acts. */
  readonly entryMs: LatencySpec;
  /** Response: venue answer → engine. */
  readonly responseMs: LatencySpec;
}

/** What the summary measures and how. */
export interface ReportSettings {
  /** Sampling interval of the equity curve for the Sharpe ratio. */
  readonly sharpeIntervalMs: number;
  /** Markout horizons. */
  readonly markoutsMs: readonly number[];
}

/** The settings a replay and a synthetic scenario share: the bot, the venue and the report. */
export interface SimSettings {
  readonly strategy: ConfiguredStrategy;
  readonly risk: RiskConfig;
  readonly engine: EngineOptions;
  readonly tracker: TrackerOptions;
  readonly latency: LatencySettings;
  readonly fees: { readonly makerFeeBps: number; readonly defaultFeeTakerBps: number };
  /** The bot's wallet at the start: USDC and shares of every token, micro-units. */
  readonly wallet: { readonly usdcMicro: bigint; readonly sharesMicro: bigint };
  readonly report: ReportSettings;
}

/** Top-level keys of the shared sections. */
export const SIM_SECTIONS = [
  "strategy",
  "risk",
  "engine",
  "tracker",
  "latency",
  "fees",
  "wallet",
  "report",
] as const;

const ENGINE_KEYS = [
  "session",
  "tolerance",
  "startupPolicy",
  "inventoryBaseline",
  "reconcileIntervalMs",
  "reconcileDebounceMs",
  "reconcileRetryMs",
  "reconcileDriftSettleMs",
  "marketRecheckMs",
  "requoteIntervalMs",
  "unknownGraceMs",
  "tradeLookbackMs",
  "pruneAfterMs",
  "rateLimitPerMin",
  "queue",
  "volatility",
];

/**
 * Reads the shared sections of a backtest config or scenario (see config/backtest/README.md for
 * every field). `strategy` and `risk` take the daemon's shapes (strategies/README.md,
 * src/risk/config.ts); `engine` the EngineOptions (session defaults to "bt"); `tracker` the
 * BookTracker options, defaulting to `crossed: "flag"` and no stall detection (a recording has no
 * connection to go silent and no snapshot source to resync from). `reportKeys`: further keys the
 * caller's mode allows in `report` (and reads itself).
 */
export function readSimSettings(
  root: Json,
  r: ConfigReader,
  reportKeys: readonly string[] = [],
): SimSettings {
  const issues = r.issues;
  let strategy: ConfiguredStrategy | undefined;
  if (root.strategy === undefined) issues.add("strategy", "is required");
  else strategy = nested(issues, "strategy", () => parseStrategyConfig(root.strategy));
  const risk = nested(issues, "risk", () => parseRiskConfig(root.risk ?? {})) ?? parseRiskConfig({});
  const engine = r.section(root.engine, "engine", ENGINE_KEYS);
  const tracker = r.section(root.tracker, "tracker", ["crossed", "snapshotTimeoutMs", "backoff", "stall"]);
  const lat = r.section(root.latency, "latency", ["feedMs", "entryMs", "responseMs"]);
  const fees = r.section(root.fees, "fees", ["makerFeeBps", "defaultFeeTakerBps"]);
  const wallet = r.section(root.wallet, "wallet", ["usdc", "shares"]);
  const report = r.section(root.report, "report", ["sharpeIntervalMs", "markoutsMs", ...reportKeys]);
  const engineOptions: EngineOptions = { session: "bt", ...(engine as Partial<EngineOptions>) };
  const trackerOptions: TrackerOptions = {
    crossed: "flag",
    ...(tracker as TrackerOptions),
    stall: { enabled: false, ...(tracker.stall as object) },
  };
  // Both throw a ValidationError naming the field; checked here so it joins the other issues.
  validated(issues, "engine", () => resolveEngineOptions(engineOptions));
  validated(issues, "tracker", () => trackerConfig(trackerOptions));
  return {
    strategy: strategy as ConfiguredStrategy,
    risk,
    engine: engineOptions,
    tracker: trackerOptions,
    latency: {
      feedMs: readLatency(r, lat, "latency", "feedMs"),
      entryMs: readLatency(r, lat, "latency", "entryMs"),
      responseMs: readLatency(r, lat, "latency", "responseMs"),
    },
    fees: {
      makerFeeBps: r.num(fees, "fees", "makerFeeBps", 0, { min: 0, max: 1000, int: true }),
      defaultFeeTakerBps: r.num(fees, "fees", "defaultFeeTakerBps", 0, { min: 0, max: 1000, int: true }),
    },
    wallet: {
      usdcMicro: r.micro(wallet, "wallet", "usdc", "100000"),
      sharesMicro: r.micro(wallet, "wallet", "shares", "5000"),
    },
    report: {
      // The equity grid is walked once per interval over the whole window: at 1 ms a 5-day capture
      // is 432 million steps (~23 s); 100 ms keeps a month of data to about a second.
      sharpeIntervalMs: r.num(report, "report", "sharpeIntervalMs", 60_000, {
        min: 100,
        max: 86_400_000,
        int: true,
      }),
      markoutsMs: horizons(report.markoutsMs, r),
    },
  };
}

function horizons(v: unknown, r: ConfigReader): number[] {
  if (v === undefined) return [1_000, 10_000, 60_000];
  if (!Array.isArray(v) || v.length === 0 || !v.every((x) => Number.isSafeInteger(x) && x > 0)) {
    r.issues.add("report.markoutsMs", "must be a non-empty array of positive integers (ms)");
    return [1_000, 10_000, 60_000];
  }
  return [...new Set(v as number[])].sort((a, b) => a - b);
}

/**
 * Runs a validator that throws a ValidationError; files its message under `path`, or under
 * `path.<field>` when the message starts with the field it is about ("requoteIntervalMs: must be
 * …" → engine.requoteIntervalMs), so the field reads as the config names it.
 */
function validated(issues: ConfigReader["issues"], path: string, fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const named = /^([A-Za-z][\w.[\]]*): (.*)$/s.exec(err.message);
    if (named === null) issues.add(path, err.message);
    else issues.add(join(path, named[1] as string), named[2] as string);
  }
}

/** Runs a validator that throws an MmError listing `issues` ({field, message}); re-files them under `path`. */
function nested<T>(issues: ConfigReader["issues"], path: string, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (err) {
    const list =
      err instanceof MmError
        ? (err.details.issues as { field: string; message: string }[] | undefined)
        : undefined;
    if (list === undefined) throw err;
    for (const i of list) issues.add(join(path, i.field.replace(/^strategy\.?/, "")), i.message);
    return undefined;
  }
}
