import type { TokenMarket } from "../core/trading.js";
import { mulWeiCeil, weiToString } from "../core/wei.js";
import type { Logger } from "../observability/logger.js";
import type { RiskConfig } from "../risk/config.js";

/** A risk setting that makes every quote on some markets impossible, and why. */
export interface ImpossibleLimit {
  /** The setting's path in the config (under `risk`). */
  readonly setting: string;
  /** Its value, as configured (shares or USDC). */
  readonly value: string;
  /** What a single quote of the market's minimum size needs, in the setting's unit. */
  readonly needs: string;
  readonly markets: readonly string[];
}

/**
 * The configured risk limits that no quote can pass on a market, whatever the strategy does: a
 * per-order max size below the market's minimum order size, a max notional below a minimum-size
 * order at the lowest price (one tick), or a hard inventory cap below the minimum size (from a
 * flat position both sides would add to the gross inventory). Only the exchange knows a market's
 * minimum, so this is found once the markets are loaded, not when the config is read. One entry
 * per setting, with every market it blocks (markets in their input order, each once).
 * @example impossibleLimits(risk.config, markets) // [{ setting: "risk.order.maxSize", value: "0.5", needs: "1", markets: ["m1"] }]
 */
export function impossibleLimits(config: RiskConfig, markets: readonly TokenMarket[]): ImpossibleLimit[] {
  const found = new Map<string, { value: string; needs: bigint; markets: string[] }>();
  const note = (setting: string, value: bigint, needs: bigint, marketId: string): void => {
    const f = found.get(setting);
    if (f === undefined) found.set(setting, { value: weiToString(value), needs, markets: [marketId] });
    else if (!f.markets.includes(marketId)) {
      f.markets.push(marketId);
      // The strictest market's need is what the setting has to reach for every one of them.
      if (needs > f.needs) f.needs = needs;
    }
  };
  const { order, inventory } = config;
  for (const m of markets) {
    // The risk guard's own floor: a market without a minimum still cannot take a zero size.
    const min = m.minSizeMicro > 1n ? m.minSizeMicro : 1n;
    if (order.maxSizeMicro < min) note("risk.order.maxSize", order.maxSizeMicro, min, m.marketId);
    const cheapest = mulWeiCeil(BigInt(m.tickMicro), min);
    if (order.maxNotionalMicro < cheapest) {
      note("risk.order.maxNotional", order.maxNotionalMicro, cheapest, m.marketId);
    }
    if (inventory.perMarket.hardMicro < min) {
      note("risk.inventory.perMarket.hard", inventory.perMarket.hardMicro, min, m.marketId);
    }
    if (inventory.total.hardMicro < min) {
      note("risk.inventory.total.hard", inventory.total.hardMicro, min, m.marketId);
    }
  }
  return [...found].map(([setting, f]) => ({
    setting,
    value: f.value,
    needs: weiToString(f.needs),
    markets: f.markets,
  }));
}

/** Logs each of `impossibleLimits` once at warn (the engine's start). */
export function warnImpossibleLimits(log: Logger, config: RiskConfig, markets: readonly TokenMarket[]): void {
  for (const f of impossibleLimits(config, markets)) {
    log.warn(
      { setting: f.setting, value: f.value, needs: f.needs, markets: f.markets },
      `${f.setting} ${f.value} is below what one quote needs (${f.needs}): no quote possible on ${f.markets.length} market(s)`,
    );
  }
}
