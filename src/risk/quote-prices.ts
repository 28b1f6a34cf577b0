import type { DesiredQuote, TokenMarket } from "../core/trading.js";
import { fmtPrice, quoteDecision, type RiskDecision, type RiskReason } from "./decision.js";

/** Prices are micro-units of 1 USDC per share: a share pays at most 1. */
const ONE_MICRO = 1_000_000;

/**
 * The best prices of the book the strategy priced from (the engine's: the market without our own
 * orders), micro-units; undefined for an empty side, which nothing can cross.
 */
export interface BookTouch {
  readonly bestBidMicro?: number | undefined;
  readonly bestAskMicro?: number | undefined;
}

/** No book to cross (a caller that judges quotes on their own: quote-limits' checkQuote). */
export const NO_TOUCH: BookTouch = Object.freeze({});

type PriceFault = Extract<
  RiskReason,
  "invalid_quote" | "price_off_tick" | "price_out_of_band" | "price_crosses_book"
>;

/**
 * The first rule of a quote's price (and shape) that `q` breaks, in this order, or undefined:
 * `invalid_quote` (side, level, integer price, positive bigint size), `price_off_tick`,
 * `price_out_of_band` ([tick, 1 − tick]), `price_crosses_book` (a bid at or above the best ask, an
 * ask at or below the best bid: it would take, and the exchange has no post-only flag). No
 * allocation: runs per quote per quoting step.
 * @example priceFault({ side: "buy", level: 0, priceMicro: 520_000, sizeMicro: 1n }, 10_000, { bestAskMicro: 520_000 }) // "price_crosses_book"
 */
export function priceFault(q: DesiredQuote, tickMicro: number, touch: BookTouch): PriceFault | undefined {
  if (!wellFormed(q)) return "invalid_quote";
  if (q.priceMicro % tickMicro !== 0) return "price_off_tick";
  if (q.priceMicro < tickMicro || q.priceMicro > ONE_MICRO - tickMicro) return "price_out_of_band";
  const through =
    q.side === "buy"
      ? touch.bestAskMicro !== undefined && q.priceMicro >= touch.bestAskMicro
      : touch.bestBidMicro !== undefined && q.priceMicro <= touch.bestBidMicro;
  return through ? "price_crosses_book" : undefined;
}

/**
 * Drops `q` (pushing the decision) when its price breaks a rule of `priceFault`; true when it may go on.
 * @example if (!checkPrice(q, market, touch, decisions)) continue;
 */
export function checkPrice(
  q: DesiredQuote,
  market: TokenMarket,
  touch: BookTouch,
  decisions: RiskDecision[],
): boolean {
  const fault = priceFault(q, market.tickMicro, touch);
  if (fault === undefined) return true;
  decisions.push(quoteDecision(fault, "drop", market, q, faultDetail(fault, q, market.tickMicro, touch)));
  return false;
}

function faultDetail(
  fault: PriceFault,
  q: DesiredQuote,
  tick: number,
  touch: BookTouch,
): Record<string, string> {
  switch (fault) {
    case "invalid_quote":
      return {};
    case "price_off_tick":
      return { tick: fmtPrice(tick) };
    case "price_out_of_band":
      return { min: fmtPrice(tick), max: fmtPrice(ONE_MICRO - tick) };
    case "price_crosses_book":
      return q.side === "buy"
        ? { bestAsk: fmtPrice(touch.bestAskMicro ?? 0) }
        : { bestBid: fmtPrice(touch.bestBidMicro ?? 0) };
  }
}

/**
 * Whether any bid of `desired` is at or above any ask of it, by their prices as given (garbage
 * included, so it answers true whenever the priced quotes cross): the one cheap pass the quoting
 * step pays when nothing crosses; only then are the priced extremes worked out. No allocation.
 */
export function mayCrossOwn(desired: readonly DesiredQuote[]): boolean {
  let maxBid = Number.NEGATIVE_INFINITY;
  let minAsk = Number.POSITIVE_INFINITY;
  for (const q of desired) {
    // Comparisons, not Math.max: a NaN price must not poison the extremes.
    if (q.side === "buy") {
      if (q.priceMicro > maxBid) maxBid = q.priceMicro;
    } else if (q.side === "sell" && q.priceMicro < minAsk) minAsk = q.priceMicro;
  }
  return maxBid >= minAsk;
}

/** Every quote whose price passes is sent (a caller that judges prices only). */
const PRICE_ONLY = (_q: DesiredQuote): boolean => true;

/**
 * Our own extremes among `desired`: the highest bid and the lowest ask that pass every price rule
 * and `sent` (−∞ / +∞ when none). An ask at or below `maxBid`, or a bid at or above `minAsk`,
 * crosses one of ours. Quotes that will not rest do not count (the guard's `sent`: no size rule
 * drops it), so a broken quote never takes a sound one down with it; `sent` is only asked about a
 * quote whose price passed. One pass; called only when some bid meets some ask (mayCrossOwn).
 * @example ownExtremes(quotes, 10_000, { bestBidMicro: 490_000, bestAskMicro: 510_000 }) // { maxBid: 500_000, minAsk: 500_000 }
 */
export function ownExtremes(
  desired: readonly DesiredQuote[],
  tickMicro: number,
  touch: BookTouch,
  sent: (q: DesiredQuote) => boolean = PRICE_ONLY,
): { maxBid: number; minAsk: number } {
  let maxBid = Number.NEGATIVE_INFINITY;
  let minAsk = Number.POSITIVE_INFINITY;
  for (const q of desired) {
    const better = q.side === "buy" ? q.priceMicro > maxBid : q.side === "sell" && q.priceMicro < minAsk;
    if (!better || priceFault(q, tickMicro, touch) !== undefined || !sent(q)) continue;
    if (q.side === "buy") maxBid = q.priceMicro;
    else minAsk = q.priceMicro;
  }
  return { maxBid, minAsk };
}

/**
 * Drops `q` (pushing `own_quotes_crossed`) when it is a bid at or above `minAsk` or an ask at or
 * below `maxBid` (our own extremes, ownExtremes): both of a crossing pair
 * go, as finalizeQuotes drops them in the shipped strategies. True when it may go on.
 */
export function checkOwnCross(
  q: DesiredQuote,
  market: TokenMarket,
  maxBid: number,
  minAsk: number,
  decisions: RiskDecision[],
): boolean {
  if (q.side === "buy" ? q.priceMicro < minAsk : q.priceMicro > maxBid) return true;
  const detail = q.side === "buy" ? { ownAsk: fmtPrice(minAsk) } : { ownBid: fmtPrice(maxBid) };
  decisions.push(quoteDecision("own_quotes_crossed", "drop", market, q, detail));
  return false;
}

/** Guards against a strategy bug producing something the signer would choke on. */
function wellFormed(q: DesiredQuote): boolean {
  return (
    (q.side === "buy" || q.side === "sell") &&
    Number.isSafeInteger(q.level) &&
    q.level >= 0 &&
    Number.isSafeInteger(q.priceMicro) &&
    typeof q.sizeMicro === "bigint" &&
    q.sizeMicro > 0n
  );
}
