import type { MmConfig } from "./types.js";

/** Tick size and minimum order size for one market (decimal strings, validated at load). */
export interface MarketParams {
  readonly tickSize: string;
  readonly minOrderSize: string;
}

/**
 * The configured tick size and minimum order size of a market: its entry in markets.tickSizes /
 * markets.minOrderSizes, else the defaults. The spec does not show either, so both come from config.
 * @example marketParams(config.markets, "will-it-rain") // { tickSize: "0.01", minOrderSize: "1" }
 */
export function marketParams(markets: MmConfig["markets"], slug: string): MarketParams {
  return {
    tickSize: Object.hasOwn(markets.tickSizes, slug)
      ? (markets.tickSizes[slug] as string)
      : markets.defaultTickSize,
    minOrderSize: Object.hasOwn(markets.minOrderSizes, slug)
      ? (markets.minOrderSizes[slug] as string)
      : markets.minOrderSize,
  };
}
