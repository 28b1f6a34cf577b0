import type { Order } from "../exchange/types.js";
import type { ReconcileSource } from "../execution/reconcile-run.js";

/**
 * The exchange as the start-up reconcile reads it after a restore: an open order an earlier run
 * placed (`orders`: exchange orderId → clientOrderId, from the journal) whose record lacks its
 * clientOrderId gets it back, so the reconcile treats it as ours from an earlier run: adopted under
 * its own id and level (policy `adopt`), or cancelled and counted as recognised (`cancel`).
 * @example const source = recognising(exchange, restore.orders);
 */
export function recognising(source: ReconcileSource, orders: ReadonlyMap<string, string>): ReconcileSource {
  if (orders.size === 0) return source;
  return {
    openOrders: async () => (await source.openOrders()).map((o) => withClientOrderId(o, orders)),
    order: async (id) => withClientOrderId(await source.order(id), orders),
    ordersByClientId: (ids, window, resume) => source.ordersByClientId(ids, window, resume),
    trades: (opts) => source.trades(opts),
  };
}

/** How many of `found` are orders an earlier run left (by orderId or clientOrderId). */
export function recognisedCount(found: readonly Order[], orders: ReadonlyMap<string, string>): number {
  if (orders.size === 0) return 0;
  const ids = new Set(orders.values());
  let n = 0;
  for (const o of found) {
    if (orders.has(o.id) || (o.clientOrderId !== undefined && ids.has(o.clientOrderId))) n++;
  }
  return n;
}

function withClientOrderId(o: Order, orders: ReadonlyMap<string, string>): Order {
  if (o.clientOrderId !== undefined) return o;
  const clientOrderId = orders.get(o.id);
  return clientOrderId === undefined ? o : { ...o, clientOrderId };
}
