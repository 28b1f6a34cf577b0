import { ConfigReader, RiskConfigError } from "./config-reader.js";

/**
 * Gross inventory limits in share micro-units (see inventory-caps.ts for the exact rules):
 * at `soft` quoting turns reduce-only; `hard` bounds the worst-case position if every resting
 * quote filled, and blocks the increasing side once reached.
 */
export interface InventoryCap {
  readonly softMicro: bigint;
  readonly hardMicro: bigint;
}

/** What happens to a quote above the maximum order size or notional: clipped to it, or dropped. */
export type OversizePolicy = "clip" | "drop";

/** A validated risk configuration; every amount is micro-units (shares or USDC). */
export interface RiskConfig {
  readonly inventory: {
    /** Σ |position| over the tokens of one market. */
    readonly perMarket: InventoryCap;
    /** Σ |position| over every token of the wallet. */
    readonly total: InventoryCap;
  };
  readonly order: {
    /** Largest size of one quote, shares. */
    readonly maxSizeMicro: bigint;
    /** Largest price × size of one quote, USDC (rounded up, as a BUY's makerAmount). */
    readonly maxNotionalMicro: bigint;
    readonly oversize: OversizePolicy;
    /**
     * Most quotes a strategy may ask for on one side of one token; the rest, farthest from the
     * touch, are dropped (quote-levels.ts levelExcess).
     */
    readonly maxLevels: number;
  };
  readonly killSwitch: {
    /** Trips when peak − current total PnL exceeds this, USDC. */
    readonly maxDrawdownMicro: bigint;
  };
  readonly errorRate: {
    /** Halt when MORE than this many order errors fall in the window. */
    readonly maxErrors: number;
    readonly windowMs: number;
    /** How long quoting stays halted once tripped. */
    readonly coolDownMs: number;
    /** Error codes that are not counted (races that are normal in market making). */
    readonly ignoreCodes: readonly string[];
  };
}

/**
 * Defaults, as they would be written in a config file. Sized for the paper scenario (100,000 USDC,
 * 5,000 shares per token, book levels of 250 shares): a quote is at most 250 shares or 250 USDC,
 * one market may carry 2,000 shares gross, the wallet 20,000, and a 500 USDC fall from the PnL
 * peak stops everything. A strategy quotes at most 10 levels per side of a token (the shipped ones
 * quote 1 or one per band): a runaway ladder cannot fill the order queue. More than 10 order errors within 30 s halt quoting for 60 s; a cancel
 * that lost the race against a fill (`not_cancellable`, `order_not_found`) is not an error.
 */
export const DEFAULT_RISK_SETTINGS = {
  inventory: {
    perMarket: { soft: "1000", hard: "2000" },
    total: { soft: "10000", hard: "20000" },
  },
  order: { maxSize: "250", maxNotional: "250", oversize: "clip" as OversizePolicy, maxLevels: 10 },
  killSwitch: { maxDrawdown: "500" },
  errorRate: {
    maxErrors: 10,
    windowMs: 30_000,
    coolDownMs: 60_000,
    // The order was already gone (filled, cancelled, or never known by id): a cancel racing a fill
    // or a stop cancelling what an ambiguous placement may have left says nothing of our health.
    ignoreCodes: ["not_cancellable", "order_not_found", "order_id_unknown"] as readonly string[],
  },
} as const;

/**
 * A risk tree with every limit it omits set to its default: the limits parseRiskConfig applies, in
 * the shape a config file writes and with the given values as written. For display (`mm config`
 * shows what is in force when MM_RISK, which replaces the whole tree, leaves limits out). Objects
 * merge key by key; an array or scalar replaces the default's. Expects a tree parseRiskConfig accepts.
 * @example withRiskDefaults({ order: { maxSize: "5" } }).killSwitch // { maxDrawdown: "500" }
 */
export function withRiskDefaults(raw: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return fillDefaults(structuredClone(DEFAULT_RISK_SETTINGS), raw) as Record<string, unknown>;
}

function fillDefaults(base: unknown, over: unknown): unknown {
  const isTree = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (over === undefined) return base;
  if (!isTree(base) || !isTree(over)) return structuredClone(over);
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = fillDefaults(out[k], v);
  return out;
}

