import { payoutMicro } from "../core/payout.js";
import type { TokenMarket } from "../core/trading.js";
import { SETTLED_MARKET_STATUSES } from "../core/types.js";
import type { Logger } from "../observability/logger.js";
import { fmtPrice, fmtSize } from "../risk/decision.js";
import type { EngineCore } from "./engine-core.js";
import { grossMark, requoteExposed } from "./engine-fills.js";
import { observePnl, shiftForFirstMark } from "./engine-kill-switch.js";
import type { PositionBook } from "./engine-positions.js";

/**
 * A market's new status, as the position book sees it: a resolved or voided market is settled
 * (its shares no longer count towards any gross: PositionBook.settleMarket), and with the
 * resolution's payouts its tokens are marked at them for good (PositionBook.pin), which moves the
 * PnL the kill switch watches. Settled without payouts, its tokens keep their last mark (the last
 * mid; listed settled at start, the journal's: settleListed) until a push
 * or a record brings the payouts (closed-market-watch.ts reads the record meanwhile). Requotes the
 * market's tokens, and every token of the wallet when the wallet's gross crossed `total.soft`
 * (requoteExposed). The first settlement retires the tokens' books: they leave any resync episode
 * the log is waiting on, and `market_settled` tells the adapters to stop watching them.
 * @param how where the payouts came from, when a record read (for the payout line), as
 *   MarketStatuses.recordRead says it; undefined for a push
 */
export function settleMarket(
  core: EngineCore,
  marketId: string,
  status: string,
  payouts: Readonly<Record<string, string>> | undefined,
  how?: string,
): void {
  const { positions, tokens } = core;
  const settled = SETTLED_MARKET_STATUSES.has(status);
  const before = grossMark(core);
  const ids = tokens.tokensOf(marketId);
  const first = settled && !ids.some((t) => positions.settled(t));
  positions.settleMarket(marketId, settled);
  const pinned = settled && payouts !== undefined ? pinPayouts(core, marketId, payouts, how) : undefined;
  if (pinned?.pnlMoved === true) observePnl(core);
  else if (first) {
    // Settled before its book had a mid (listed CLOSED with an empty book, say): its books retire now.
    const markets = ids.flatMap((t) => tokens.get(t)?.market ?? []);
    const marked = markJournaled(positions, marketId, markets, core.options.restore.marks, core.log);
    for (const t of marked) shiftForFirstMark(core, t);
    if (marked.length > 0) observePnl(core);
  }
  requoteExposed(core, ids, before);
  // For the journal: the settlement, then its payouts once they mark the tokens (a repeat marks none).
  if (first || pinned?.marked === true) {
    core.emit({
      type: "market_settlement",
      atMs: core.clock.now(),
      marketId,
      status,
      payouts: pinned === undefined ? undefined : payouts,
    });
  }
  if (!first) return;
  for (const t of ids) core.decisions.bookRetired(t);
  core.emit({ type: "market_settled", atMs: core.clock.now(), marketId, tokenIds: ids });
}

/**
 * At construction, before the kill switch's first look at the PnL: a market listed settled at start
 * (a restart after its resolution) counts nothing, as after a push, and its tokens are marked at the
 * record's payouts when it has them; without them, at the journal's last marks (markJournaled).
 */
export function settleListed(
  positions: PositionBook,
  markets: Iterable<TokenMarket>,
  marks: ReadonlyMap<string, number> | undefined,
  log: Logger,
): void {
  const unpaid = new Map<string, TokenMarket[]>();
  for (const m of markets) {
    if (!SETTLED_MARKET_STATUSES.has(m.status)) continue;
    positions.settleMarket(m.marketId, true);
    const micro = m.payouts === undefined ? undefined : payoutMicro(m.payouts, m.outcomeIndex);
    if (micro !== undefined) positions.pin(m.tokenId, micro);
    else unpaid.set(m.marketId, [...(unpaid.get(m.marketId) ?? []), m]);
  }
  for (const [marketId, tokens] of unpaid) markJournaled(positions, marketId, tokens, marks, log);
}

