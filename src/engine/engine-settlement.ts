import { payoutMicro } from "../core/payout.js";
import { SETTLED_MARKET_STATUSES } from "../core/types.js";
import type { EngineCore } from "./engine-core.js";
import { grossMark, requoteExposed } from "./engine-fills.js";

/**
 * A market's new status, as the position book sees it: a resolved or voided market is settled
 * (its shares no longer count towards any gross: PositionBook.settleMarket), and with the
 * resolution's payouts its tokens are marked at them for good (PositionBook.pin), which moves the
 * PnL the kill switch watches. Requotes the market's tokens, and every token of the wallet when the
 * wallet's gross crossed `total.soft` (requoteExposed).
 */
export function settleMarket(
  core: EngineCore,
  marketId: string,
  status: string,
  payouts: Readonly<Record<string, string>> | undefined,
): void {
  const { positions, tokens } = core;
  const settled = SETTLED_MARKET_STATUSES.has(status);
  const before = grossMark(core);
  positions.settleMarket(marketId, settled);
  let pnlMoved = false;
  if (settled && payouts !== undefined) {
    for (const t of tokens.tokensOf(marketId)) {
      const slot = tokens.get(t);
      const micro = slot === undefined ? undefined : payoutMicro(payouts, slot.market.outcomeIndex);
      if (micro !== undefined && positions.pin(t, micro)) pnlMoved = true;
    }
  }
  if (pnlMoved) core.enforce(core.risk.onPnl(positions.pnlMicro, core.clock.now()));
  requoteExposed(core, tokens.tokensOf(marketId), before);
}
