import type { WalletTradeRow } from "../../../venue/types.js";
import { weiToString } from "../../../venue/wire.js";
import type { MockContext } from "../../context.js";
import { blockNumberAt, settlementTxHash } from "../../ws/chain.js";
import { iso } from "./format.js";

/**
 * A wallet's trade rows as the REST reads show them. The spec resolves the per-wallet fee "after
 * settlement": a row's `fee` (and the fee row's `amount`) is null until scenario.timing
 * .settlementDelayMs after the trade, when it also gets the txHash and blockNumber the
 * token_trade_settlements feed announces for that trade (README "Assumptions").
 */
export function settledAt(ctx: MockContext, row: { createdAt: number }): number {
  return row.createdAt + ctx.scenario.timing.settlementDelayMs;
}

function settlement(ctx: MockContext, row: WalletTradeRow) {
  const at = settledAt(ctx, row);
  if (ctx.clock.now() < at) return { settled: false, settledAt: null, txHash: null, blockNumber: null };
  return {
    settled: true,
    settledAt: iso(at),
    txHash: settlementTxHash(row.tradeId),
    blockNumber: blockNumberAt(at),
  };
}

/** REST trade record (GET /api/me/trades, GET /api/orders/{id}/fills): tradeId as `id`. */
export function wireTrade(ctx: MockContext, row: WalletTradeRow): Record<string, unknown> {
  const s = settlement(ctx, row);
  return {
    id: row.tradeId,
    orderId: row.orderId,
    marketId: row.marketId,
    vaultAddress: row.vault,
    role: row.role,
    side: row.side,
    outcome: row.outcome,
    price: weiToString(row.price),
    quantity: weiToString(row.quantity),
    fee: s.settled ? weiToString(row.fee.amount) : null,
    feeAsset: row.fee.asset,
    createdAt: iso(row.createdAt),
    ...s,
  };
}

/** Fee row (GET /api/me/fees): one per (tradeId, role). */
export function wireFee(ctx: MockContext, row: WalletTradeRow): Record<string, unknown> {
  const s = settlement(ctx, row);
  return {
    tradeId: row.tradeId,
    role: row.role,
    orderId: row.orderId,
    marketId: row.marketId,
    tokenId: row.tokenId,
    amount: s.settled ? weiToString(row.fee.amount) : null,
    asset: row.fee.asset,
    createdAt: iso(row.createdAt),
    settled: s.settled,
    settledAt: s.settledAt,
  };
}