const DAY_MS = 86_400_000;

/**
 * risk.order.maxLevels' range: at least one quote per side, and at most 1,000 (each is an order of
 * the wallet's budget: 1,000 levels on both sides of one token are already minutes of placements).
 */
const MAX_LEVELS_BOUNDS = {
  min: 1,
  max: 1_000,
  belowMin: "no quote could ever rest",
} as const;

/**
 * The error-rate halt's accepted ranges. The floors keep the halt a halt: below them it either trips
 * on the first error, never trips, or ends before its cancel-all is even answered.
 */
const ERROR_RATE_BOUNDS = {
  maxErrors: {
    min: 1,
    max: 1_000_000,
    belowMin:
      "quoting halts on more than maxErrors errors in the window, so 0 would halt every market on the first rejected order",
  },
  windowMs: {
    min: 1_000,
    max: DAY_MS,
    belowMin:
      "more than maxErrors errors almost never fall in a shorter window, so the halt would never trip",
  },
  coolDownMs: {
    min: 1_000,
    max: DAY_MS,
    belowMin:
      "a shorter halt ends before the cancels it sent are answered, and quoting resumes as if nothing happened",
  },
} as const;

/**
 * Validates raw risk settings (a JSON tree; any part may be omitted and takes its default).
 * Amounts are decimal strings in shares or USDC. Throws RiskConfigError (`risk_config_invalid`)
 * listing every bad field as `field: problem`.
 * @example parseRiskConfig({ inventory: { perMarket: { soft: "200", hard: "400" } }, order: { oversize: "drop" } })
 */
export function parseRiskConfig(raw: unknown): RiskConfig {
  const r = new ConfigReader();
  const d = DEFAULT_RISK_SETTINGS;
  const root = r.section(raw, "", ["inventory", "order", "killSwitch", "errorRate"]);
  const inv = r.section(root.inventory, "inventory", ["perMarket", "total"]);
  const cap = (key: "perMarket" | "total"): InventoryCap => {
    const path = `inventory.${key}`;
    const s = r.section(inv[key], path, ["soft", "hard"]);
    const softMicro = r.amount(s, path, "soft", d.inventory[key].soft);
    const hardMicro = r.amount(s, path, "hard", d.inventory[key].hard);
    if (softMicro > 0n && hardMicro > 0n && softMicro > hardMicro)
      r.problem(`${path}.soft`, "must be <= hard");
    return { softMicro, hardMicro };
  };
  const perMarket = cap("perMarket");
  const total = cap("total");
  const ord = r.section(root.order, "order", ["maxSize", "maxNotional", "oversize", "maxLevels"]);
  const kill = r.section(root.killSwitch, "killSwitch", ["maxDrawdown"]);
  const err = r.section(root.errorRate, "errorRate", ["maxErrors", "windowMs", "coolDownMs", "ignoreCodes"]);
  const cfg: RiskConfig = {
    inventory: { perMarket, total },
    order: {
      maxSizeMicro: r.amount(ord, "order", "maxSize", d.order.maxSize),
      maxNotionalMicro: r.amount(ord, "order", "maxNotional", d.order.maxNotional),
      oversize: r.oneOf(ord, "order", "oversize", ["clip", "drop"] as const, d.order.oversize),
      maxLevels: r.int(ord, "order", "maxLevels", d.order.maxLevels, MAX_LEVELS_BOUNDS),
    },
    killSwitch: { maxDrawdownMicro: r.amount(kill, "killSwitch", "maxDrawdown", d.killSwitch.maxDrawdown) },
    errorRate: {
      maxErrors: r.int(err, "errorRate", "maxErrors", d.errorRate.maxErrors, ERROR_RATE_BOUNDS.maxErrors),
      windowMs: r.int(err, "errorRate", "windowMs", d.errorRate.windowMs, ERROR_RATE_BOUNDS.windowMs),
      coolDownMs: r.int(err, "errorRate", "coolDownMs", d.errorRate.coolDownMs, ERROR_RATE_BOUNDS.coolDownMs),
      ignoreCodes: r.strings(err, "errorRate", "ignoreCodes", d.errorRate.ignoreCodes),
    },
  };
  if (r.issues.length > 0) throw new RiskConfigError(r.issues);
  return cfg;
}
