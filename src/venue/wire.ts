import type { BookChangesEvent, FillEvent, TradeEvent } from "./events.js";
import type { BookLevel, LevelChange } from "./order-book.js";
import type { BookSnapshot } from "./sim-venue.js";
import type { OrderView, PlacementResult, TradeRecord, WalletTradeRow } from "./types.js";

/**
 * The spec's JSON shapes for venue records: decimals as strings, timestamps as ISO-8601 (or `tsMs`
 * numbers inside WebSocket data), lowercase addresses. Element shapes the spec does not show (the
 * placement's trades[], book entries, fee rows beyond tradeId and role) are this file's choices,
 * kept here so a different real answer is one edit.
 */

/**
 * Micro-units → canonical decimal string ("530000" → "0.53", "0" → "0"), equal to core's
 * weiToString without a decimal.js round-trip: book frames are formatted for every subscriber.
 */
export function weiToString(wei: bigint): string {
  const neg = wei < 0n;
  const abs = neg ? -wei : wei;
  const whole = abs / 1_000_000n;
  const frac = (abs % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return `${neg ? "-" : ""}${whole}${frac === "" ? "" : `.${frac}`}`;
}

/** ms since epoch → ISO-8601 UTC. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** An Order record (GET /api/orders/{id}, /open, /history). */
export function wireOrder(o: OrderView): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: o.id,
    userWallet: o.userWallet,
    vault: o.vault,
    marketId: o.marketId,
    side: o.side,
    outcome: o.outcome,
    price: weiToString(o.price),
    quantity: weiToString(o.quantity),
    filledQty: weiToString(o.filledQty),
    remainingQty: weiToString(o.remainingQty),
    expiry: o.expiry,
    type: o.type,
    timeInForce: o.timeInForce,
    status: o.status,
    createdAt: iso(o.createdAt),
    updatedAt: iso(o.updatedAt),
  };
  if (o.clientOrderId !== undefined) out.clientOrderId = o.clientOrderId;
  return out;
}

/** Element of the placement result's trades[] (shape not shown in the spec): the taker's view. */
export function wirePlacementTrade(t: TradeRecord): Record<string, unknown> {
  return {
    tradeId: t.id,
    makerOrderId: t.makerOrderId,
    side: t.takerSide,
    price: weiToString(t.price),
    quantity: weiToString(t.quantity),
    fee: weiToString(t.takerFee.amount),
    feeAsset: t.takerFee.asset,
    createdAt: iso(t.createdAt),
  };
}

/** The placement result body (always HTTP 201). */
export function wirePlacement(r: PlacementResult): Record<string, unknown> {
  const out: Record<string, unknown> = {
    orderId: r.orderId,
    status: r.status,
    filledQty: weiToString(r.filledQty),
    remainingQty: weiToString(r.remainingQty),
    trades: r.trades.map(wirePlacementTrade),
  };
  if (r.code !== undefined) out.code = r.code;
  if (r.message !== undefined) out.message = r.message;
  return out;
}

/** REST trade record of GET /api/me/trades (tradeId as `id`, the wallet's side and fee). */
export function wireTradeRow(r: WalletTradeRow): Record<string, unknown> {
  return {
    id: r.tradeId,
    orderId: r.orderId,
    marketId: r.marketId,
    vaultAddress: r.vault,
    role: r.role,
    side: r.side,
    price: weiToString(r.price),
    quantity: weiToString(r.quantity),
    fee: weiToString(r.fee.amount),
    feeAsset: r.fee.asset,
    createdAt: iso(r.createdAt),
  };
}

/** Fee row of GET /api/me/fees: one per (tradeId, role). */
export function wireFeeRow(r: WalletTradeRow): Record<string, unknown> {
  return {
    tradeId: r.tradeId,
    role: r.role,
    orderId: r.orderId,
    marketId: r.marketId,
    tokenId: r.tokenId,
    amount: weiToString(r.fee.amount),
    asset: r.fee.asset,
    createdAt: iso(r.createdAt),
  };
}

/** user_fill payload, exactly the spec's fields (no fee: it is a match-time notice). */
export function wireUserFill(e: FillEvent): Record<string, unknown> {
  const out: Record<string, unknown> = {
    walletAddress: e.walletAddress,
    side: e.side,
    tradeId: e.tradeId,
    orderId: e.orderId,
  };
  if (e.clientOrderId !== undefined) out.clientOrderId = e.clientOrderId;
  return {
    ...out,
    tokenId: e.tokenId,
    conditionId: e.conditionId,
    outcomeIndex: e.outcomeIndex,
    price: weiToString(e.price),
    quantity: weiToString(e.quantity),
    source: "matcher",
    tsMs: e.tsMs,
  };
}

/** trade_matched payload. */
export function wireTradeMatched(e: TradeEvent): Record<string, unknown> {
  return {
    tokenId: e.tokenId,
    conditionId: e.conditionId,
    outcomeIndex: e.outcomeIndex,
    tradeId: e.tradeId,
    price: weiToString(e.price),
    quantity: weiToString(e.quantity),
    side: e.side,
    source: "matcher",
    tsMs: e.tsMs,
  };
}

/** Book entries `{price, size}` as decimal strings. */
export function wireLevels(levels: readonly BookLevel[]): { price: string; size: string }[] {
  return levels.map((l) => ({ price: weiToString(l.price), size: weiToString(l.size) }));
}

/** Change entries `{side, price, size}`; size is the new level total, "0" removes the level. */
export function wireChanges(
  changes: readonly LevelChange[],
): { side: string; price: string; size: string }[] {
  return changes.map((c) => ({ side: c.side, price: weiToString(c.price), size: weiToString(c.size) }));
}

/** book_snapshot payload. */
export function wireBookSnapshot(s: BookSnapshot): Record<string, unknown> {
  return {
    tokenId: s.tokenId,
    conditionId: s.conditionId,
    outcomeIndex: s.outcomeIndex,
    bids: wireLevels(s.bids),
    asks: wireLevels(s.asks),
    seq: s.seq,
    tsMs: s.tsMs,
  };
}

/** book_delta payload. */
export function wireBookDelta(e: BookChangesEvent): Record<string, unknown> {
  return {
    tokenId: e.tokenId,
    conditionId: e.conditionId,
    outcomeIndex: e.outcomeIndex,
    seq: e.seq,
    prevSeq: e.prevSeq,
    changes: wireChanges(e.changes),
    tsMs: e.tsMs,
  };
}
