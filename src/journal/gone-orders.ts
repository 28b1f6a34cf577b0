import type { Order } from "../exchange/types.js";
import { localStateOfRemote } from "../execution/order-state.js";
import { lookupOrder, NOT_FOUND } from "../execution/reconcile-ghosts.js";
import type { JournalWriter } from "./writer.js";

/** The exchange reads the check makes (ExchangePort has both). */
export interface OrderReads {
  /** GET /api/orders/open: every open order of the wallet (all pages). */
  openOrders(): Promise<Order[]>;
  /** GET /api/orders/{id}; rejects with ExchangeError `order_not_found` when there is none. */
  order(orderId: string): Promise<Order>;
}

/** An order an earlier run left that the exchange no longer holds open. */
export interface GoneOrder {
  readonly orderId: string;
  readonly clientOrderId: string;
  /** Known when the exchange's record was read. */
  readonly marketId: string | undefined;
  /** The exchange's final status (FILLED, CANCELLED, EXPIRED, REJECTED, SETTLEMENT_FAILED…) or NOT_FOUND_STATUS. */
  readonly status: string;
}

/** What one check found among the orders earlier runs may have left resting. */
export interface GoneCheck {
  /** Not open any more, with the status the exchange gives: to be journaled closed. */
  readonly gone: readonly GoneOrder[];
  /** Still in the open list (adopted by this run, or a cancel of it still in flight). */
  readonly open: number;
  /**
   * Not in the open list, but their status was not read (a failed read, the read cap reached) or
   * reads as still open: left as they are, for the next start to look at again.
   */
  readonly undecided: number;
}

/** The status journaled for an order GET /api/orders/{id} answers 404 `order_not_found` for. */
export const NOT_FOUND_STATUS = NOT_FOUND;

/**
 * At most this many orders are read one by one per check (GET /api/orders/{id}, sequentially): a
 * sixth of the wallet's 600 order reads a minute, so the engine's own reconciles keep their budget.
 * The rest wait for the next start (a journal that gathered many before this check existed drains
 * over a few starts).
 */
export const GONE_READS_MAX = 100;

/**
 * Finds which of `restored` (exchange orderId → clientOrderId: the orders earlier runs may have left
 * resting, JournalRestore.orders) the exchange no longer holds open, and their final status. An
 * order in GET /api/orders/open is left alone (this run adopted it, or is cancelling it). Each other
 * one is read (GET /api/orders/{id}), oldest first, at most `maxReads`: a terminal status, or a 404
 * (the exchange has no such order any more: forgotten, or never kept), makes it gone. A status that
 * still reads as open (PENDING/OPEN/PARTIAL, against the list just read) or a failed read leaves it
 * undecided; after the first failed read none more is tried (the exchange is struggling: its retries
 * would only stretch the check out), and none once `stopped` says the caller stopped. A failing
 * open-orders read rejects.
 * @example const { gone } = await findGoneOrders(exchange, restore.orders);
 */
export async function findGoneOrders(
  source: OrderReads,
  restored: ReadonlyMap<string, string>,
  opts: {
    readonly maxReads?: number;
    readonly onReadError?: (orderId: string, err: unknown) => void;
    /** True once the caller has stopped (the run closing): no further order is read. */
    readonly stopped?: () => boolean;
  } = {},
): Promise<GoneCheck> {
  if (restored.size === 0) return { gone: [], open: 0, undecided: 0 };
  const listed = new Set((await source.openOrders()).map((o) => o.id));
  const gone: GoneOrder[] = [];
  let open = 0;
  let undecided = 0;
  let reads = opts.maxReads ?? GONE_READS_MAX;
  for (const [orderId, clientOrderId] of restored) {
    if (listed.has(orderId)) {
      open++;
      continue;
    }
    // A stopped run could not journal the answers: reading on would only spend the wallet's order reads.
    if (reads <= 0 || opts.stopped?.() === true) {
      undecided++;
      continue;
    }
    reads--;
    const found = await lookupOrder(source, orderId).catch((err: unknown) => {
      opts.onReadError?.(orderId, err);
      reads = 0;
      return undefined;
    });
    if (found === NOT_FOUND_STATUS) {
      gone.push({ orderId, clientOrderId, marketId: undefined, status: NOT_FOUND_STATUS });
    } else if (found !== undefined && found.id === orderId && localStateOfRemote(found.status) !== "open") {
      gone.push({ orderId, clientOrderId, marketId: found.marketId, status: found.status });
    } else {
      undecided++;
    }
  }
  return { gone, open, undecided };
}

/**
 * Journals each gone order closed, in one transaction: a `cancel` row with outcome CLOSED_OUTCOME
 * under its clientOrderId and orderId, the exchange's status as its code, in run `run` (the run that
 * found it) at `atMs` (none for an order a cancel row already ends: JournalWriter.closed). That ends the placement's MAY_REST, so no later start restores it, and
 * retention may delete it and its intent once they are old enough; fills are not touched, so
 * `mm report` counts each journaled fill of the order once, as before.
 * @example journalGoneOrders(writer, run, check.gone, clock.now());
 */
export function journalGoneOrders(
  writer: JournalWriter,
  run: number,
  gone: readonly GoneOrder[],
  atMs: number,
): void {
  if (gone.length === 0) return;
  writer.batch(() => {
    for (const g of gone) {
      writer.closed(run, {
        clientOrderId: g.clientOrderId,
        marketId: g.marketId,
        orderId: g.orderId,
        code: g.status,
        atMs,
      });
    }
  });
}
