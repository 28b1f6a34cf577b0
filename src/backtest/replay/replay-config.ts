import { ConfigReader, type Json, layerConfigs } from "../config-reader.js";
import { Issues } from "../errors.js";
import { type ReportSettings, readSimSettings, SIM_SECTIONS, type SimSettings } from "../settings.js";
import type { TokenSetting } from "../sim/markets.js";
import { readQueueModel } from "./queue-model-config.js";
import type { QueueModelSpec } from "./queue-model-spec.js";

/** Market parameters for tokens found in the data (the recording carries none). */
export interface MarketDefaults {
  readonly tickMicro: number;
  readonly minSizeMicro: bigint;
  readonly feeTakerBps: number;
  readonly closesAtMs: number | undefined;
}

/** What a replay's summary measures: the shared settings and the data's gaps. */
export interface ReplayReportSettings extends ReportSettings {
  /** A silence between consecutive recorded frames at least this long is a gap in the data. */
  readonly dataGapMs: number;
}

/** A validated replay config (`mm backtest --config … --data …`). */
export interface ReplayConfig extends SimSettings {
  readonly report: ReplayReportSettings;
  /** The strategy entry as written (for the summary). */
  readonly strategyRaw: unknown;
  readonly marketDefaults: MarketDefaults;
  /** Tokens to simulate; undefined = every token with book frames in the data, with the defaults. */
  readonly tokens: readonly TokenSetting[] | undefined;
  /** The engine starts this long before the first frame (its start-up reconcile). */
  readonly startLeadMs: number;
  /** Queue position of the bot's resting orders in the recorded book (config `queueModel`). */
  readonly queueModel: QueueModelSpec;
}

const TOKEN_KEYS = [
  "tokenId",
  "conditionId",
  "marketId",
  "outcome",
  "outcomeIndex",
  "tick",
  "minSize",
  "feeTakerBps",
  "closesAtMs",
];

/**
 * Validates a replay config, or several layered (later files win, see layerConfigs). Throws
 * BacktestError `backtest_config_invalid` listing every bad field.
 * @example parseReplayConfig([{ strategy: { name: "bands", params: { bands: [{ margin: "0.02", size: "10" }] } } }])
 */
export function parseReplayConfig(layers: readonly unknown[]): ReplayConfig {
  const issues = new Issues();
  const r = new ConfigReader(issues);
  const root = r.section(layerConfigs(layers) ?? {}, "", [
    ...SIM_SECTIONS,
    "markets",
    "startLeadMs",
    "queueModel",
    "description",
  ]);
  const sim = readSimSettings(root, r, ["dataGapMs"]);
  // The section's shape is checked (and reported) by readSimSettings.
  const rep = typeof root.report === "object" && root.report !== null ? (root.report as Json) : {};
  const report: ReplayReportSettings = {
    ...sim.report,
    dataGapMs: r.num(rep, "report", "dataGapMs", 3_600_000, { gt: 0, max: 86_400_000, int: true }),
  };
  const m = r.section(root.markets, "markets", ["tick", "minSize", "feeTakerBps", "closesAtMs", "tokens"]);
  const marketDefaults: MarketDefaults = {
    tickMicro: tick(r, m, "markets", 10_000),
    minSizeMicro: r.micro(m, "markets", "minSize", "1", { positive: true }),
    feeTakerBps: r.num(m, "markets", "feeTakerBps", 0, { min: 0, max: 1000, int: true }),
    closesAtMs:
      m.closesAtMs === undefined ? undefined : r.num(m, "markets", "closesAtMs", 0, { min: 0, int: true }),
  };
  let tokens: TokenSetting[] | undefined;
  if (m.tokens !== undefined) {
    if (!Array.isArray(m.tokens) || m.tokens.length === 0)
      issues.add("markets.tokens", "must be a non-empty array");
    else tokens = m.tokens.map((t, i) => tokenSetting(r, t, `markets.tokens[${i}]`, marketDefaults));
  }
  const startLeadMs = r.num(root, "", "startLeadMs", 1_000, { min: 0, max: 86_400_000, int: true });
  const queueModel = readQueueModel(r, root.queueModel);
  issues.throwIfAny("backtest_config_invalid", "backtest config");
  return { ...sim, report, strategyRaw: root.strategy, marketDefaults, tokens, startLeadMs, queueModel };
}

function tokenSetting(r: ConfigReader, raw: unknown, path: string, d: MarketDefaults): TokenSetting {
  const o = r.section(raw, path, TOKEN_KEYS);
  const str = (key: string, pattern: RegExp, required: boolean): string | undefined => {
    const v = o[key];
    if (v === undefined && !required) return undefined;
    if (typeof v === "string" && pattern.test(v)) return v;
    r.issues.add(`${path}.${key}`, required && v === undefined ? "is required" : `must match ${pattern}`);
    return undefined;
  };
  const tokenId = str("tokenId", /^\d{1,80}$/, true) ?? "0";
  const conditionId = str("conditionId", /^0x[0-9a-fA-F]{1,64}$/, true) ?? "0x0";
  const marketId = str("marketId", /^\S{1,80}$/, false);
  const outcome = str("outcome", /^\S{1,40}$/, false);
  const outcomeIndex =
    o.outcomeIndex === undefined
      ? undefined
      : r.num(o, path, "outcomeIndex", 0, { min: 0, max: 255, int: true });
  const closesAtMs =
    o.closesAtMs === undefined ? d.closesAtMs : r.num(o, path, "closesAtMs", 0, { min: 0, int: true });
  return {
    tokenId,
    conditionId: conditionId.toLowerCase(),
    ...(marketId === undefined ? {} : { marketId }),
    ...(outcome === undefined ? {} : { outcome }),
    ...(outcomeIndex === undefined ? {} : { outcomeIndex }),
    tickMicro: o.tick === undefined ? d.tickMicro : tick(r, o, path, d.tickMicro),
    minSizeMicro:
      o.minSize === undefined ? d.minSizeMicro : r.micro(o, path, "minSize", "1", { positive: true }),
    feeTakerBps: r.num(o, path, "feeTakerBps", d.feeTakerBps, { min: 0, max: 1000, int: true }),
    ...(closesAtMs === undefined ? {} : { closesAtMs }),
  };
}

/**
 * A tick: a decimal string of a multiple of 0.000001 in (0, 0.5] that divides 1. A tick that does
 * not (0.013) leaves no price grid reaching both edges: 1 − tick is off the grid, so the venue and
 * the strategies would disagree on the highest price; every exchange tick (0.1 … 0.0001) divides 1.
 */
export function tick(r: ConfigReader, o: Json, path: string, defMicro: number): number {
  const v = r.micro(o, path, "tick", (defMicro / 1e6).toFixed(6), { positive: true });
  if (v > 500_000n) {
    r.issues.add(`${path}.tick`, "must be at most 0.5");
    return defMicro;
  }
  if (v > 0n && 1_000_000n % v !== 0n) {
    r.issues.add(
      `${path}.tick`,
      "must divide 1 (e.g. 0.01, 0.005, 0.001), so the price grid reaches 1 − tick",
    );
    return defMicro;
  }
  return Number(v);
}
