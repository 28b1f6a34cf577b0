import type { Fill } from "../core/trading.js";
import type { Side } from "../core/types.js";
import { toWei } from "../core/wei.js";
import type { TradeRecord } from "../exchange/types.js";
import type { FeeAmount } from "./inventory-math.js";
import { applyFill, type ReconcileState } from "./reconcile-fills.js";

/** What a backfill did. */
export interface BackfillReport {
  /** Fills that were missing (dropped or not yet delivered over the WebSocket), now applied. */
  readonly applied: readonly Fill[];
  /** Trades already applied (the usual case). */
  readonly duplicates: number;
  /** Fees newly set from the records (also on trades first seen over the WebSocket). */
  readonly fees: number;
  /** Trades of orders this session cannot map to a token: resolve their orders, then backfill again. */
  readonly unmapped: readonly TradeRecord[];
  /** Records with an unreadable price, quantity, fee or createdAt: skipped. */
  readonly invalid: readonly TradeRecord[];
  /**
   * Fills no run journaled of orders an earlier run left, on tokens this run does not trade
   * (`state.restored.takeForeign`): applied to nothing here, for the journal to book under their
   * token, with the fee when the record has it.
   */
  readonly foreign: readonly { readonly fill: Fill; readonly fee: FeeAmount | undefined }[];
}

export interface BackfillOptions {
  /** Token of an orderId the store does not track (e.g. from GET /api/orders/{id} + the market catalog). */
  readonly tokenOfOrder?: (orderId: string) => string | undefined;
  /**
   * Records whose createdAt the caller has parsed already (`Date.parse`, NaN when unreadable), so
   * each is parsed once per reconcile; a record not in it is parsed here.
   */
  readonly createdAtMs?: ReadonlyMap<TradeRecord, number>;
}

/**
 * Backfills fills missed while disconnected from GET /api/me/trades records.
 *
 * A REST trade has no tokenId and no clientOrderId: it is mapped to its token through its orderId (the
 * store's order, or `tokenOfOrder`); `id` is the tradeId. Its timestamp is `createdAt` parsed to epoch ms,
 * assumed to be the same instant as the user_fill's tsMs (so both deliveries sort alike).
 *
 * Fees: `fee` is null until settlement. Its asset is the record's `feeAsset` when present, else by side
 * (BUY → shares, SELL → USDC: the spec's taker rule; maker rows are assumed to follow it, and a maker
 * fee is normally 0). Fees are set even for trades already applied from the WebSocket, which never
 * carries one.
 *
 * INVARIANTS
 * - Idempotent and deduplicated against WebSocket fills by (tradeId, orderId) (applyFill).
 * - A trade of a fill an earlier run applied (`state.restored`: restored from the journal with its fee
 *   still to come, or any journaled fill of an order an earlier run left) sets that fee only: its
 *   fill is in the restored account, never applied again.
 * - A trade no run applied of an order an earlier run left, stamped before this session (made while
 *   mm was down), joins those restored fills (`state.restored.takeMissed`): applied once, to the
 *   restored account, its shares given back by the baseline (the positions held it at start).
 *   Such an order maps to its token through the journal (`state.restored.tokenOf`), so one the
 *   exchange has forgotten still maps; on a token this run does not trade, its trades no run
 *   journaled are reported in `foreign` (takeForeign) and applied to nothing.
 * - Backfilling any subset of the true trades, any number of times, in any order, never moves the
 *   state away from the truth; backfilling all of them reaches it.
 * @example
 * const page = await port.trades({ limit: 200 });
 * const rep = backfillTrades(state, page.trades);
 */
