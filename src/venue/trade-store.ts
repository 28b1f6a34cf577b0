import type { Address } from "../core/types.js";
import { KeysetList, overCap } from "./keyset.js";
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
 * Trades (each token's tape), and per-wallet rows of them: one row per (tradeId, role), so a
 * wallet on both sides of a trade (a self-trade under the `allow` policy) has two rows, each with
 * its own fee. A row copies what it shows, so the tape and the rows are forgotten independently.
 * A transient wallet (see OrderStore) gets no rows, and a trade between two transient wallets is
 * not kept at all.
 */
export class TradeStore {
  // Each token's tape in the order the trades happened (createdAt never decreases).
  readonly #byToken = new Map<string, TradeRecord[]>();
  readonly #rows = new Map<Address, KeysetList<WalletTradeRow>>();
  readonly #rowsByOrder = new Map<string, WalletTradeRow[]>();
  readonly #transient: ReadonlySet<Address>;
  readonly #maxRows: number;
  readonly #maxTape: number;

  /**
   * `transient`: lowercase wallet keys whose trade rows are not kept. `maxRowsPerWallet`: each
   * wallet keeps at most about this many rows, oldest dropped first (see overCap), so memory stays
   * bounded however fast wallets trade and one wallet's trading never pushes another wallet's
   * rows out. `maxTradesPerToken`: the same bound on each token's tape. Defaults: no count limit.
   */
  constructor(
    transient: ReadonlySet<Address> = new Set(),
    maxRowsPerWallet = Infinity,
    maxTradesPerToken = Infinity,
  ) {
    this.#transient = transient;
    this.#maxRows = maxRowsPerWallet;
    this.#maxTape = maxTradesPerToken;
  }

  /** Forgets trades (and their rows) that happened before `cutoff`; returns how many trades. */
  forgetBefore(cutoff: number): number {
    const old = (x: { createdAt: number }) => x.createdAt < cutoff;
    let n = 0;
    for (const list of this.#byToken.values()) {
      let i = 0;
      while (i < list.length && old(list[i] as TradeRecord)) i++;
      n += this.#dropTape(list, i);
    }
    for (const rows of this.#rows.values()) rows.removeIf(old);
    for (const [orderId, rows] of this.#rowsByOrder) {
      const kept = rows.filter((r) => !old(r));
      if (kept.length === 0) this.#rowsByOrder.delete(orderId);
      else if (kept.length < rows.length) this.#rowsByOrder.set(orderId, kept);
    }
    return n;
  }

  /** Records a trade and its two wallet rows. */
  add(trade: TradeRecord, maker: VenueOrder, taker: VenueOrder): void {
    const keepMaker = !this.#transient.has(maker.wallet);
    const keepTaker = !this.#transient.has(taker.wallet);
    if (!keepMaker && !keepTaker) return;
    let list = this.#byToken.get(trade.tokenId);
    if (list === undefined) {
      list = [];
      this.#byToken.set(trade.tokenId, list);
    }
    list.push(trade);
    if (overCap(list.length, this.#maxTape)) this.#dropTape(list, list.length - this.#maxTape);
    if (keepMaker) this.#addRow(rowOf(trade, maker, "maker"));
    if (keepTaker) this.#addRow(rowOf(trade, taker, "taker"));
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
    if (overCap(list.size, this.#maxRows)) this.#dropRows(list.dropOldest(list.size - this.#maxRows));
  }

  // Drops the `n` oldest trades of a token's tape; returns n.
  #dropTape(list: TradeRecord[], n: number): number {
    if (n <= 0) return 0;
    list.splice(0, n);
    return n;
  }

  // Removes rows a wallet's cap dropped from their orders' fill lists.
  #dropRows(dropped: readonly WalletTradeRow[]): void {
    const byOrder = new Map<string, Set<string>>();
    for (const r of dropped) {
      const ids = byOrder.get(r.orderId);
      if (ids === undefined) byOrder.set(r.orderId, new Set([r.rowId]));
      else ids.add(r.rowId);
    }
    for (const [orderId, ids] of byOrder) {
      const kept = (this.#rowsByOrder.get(orderId) ?? []).filter((r) => !ids.has(r.rowId));
      if (kept.length === 0) this.#rowsByOrder.delete(orderId);
      else this.#rowsByOrder.set(orderId, kept);
    }
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
