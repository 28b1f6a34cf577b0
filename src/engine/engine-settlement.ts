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
  else if (first && markJournaled(core, ids)) observePnl(core);
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
 * record's payouts when it has them. Without them, a token is marked at the last mark an earlier run
 * journaled (`marks`: its last mid, or a payout) until the payouts are read: its book is never
 * watched, and counted at cost a restored position's marked loss (or gain) vanished from the PnL
 * until then, for good if they never come. Logged once per market so marked (info).
 */
export function settleListed(
  positions: PositionBook,
  markets: Iterable<TokenMarket>,
  marks: ReadonlyMap<string, number> | undefined,
  log: Logger,
): void {
  const restored = new Map<string, { tokenId: string; outcome: string; mark: string }[]>();
  for (const m of markets) {
    if (!SETTLED_MARKET_STATUSES.has(m.status)) continue;
    positions.settleMarket(m.marketId, true);
    const micro = m.payouts === undefined ? undefined : payoutMicro(m.payouts, m.outcomeIndex);
    if (micro !== undefined) {
      positions.pin(m.tokenId, micro);
      continue;
    }
    const mark = marks?.get(m.tokenId);
    if (mark === undefined || positions.position(m.tokenId) === 0n) continue;
    positions.restoreMark(m.tokenId, mark);
    const list = restored.get(m.marketId) ?? [];
    list.push({ tokenId: m.tokenId, outcome: m.outcome, mark: fmtPrice(mark) });
    restored.set(m.marketId, list);
  }
  for (const [marketId, tokens] of restored) {
    log.info(
      { marketId, tokens, pnl: fmtSize(positions.pnlMicro) },
      "settled market without its payouts: its tokens are marked at their last journaled mark until the payouts are read",
    );
  }
}

/**
 * A market settled without its payouts in this run before its book had a mid (listed CLOSED with an
 * empty book, say): its books are retired now, so a restored position would count at cost until the
 * payouts are read, and for good if they never come. As when listed settled (settleListed), it is
 * marked at the journal's last mark; that is its first mark of this run, so the kill switch's peak
 * moves by it (shiftForFirstMark). True when some token was so marked.
 */
function markJournaled(core: EngineCore, tokenIds: readonly string[]): boolean {
  const { positions } = core;
  const marks = core.options.restore.marks;
  const marked: { tokenId: string; mark: string }[] = [];
  for (const tokenId of tokenIds) {
    const mark = marks?.get(tokenId);
    if (mark === undefined || positions.markOf(tokenId) !== undefined || positions.position(tokenId) === 0n)
      continue;
    positions.restoreMark(tokenId, mark);
    shiftForFirstMark(core, tokenId);
    marked.push({ tokenId, mark: fmtPrice(mark) });
  }
  if (marked.length > 0)
    core.log.info(
      { tokens: marked, pnl: fmtSize(positions.pnlMicro) },
      "settled market without its payouts: its tokens are marked at their last journaled mark until the payouts are read",
    );
  return marked.length > 0;
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
