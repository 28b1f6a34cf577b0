import type { Address } from "../core/types.js";
import { KeysetList } from "./keyset.js";
import type { VenueOrder } from "./order.js";
import type { Keyset, Page, TradeRecord, WalletTradeRow } from "./types.js";

/** Filters of a wallet's trade (or fee) rows. */
export interface TradeQuery {
  readonly marketId?: string;
  readonly role?: "maker" | "taker";
  /** Inclusive lower bound on createdAt, ms. */
  readonly from?: number;
  /** Exclusive upper bound on createdAt, ms. */
  readonly to?: number;
  readonly after?: Keyset;
  readonly limit: number;
}

/**
 * Trades, and per-wallet rows of them: one row per (tradeId, role), so a wallet on both sides of
 * a trade (a self-trade under the `allow` policy) has two rows, each with its own fee.
 */
export class TradeStore {
  readonly #byId = new Map<string, TradeRecord>();
  readonly #byToken = new Map<string, TradeRecord[]>();
  readonly #rows = new Map<Address, KeysetList<WalletTradeRow>>();
  readonly #rowsByOrder = new Map<string, WalletTradeRow[]>();

  /** Records a trade and its two wallet rows. */
  add(trade: TradeRecord, maker: VenueOrder, taker: VenueOrder): void {
    this.#byId.set(trade.id, trade);
    const list = this.#byToken.get(trade.tokenId);
    if (list === undefined) this.#byToken.set(trade.tokenId, [trade]);
    else list.push(trade);
    this.#addRow(rowOf(trade, maker, "maker"));
    this.#addRow(rowOf(trade, taker, "taker"));
  }

  /** A trade by id. */
  get(tradeId: string): TradeRecord | undefined {
    return this.#byId.get(tradeId);
  }

  /** Trades of one token, newest first, at most `limit`. */
  recent(tokenId: string, limit: number): TradeRecord[] {
    const list = this.#byToken.get(tokenId) ?? [];
    return list.slice(Math.max(0, list.length - limit)).reverse();
  }

  /** Rows of one order's fills, in fill order. */
  ofOrder(orderId: string): readonly WalletTradeRow[] {
    return this.#rowsByOrder.get(orderId) ?? [];
  }

  /** A page of a wallet's rows, newest first. */
  rows(wallet: Address, q: TradeQuery): Page<WalletTradeRow> {
    const list = this.#rows.get(wallet);
    if (list === undefined) return { items: [], next: undefined };
    return list.page(
      q.after,
      q.limit,
      (r) =>
        (q.marketId === undefined || r.marketId === q.marketId) &&
        (q.role === undefined || r.role === q.role) &&
        (q.from === undefined || r.createdAt >= q.from) &&
        (q.to === undefined || r.createdAt < q.to),
    );
  }

  #addRow(row: WalletTradeRow): void {
    let list = this.#rows.get(row.wallet);
    if (list === undefined) {
      list = new KeysetList((r) => ({ createdAt: r.createdAt, id: r.rowId }));
      this.#rows.set(row.wallet, list);
    }
    list.insert(row);
    const byOrder = this.#rowsByOrder.get(row.orderId);
    if (byOrder === undefined) this.#rowsByOrder.set(row.orderId, [row]);
    else byOrder.push(row);
  }
}

function rowOf(t: TradeRecord, order: VenueOrder, role: "maker" | "taker"): WalletTradeRow {
  const row: WalletTradeRow = {
    rowId: `${t.id}:${role}`,
    tradeId: t.id,
    role,
    wallet: order.wallet,
    vault: order.vault,
    orderId: order.id,
    side: order.side,
    marketId: t.marketId,
    conditionId: t.conditionId,
    tokenId: t.tokenId,
    outcome: t.outcome,
    outcomeIndex: t.outcomeIndex,
    price: t.price,
    quantity: t.quantity,
    notional: t.notional,
    fee: role === "maker" ? t.makerFee : t.takerFee,
    createdAt: t.createdAt,
  };
  return order.clientOrderId === undefined ? row : { ...row, clientOrderId: order.clientOrderId };
}
