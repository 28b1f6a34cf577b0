import type { DesiredQuote, TokenMarket } from "../../../src/core/trading.js";
import type { Side } from "../../../src/core/types.js";
import { parseRiskConfig, type RiskConfig } from "../../../src/risk/config.js";
import type { BookHealth } from "../../../src/risk/gates.js";
import type { RiskTokenContext } from "../../../src/risk/guard.js";
import type { InventoryExposure } from "../../../src/risk/inventory-caps.js";

/** Whole shares (or USDC) to micro-units: sh(2.5) is not allowed, write sh("2.5"). */
export function sh(v: number | string): bigint {
  const text = String(v);
  const negative = text.startsWith("-");
  const [w = "0", f = ""] = (negative ? text.slice(1) : text).split(".");
  const micro = BigInt(w) * 1_000_000n + BigInt(f.padEnd(6, "0"));
  return negative ? -micro : micro; // "-0.5" is −500,000 (a sign on the whole part alone was lost)
}

/** A decimal price to micro-units: px("0.53") = 530_000. */
export function px(v: string): number {
  return Number(sh(v));
}

/** An OPEN market with tick 0.01 and a 5-share minimum unless overridden. */
export function market(over: Partial<TokenMarket> = {}): TokenMarket {
  return {
    tokenId: "tok-yes",
    marketId: "mkt-1",
    conditionId: "0xc0",
    outcome: "YES",
    outcomeIndex: 0,
    tickMicro: 10_000,
    minSizeMicro: sh(5),
    feeTakerBps: null,
    negRisk: false,
    closesAtMs: undefined,
    status: "OPEN",
    ...over,
  };
}

/** A desired quote: q("buy", "0.50", 100) = bid 100 shares at 0.50, level 0. */
export function q(side: Side, price: string, size: number | string, level = 0): DesiredQuote {
  return { side, level, priceMicro: px(price), sizeMicro: sh(size) };
}

/** Shares held when a test does not say: more than any cap here, so the holding never binds. */
export const AMPLE_HELD = 1_000_000;

/** Flat wallet unless overridden (sizes in whole shares); `held` is the absolute holding of the token. */
export function exposure(
  position = 0,
  marketGross?: number,
  totalGross?: number,
  held: number | string = AMPLE_HELD,
): InventoryExposure {
  const p = sh(Math.abs(position)) * (position < 0 ? -1n : 1n);
  const a = sh(Math.abs(position));
  return {
    positionMicro: p,
    marketGrossMicro: marketGross === undefined ? a : sh(marketGross),
    totalGrossMicro:
      totalGross === undefined ? (marketGross === undefined ? a : sh(marketGross)) : sh(totalGross),
    heldMicro: sh(held),
  };
}

/**
 * Small round limits for hand computation: per market soft 100 / hard 200 shares, total soft 500 /
 * hard 1000, order max 50 shares / 30 USDC, drawdown 100 USDC, > 3 errors in 10 s → 60 s halt.
 */
export const SMALL_RISK_SETTINGS = {
  inventory: { perMarket: { soft: "100", hard: "200" }, total: { soft: "500", hard: "1000" } },
  order: { maxSize: "50", maxNotional: "30", oversize: "clip" },
  killSwitch: { maxDrawdown: "100" },
  errorRate: { maxErrors: 3, windowMs: 10_000, coolDownMs: 60_000 },
};

export function smallConfig(over: { order?: Record<string, unknown> } = {}): RiskConfig {
  return parseRiskConfig({ ...SMALL_RISK_SETTINGS, order: { ...SMALL_RISK_SETTINGS.order, ...over.order } });
}

export const SYNCED: BookHealth = { status: "synced", crossed: false };

/** A bid and an ask that pass every limit of smallConfig on a flat wallet. */
export const QUOTES = [q("buy", "0.50", 20), q("sell", "0.52", 20)];

/** A filter context: OPEN market, synced book, the given position and holding (whole shares). */
export function ctx(
  over: { market?: Partial<TokenMarket>; book?: BookHealth; position?: number; held?: number | string } = {},
): RiskTokenContext {
  const inventory = exposure(over.position ?? 0, undefined, undefined, over.held);
  return { market: market(over.market), book: over.book ?? SYNCED, inventory };
}
