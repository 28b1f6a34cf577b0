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
 * A transient wallet (see OrderStore) gets no rows, and a trade between two transient wallets is
 * not kept at all.
 */
export class TradeStore {
  readonly #byId = new Map<string, TradeRecord>();
  readonly #byToken = new Map<string, TradeRecord[]>();
  readonly #rows = new Map<Address, KeysetList<WalletTradeRow>>();
  readonly #rowsByOrder = new Map<string, WalletTradeRow[]>();
  readonly #transient: ReadonlySet<Address>;
  // Trades in the order they happened, for forgetBefore.
  #timeline: TradeRecord[] = [];
  #head = 0;

  /** `transient`: lowercase wallet keys whose trade rows are not kept. */
  constructor(transient: ReadonlySet<Address> = new Set()) {
    this.#transient = transient;
  }

  /** Forgets trades (and their rows) that happened before `cutoff`; returns how many. */
  forgetBefore(cutoff: number): number {
    const start = this.#head;
    while (
      this.#head < this.#timeline.length &&
      (this.#timeline[this.#head] as TradeRecord).createdAt < cutoff
    ) {
      this.#byId.delete((this.#timeline[this.#head] as TradeRecord).id);
      this.#head++;
    }
    const n = this.#head - start;
    if (n === 0) return 0;
    const old = (x: { createdAt: number }) => x.createdAt < cutoff;
    for (const list of this.#byToken.values()) {
      let i = 0;
      while (i < list.length && old(list[i] as TradeRecord)) i++;
      list.splice(0, i);
    }
    for (const rows of this.#rows.values()) rows.removeIf(old);
    for (const [orderId, rows] of this.#rowsByOrder) {
      const kept = rows.filter((r) => !old(r));
      if (kept.length === 0) this.#rowsByOrder.delete(orderId);
      else if (kept.length < rows.length) this.#rowsByOrder.set(orderId, kept);
    }
    if (this.#head > 1024 && this.#head * 2 > this.#timeline.length) {
      this.#timeline = this.#timeline.slice(this.#head);
      this.#head = 0;
    }
    return n;
  }

  /** Records a trade and its two wallet rows. */
  add(trade: TradeRecord, maker: VenueOrder, taker: VenueOrder): void {
    const keepMaker = !this.#transient.has(maker.wallet);
    const keepTaker = !this.#transient.has(taker.wallet);
    if (!keepMaker && !keepTaker) return;
    this.#byId.set(trade.id, trade);
    this.#timeline.push(trade);
    const list = this.#byToken.get(trade.tokenId);
    if (list === undefined) this.#byToken.set(trade.tokenId, [trade]);
    else list.push(trade);
    if (keepMaker) this.#addRow(rowOf(trade, maker, "maker"));
    if (keepTaker) this.#addRow(rowOf(trade, taker, "taker"));
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
