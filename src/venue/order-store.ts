import type { Address, OrderStatus } from "../core/types.js";
import { KeysetList } from "./keyset.js";
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
  // Closed orders in closing order, for forgetClosedBefore (only with retention).
  #closed: VenueOrder[] = [];
  #closedHead = 0;

  /**
   * `transient`: lowercase wallet keys whose closed orders are forgotten at once. `retain`: closed
   * orders of every wallet may be forgotten later by forgetClosedBefore (bounded memory).
   */
  constructor(transient: ReadonlySet<Address> = new Set(), retain = false) {
    this.#transient = transient;
    this.#retain = retain;
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
    if (this.#transient.has(order.wallet)) this.#byId.delete(order.id);
    else if (this.#retain) this.#closed.push(order);
  }

  /**
   * Forgets orders that closed (last changed) before `cutoff`: by id, in their wallet's history
   * and their clientOrderId; returns how many. Only with retention (see the constructor).
   */
  forgetClosedBefore(cutoff: number): number {
    const gone = new Set<string>();
    const wallets = new Set<Address>();
    while (this.#closedHead < this.#closed.length) {
      const o = this.#closed[this.#closedHead] as VenueOrder;
      if (o.updatedAt >= cutoff) break;
      this.#closedHead++;
      this.#byId.delete(o.id);
      gone.add(o.id);
      wallets.add(o.wallet);
      if (o.clientOrderId !== undefined) this.#wallets.get(o.wallet)?.byClientId.delete(o.clientOrderId);
    }
    for (const w of wallets) this.#wallets.get(w)?.history.removeIf((o) => gone.has(o.id));
    if (this.#closedHead > 1024 && this.#closedHead * 2 > this.#closed.length) {
      this.#closed = this.#closed.slice(this.#closedHead);
      this.#closedHead = 0;
    }
    return gone.size;
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

  #wallet(wallet: Address): WalletOrders {
    let w = this.#wallets.get(wallet);
    if (w === undefined) {
      w = {
        history: new KeysetList((o) => ({ createdAt: o.createdAt, id: o.id })),
        open: new Map(),
        byClientId: new Map(),
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
