/**
 * The one rule a token's mark follows its book by, shared by the live engine (positions, PnL, the
 * kill switch, metrics and the journal read its mark) and the backtest report's recorder, so that a
 * backtest values positions as the live engine would.
 *
 * A mid lies within [best bid, best ask], so a book bounds the mark even when it has one side:
 * a share anyone can buy at the best ask is worth no more than that ask, and one anyone takes at the
 * best bid no less than that bid. Without the bound, a favourite whose bids were all pulled and whose
 * asks fell to 0.02 kept a long position at its last two-sided mid: the PnL read a gain where there
 * was a loss and the drawdown kill switch never saw it (review22, walkedge).
 *
 * The rule does not look at the position (a long and a short see the same mark), and it reads the
 * book the caller hands it: the engine's is the market without our own orders (engine-quote.ts
 * marketBook), so our quote as the only bid leaves the book one-sided and the crowd's ask bounds it.
 */

/**
 * Twice a token's new mark in micro-units after its book changed (twice, so a mid of x.5 micro is
 * exact), from its mark before (`last2`, also twice; undefined when it has none) and the book's best
 * bid and ask (micro-units, undefined for an empty side):
 * - bid < ask: the mid, bid + ask;
 * - only asks: min(last, ask); with no mark yet, the ask;
 * - only bids: max(last, bid); with no mark yet, the bid;
 * - bid ≥ ask (crossed or locked: the data's error, not a price), or no level at all: undefined,
 *   the book marks nothing and the last mark stays.
 *
 * A token's first mark taken from one side is that side's price, not "no mark": a position is then
 * valued within the book's bound (a long at no more than the ask) instead of at its cost, which
 * could sit far above every price offered. The bound may overstate what a long bought below a lone
 * ask is worth; the first two-sided book corrects it (for the kill switch, a drawdown from that
 * peak: it errs towards tripping).
 * @example markAfterBook2(1_000_000, undefined, 20_000) // 40_000: only asks at 0.02, last mid 0.50
 * @example markAfterBook2(undefined, 480_000, 520_000) // 1_000_000: the mid 0.50
 */
export function markAfterBook2(
  last2: number | undefined,
  bidMicro: number | undefined,
  askMicro: number | undefined,
): number | undefined {
  if (bidMicro !== undefined && askMicro !== undefined)
    return bidMicro < askMicro ? bidMicro + askMicro : undefined;
  if (askMicro !== undefined) return last2 === undefined ? 2 * askMicro : Math.min(last2, 2 * askMicro);
  if (bidMicro !== undefined) return last2 === undefined ? 2 * bidMicro : Math.max(last2, 2 * bidMicro);
  return undefined;
}