export function backfillTrades(
  state: ReconcileState,
  trades: readonly TradeRecord[],
  opts: BackfillOptions = {},
): BackfillReport {
  const applied: Fill[] = [];
  const unmapped: TradeRecord[] = [];
  const invalid: TradeRecord[] = [];
  const older: { fill: Fill; fee: FeeAmount | undefined }[] = [];
  const foreign: { fill: Fill; fee: FeeAmount | undefined }[] = [];
  let duplicates = 0;
  let fees = 0;
  for (const t of trades) {
    const tsMs = opts.createdAtMs?.get(t) ?? Date.parse(t.createdAt);
    if (state.restored?.holds(t.id, t.orderId, tsMs) === true) {
      // A fill of an earlier run: in the restored account already; only its fee is new.
      const fee = feeOfTrade(t);
      if (fee === "invalid") {
        invalid.push(t);
        continue;
      }
      duplicates++;
      if (fee !== undefined && state.restored.setFee(t.id, t.orderId, fee)) fees++;
      continue;
    }
    const local = state.orders.byOrderId(t.orderId);
    const journal = local === undefined ? state.restored?.tokenOf?.(t.orderId) : undefined;
    const tokenId = local?.tokenId ?? journal?.tokenId ?? opts.tokenOfOrder?.(t.orderId);
    if (tokenId === undefined) {
      unmapped.push(t);
      continue;
    }
    const fill = fillFromTrade(t, tokenId, local?.clientOrderId, tsMs);
    const fee = feeOfTrade(t);
    if (fill === undefined || fee === "invalid") {
      invalid.push(t);
      continue;
    }
    if (journal?.traded === false) {
      // An earlier run's order on a token this run does not trade: for the journal alone.
      const taken = state.restored?.takeForeign?.(fill);
      if (taken === undefined) duplicates++;
      else foreign.push({ fill: taken, fee });
      continue;
    }
    if (state.restored?.misses?.(fill.orderId, fill.tsMs) === true) {
      // Possibly made while mm was down, of an earlier run's order: taken below, oldest first.
      older.push({ fill, fee });
      continue;
    }
    if (applyFill(state, fill).applied) applied.push(fill);
    else duplicates++;
    if (fee !== undefined && state.inventory.setFee(t.id, t.orderId, fee)) fees++;
  }
  // Missed fills fold into the restored account in the order they were given (trades come newest
  // first): oldest first, so realised PnL and cost split as they did on the exchange. The journal
  // books foreign fills in the order handed over, so they are sorted alike.
  older.sort(oldestFirst);
  foreign.sort(oldestFirst);
  for (const { fill, fee } of older) {
    const missed = state.restored?.takeMissed?.(fill, fee);
    if (missed !== undefined) {
      // Into the restored account, fee and all; the order (if tracked) counts it.
      state.orders.recordFill(missed);
      applied.push(missed);
      if (fee !== undefined) fees++;
      continue;
    }
    if (applyFill(state, fill).applied) applied.push(fill);
    else duplicates++;
    if (fee !== undefined && state.inventory.setFee(fill.tradeId, fill.orderId, fee)) fees++;
  }
  return { applied, duplicates, fees, unmapped, invalid, foreign };
}

/**
 * A REST trade as a Fill of `tokenId`; undefined when an amount or the timestamp is unreadable.
 * `tsMs`: the record's createdAt as the caller parsed it (default: parsed here).
 */
export function fillFromTrade(
  t: TradeRecord,
  tokenId: string,
  clientOrderId?: string,
  tsMs = Date.parse(t.createdAt),
): Fill | undefined {
  if (!Number.isFinite(tsMs)) return undefined;
  try {
    return {
      tradeId: t.id,
      orderId: t.orderId,
      clientOrderId,
      tokenId,
      side: t.side,
      priceMicro: Number(toWei(t.price, "price")),
      sizeMicro: toWei(t.quantity, "quantity"),
      tsMs,
    };
  } catch {
    return undefined;
  }
}

/** The fee of a REST trade (see backfillTrades for the asset rule); undefined while unresolved. */
export function feeOfTrade(t: TradeRecord): FeeAmount | undefined | "invalid" {
  if (t.fee === null || t.fee === undefined) return undefined;
  const declared = (t as { feeAsset?: unknown }).feeAsset;
  const asset = declared === "shares" || declared === "usdc" ? declared : assetBySide(t.side);
  try {
    return { asset, amountMicro: toWei(t.fee, "fee") };
  } catch {
    return "invalid";
  }
}

function assetBySide(side: Side): FeeAmount["asset"] {
  return side === "buy" ? "shares" : "usdc";
}

/**
 * Fills in the exchange's order: by time, then by tradeId (compareIds) within a millisecond.
 * @example fills.sort(oldestFirst)
 */
export function oldestFirst(a: { readonly fill: Fill }, b: { readonly fill: Fill }): number {
  return a.fill.tsMs - b.fill.tsMs || compareIds(a.fill.tradeId, b.fill.tradeId);
}

/** Ids in inventory's canonical order: shorter first, then lexicographic (numeric ids sort numerically). */
function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
