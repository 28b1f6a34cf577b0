import type { DesiredQuote, TokenMarket } from "../core/trading.js";
import { mulWeiCeil, WEI_PER_UNIT } from "../core/wei.js";
import type { RiskConfig } from "./config.js";
import { fmtSize, quoteDecision, type RiskDecision } from "./decision.js";
import { type BookTouch, checkPrice, NO_TOUCH } from "./quote-prices.js";

/**
 * The checks of one quote on its own, in this order (the first failure drops it):
 * 1. `invalid_quote`: side not buy/sell, level not a non-negative integer, price not an integer
 *    number of micro-units, or size not a positive bigint;
 * 2. `price_off_tick`: price not a multiple of the market's tick;
 * 3. `price_out_of_band`: price outside [tick, 1 − tick];
 * 4. `price_crosses_book`: with a `touch`, a bid at or above its best ask or an ask at or below its
 *    best bid (quote-prices.ts; without one, nothing to cross);
 * 5. `size_below_min`: size below the market's minimum;
 * 6. size above `order.maxSize`: clipped to it (`order_size_clipped`) under the "clip" policy,
 *    dropped (`order_size_exceeded`) under "drop" or when the clipped size is below the minimum;
 * 7. notional ⌈price × size⌉ above `order.maxNotional`: clipped to the largest size within it
 *    (`notional_clipped`), or dropped (`notional_exceeded`) likewise.
 * Returns the quote as it may be sent (possibly smaller), or undefined, with the decisions taken.
 */
export function checkQuote(
  q: DesiredQuote,
  market: TokenMarket,
  order: RiskConfig["order"],
  decisions: RiskDecision[],
  touch: BookTouch = NO_TOUCH,
): DesiredQuote | undefined {
  return checkPrice(q, market, touch, decisions) ? checkSize(q, market, order, decisions) : undefined;
}

/**
 * Checks 5–7 of checkQuote (the size rules) on a quote whose price passed checkPrice: returns it
 * as it may be sent (possibly smaller), or undefined, with the decisions taken.
 */
export function checkSize(
  q: DesiredQuote,
  market: TokenMarket,
  order: RiskConfig["order"],
  decisions: RiskDecision[],
): DesiredQuote | undefined {
  // No closure for the drops: this runs for every quote of every quoting step.
  // A market without a minimum still cannot take a zero size (a clip could otherwise produce one).
  const min = market.minSizeMicro > 1n ? market.minSizeMicro : 1n;
  if (q.sizeMicro < min) return drop(decisions, "size_below_min", market, q, { min: fmtSize(min) });

  let out = q;
  if (out.sizeMicro > order.maxSizeMicro) {
    const limit = { limit: fmtSize(order.maxSizeMicro) };
    if (order.oversize === "drop" || order.maxSizeMicro < min) {
      return drop(decisions, "order_size_exceeded", market, q, limit);
    }
    decisions.push(
      quoteDecision("order_size_clipped", "clip", market, q, { ...limit, to: fmtSize(order.maxSizeMicro) }),
    );
    out = { ...out, sizeMicro: order.maxSizeMicro };
  }
  const price = BigInt(out.priceMicro);
  if (mulWeiCeil(price, out.sizeMicro) > order.maxNotionalMicro) {
    // Largest s with ⌈price·s / 10⁶⌉ ≤ maxNotional, i.e. price·s ≤ maxNotional·10⁶.
    const fit = (order.maxNotionalMicro * WEI_PER_UNIT) / price;
    const limit = { limit: fmtSize(order.maxNotionalMicro) };
    if (order.oversize === "drop" || fit < min) return drop(decisions, "notional_exceeded", market, q, limit);
    decisions.push(quoteDecision("notional_clipped", "clip", market, out, { ...limit, to: fmtSize(fit) }));
    out = { ...out, sizeMicro: fit };
  }
  return out;
}

/**
 * Whether the size rules (checkSize) drop `q`, a quote whose price passed; a clip still sends it.
 * For the guard's own-cross extremes only, worked out when some bid meets some ask: it allocates.
 */
export function sizeDrops(q: DesiredQuote, market: TokenMarket, order: RiskConfig["order"]): boolean {
  return checkSize(q, market, order, []) === undefined;
}

function drop(
  decisions: RiskDecision[],
  reason: Parameters<typeof quoteDecision>[0],
  market: TokenMarket,
  q: DesiredQuote,
  detail: Record<string, string>,
): undefined {
  decisions.push(quoteDecision(reason, "drop", market, q, detail));
  return undefined;
}