/**
 * A settled market's tokens without payouts and without a mark of this run (listed settled at start,
 * or settled before its book had a mid: its books are retired) are marked at the last mark an earlier
 * run journaled (`marks`: a mid, or a payout) until the payouts are read. Counted at cost instead, a
 * restored position's marked loss (or gain) vanished from the PnL until then, for good if they never
 * came. Flat tokens are left alone. Logged once (info) when some token was so marked.
 * @returns the tokens marked (in a run, each is its first mark: the caller moves the kill switch's
 *   peak by it)
 */
function markJournaled(
  positions: PositionBook,
  marketId: string,
  tokens: readonly Pick<TokenMarket, "tokenId" | "outcome">[],
  marks: ReadonlyMap<string, number> | undefined,
  log: Logger,
): string[] {
  const marked: { tokenId: string; outcome: string; mark: string }[] = [];
  for (const { tokenId, outcome } of tokens) {
    const mark = marks?.get(tokenId);
    if (mark === undefined || positions.markOf(tokenId) !== undefined || positions.position(tokenId) === 0n)
      continue;
    positions.restoreMark(tokenId, mark);
    marked.push({ tokenId, outcome, mark: fmtPrice(mark) });
  }
  if (marked.length > 0)
    log.info(
      { marketId, tokens: marked, pnl: fmtSize(positions.pnlMicro) },
      "settled market without its payouts: its tokens are marked at their last journaled mark until the payouts are read",
    );
  return marked.map((x) => x.tokenId);
}

/**
 * Marks the market's tokens at their payouts, and logs once (info) what that did: each token's
 * payout (a price) and the position it values (shares traded since start, what the PnL counts),
 * and the PnL's change (USDC). A token already marked at the same payout is no news (a repeated
 * push, or a record read after the push): nothing is logged when no token's mark moved. Says
 * whether a token's mark moved (`marked`) and whether the PnL did (`pnlMoved`).
 */
function pinPayouts(
  core: EngineCore,
  marketId: string,
  payouts: Readonly<Record<string, string>>,
  how: string | undefined,
): { readonly marked: boolean; readonly pnlMoved: boolean } {
  const { log, positions, tokens } = core;
  const pnlBefore = positions.pnlMicro;
  let moved = false;
  const pinned: { tokenId: string; outcome: string; payout: string; position: string }[] = [];
  for (const tokenId of tokens.tokensOf(marketId)) {
    const market = tokens.get(tokenId)?.market;
    const micro = market === undefined ? undefined : payoutMicro(payouts, market.outcomeIndex);
    if (market === undefined || micro === undefined || positions.payoutOf(tokenId) === micro) continue;
    // A payout as the first mark of this run (a market resolved while mm was down, its book never
    // watched), in place of none or of the journal's last mark: the resolution is not this run's.
    const restored = positions.restoredMarkOf(tokenId);
    const first = restored !== undefined || positions.markOf(tokenId) === undefined;
    if (positions.pin(tokenId, micro)) moved = true;
    if (first) shiftForFirstMark(core, tokenId, restored);
    pinned.push({
      tokenId,
      outcome: market.outcome,
      payout: fmtPrice(micro),
      position: fmtSize(positions.position(tokenId)),
    });
  }
  if (pinned.length > 0) {
    const pnl = positions.pnlMicro;
    log.info(
      {
        marketId,
        slug: tokens.slugOf(marketId),
        tokens: pinned,
        pnlChange: fmtSize(pnl - pnlBefore),
        pnl: fmtSize(pnl),
      },
      `settled market marked at its payouts${how === undefined ? "" : ` (its record, read ${how})`}`,
    );
  }
  return { marked: pinned.length > 0, pnlMoved: moved };
}
