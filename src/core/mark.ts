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
 * - only asks: min(last, ask); only bids: max(last, bid); with no mark yet, undefined;
 * - bid ≥ ask (crossed or locked: the data's error, not a price), or no level at all: undefined,
 *   the book marks nothing and the last mark stays.
 *
 * A one-sided book only bounds a mark the token already has (a two-sided book's, a payout's, the
 * journal's restored one, or a fill's in the backtest recorder): it is half a price, so it is never
 * a token's first mark. A restored position's first mark of
 * the run is no gain or loss of this run (engine-kill-switch.ts shiftForFirstMark moves the peak by
 * it), so a one-sided first mark bought the kill switch nothing, while the step from that side to
 * the first two-sided mid read as this run's PnL although the market had not moved: a lone ask above
 * the later mid was a false drawdown (a restored long at cost tripped a 1 USDC switch, and the trip
 * outlives restarts), a lone bid below it a false gain that wore down a carried drawdown
 * (review22, rmark). Until its first two-sided book a token without a mark is counted at cost by the
 * engine, and at its last fill's price by the backtest recorder.
 * @example markAfterBook2(1_000_000, undefined, 20_000) // 40_000: only asks at 0.02, last mid 0.50
 * @example markAfterBook2(undefined, 480_000, 520_000) // 1_000_000: the mid 0.50
 * @example markAfterBook2(undefined, undefined, 600_000) // undefined: no mark yet, only asks
 */
export function markAfterBook2(
  last2: number | undefined,
  bidMicro: number | undefined,
  askMicro: number | undefined,
): number | undefined {
  if (bidMicro !== undefined && askMicro !== undefined)
    return bidMicro < askMicro ? bidMicro + askMicro : undefined;
  if (last2 === undefined) return undefined;
  if (askMicro !== undefined) return Math.min(last2, 2 * askMicro);
  if (bidMicro !== undefined) return Math.max(last2, 2 * bidMicro);
  return undefined;
}
