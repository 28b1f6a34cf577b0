import type { Address, OrderStatus } from "../core/types.js";
import { KeysetList, overCap } from "./keyset.js";
import type { VenueOrder } from "./order.js";
import type { Keyset, Page, PlacementResult } from "./types.js";

/** Filters of an order-history read (GET /api/orders/history). */
export interface HistoryQuery {
  readonly marketId?: string;
  /**
   * PARTIAL selects open orders with a fill (OPEN with 0 < filledQty); OPEN selects every open
   * order, partially filled or not. Statuses the venue never produces select nothing.
   */
  readonly status?: OrderStatus;
  /** Inclusive lower bound on createdAt, ms. */
  readonly from?: number;
  /** Exclusive upper bound on createdAt, ms. */
  readonly to?: number;
  readonly after?: Keyset;
  readonly limit: number;
}

interface WalletOrders {
  readonly history: KeysetList<VenueOrder>;
  /** Open orders in placement order. */
  readonly open: Map<string, VenueOrder>;
  /** clientOrderId → the result the first placement returned. */
  readonly byClientId: Map<string, PlacementResult>;
  /** Closed orders in closing order from `closedHead` on (only with retention): dropped oldest first. */
  closed: VenueOrder[];
  closedHead: number;
}

/**
 * Every accepted order, indexed by id, by wallet (keyset-ordered history), by wallet's open set
 * and by (wallet, clientOrderId). Rejected placements are never stored: they get no id.
 * Orders of a transient wallet are kept only while open (no history; unknown by id once closed),
 * so a wallet that places without end (the backtest's mirror of the market) costs no memory.
 */
export class OrderStore {
  readonly #byId = new Map<string, VenueOrder>();
  readonly #wallets = new Map<Address, WalletOrders>();
  readonly #transient: ReadonlySet<Address>;
  readonly #retain: boolean;
  readonly #maxClosed: number;

  /**
   * `transient`: lowercase wallet keys whose closed orders are forgotten at once. `retain`: closed
   * orders of every wallet may be forgotten later by forgetClosedBefore (bounded memory).
   * `maxClosedPerWallet` (with `retain`): a wallet keeps at most about this many closed orders, its
   * oldest-closed dropped first (see overCap), so one wallet's churn costs bounded memory and
   * never pushes another wallet's history out.
   */
  constructor(transient: ReadonlySet<Address> = new Set(), retain = false, maxClosedPerWallet = Infinity) {
    this.#transient = transient;
    this.#retain = retain;
    this.#maxClosed = maxClosedPerWallet;
  }

  /** Any order by id (callers scope by wallet). */
  get(orderId: string): VenueOrder | undefined {
    return this.#byId.get(orderId);
  }

  /** Records a newly accepted order. */
  add(order: VenueOrder): void {
    this.#byId.set(order.id, order);
    if (!this.#transient.has(order.wallet)) this.#wallet(order.wallet).history.insert(order);
  }

  /** Adds an order to its wallet's open set. */
  markOpen(order: VenueOrder): void {
    this.#wallet(order.wallet).open.set(order.id, order);
  }

  /** Removes an order from its wallet's open set. */
  markClosed(order: VenueOrder): void {
    this.#wallets.get(order.wallet)?.open.delete(order.id);
    if (this.#transient.has(order.wallet)) {
      this.#byId.delete(order.id);
      return;
    }
    if (!this.#retain) return;
    const w = this.#wallet(order.wallet);
    w.closed.push(order);
    const kept = w.closed.length - w.closedHead;
    if (overCap(kept, this.#maxClosed)) this.#forget(w, kept - this.#maxClosed, () => true);
  }

  /**
   * Forgets orders that closed (last changed) before `cutoff`: by id, in their wallet's history
   * and their clientOrderId; returns how many. Only with retention (see the constructor).
   */
  forgetClosedBefore(cutoff: number): number {
    let n = 0;
    for (const w of this.#wallets.values()) n += this.#forget(w, Infinity, (o) => o.updatedAt < cutoff);
    return n;
  }

  /** Open orders of a wallet, oldest first, optionally of one market. */
  open(wallet: Address, marketId?: string): VenueOrder[] {
    const all = [...(this.#wallets.get(wallet)?.open.values() ?? [])];
    return marketId === undefined ? all : all.filter((o) => o.marketId === marketId);
  }

  /** Wallets that ever placed an order. */
  wallets(): Address[] {
    return [...this.#wallets.keys()];
  }

  /** Stores the result a (wallet, clientOrderId) placement returned. */
  rememberClientId(wallet: Address, clientOrderId: string, result: PlacementResult): void {
    this.#wallet(wallet).byClientId.set(clientOrderId, result);
  }

  /** The stored result of an earlier placement with this clientOrderId. */
  byClientId(wallet: Address, clientOrderId: string): PlacementResult | undefined {
    return this.#wallets.get(wallet)?.byClientId.get(clientOrderId);
  }

  /** A page of a wallet's orders, newest first. */
  history(wallet: Address, q: HistoryQuery): Page<VenueOrder> {
    const list = this.#wallets.get(wallet)?.history;
    if (list === undefined) return { items: [], next: undefined };
    const filter = (o: VenueOrder): boolean =>
      (q.marketId === undefined || o.marketId === q.marketId) &&
      (q.from === undefined || o.createdAt >= q.from) &&
      (q.to === undefined || o.createdAt < q.to) &&
      statusMatches(o, q.status);
    return list.page(q.after, q.limit, filter);
  }

  // Forgets up to `max` of the wallet's oldest-closed orders while `old` holds, in one history pass.
  #forget(w: WalletOrders, max: number, old: (o: VenueOrder) => boolean): number {
    const gone = new Set<string>();
    while (w.closedHead < w.closed.length && gone.size < max) {
      const o = w.closed[w.closedHead] as VenueOrder;
      if (!old(o)) break;
      w.closedHead++;
      this.#byId.delete(o.id);
      gone.add(o.id);
      if (o.clientOrderId !== undefined) w.byClientId.delete(o.clientOrderId);
    }
    if (gone.size > 0) w.history.removeIf((o) => gone.has(o.id));
    if (w.closedHead > 1024 && w.closedHead * 2 > w.closed.length) {
      w.closed = w.closed.slice(w.closedHead);
      w.closedHead = 0;
    }
    return gone.size;
  }

  #wallet(wallet: Address): WalletOrders {
    let w = this.#wallets.get(wallet);
    if (w === undefined) {
      w = {
        history: new KeysetList((o) => ({ createdAt: o.createdAt, id: o.id })),
        open: new Map(),
        byClientId: new Map(),
        closed: [],
        closedHead: 0,
      };
      this.#wallets.set(wallet, w);
    }
    return w;
  }
}

function statusMatches(o: VenueOrder, status: OrderStatus | undefined): boolean {
  if (status === undefined) return true;
  if (status === "PARTIAL") return o.status === "OPEN" && o.filledQty > 0n;
  return o.status === status;
}
