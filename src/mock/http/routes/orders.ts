import { ORDER_STATUSES } from "../../../core/types.js";
import { wireOrder } from "../../../venue/wire.js";
import { HttpProblem } from "../problem.js";
import { enumParam, limitParam, textParam, timeParam } from "../query.js";
import type { Route } from "../route.js";
import { json } from "./format.js";
import { actingWallet, type RouteDeps } from "./shared.js";
import { wireTrade } from "./trade-rows.js";

function orderNotFound(id: string): HttpProblem {
  return new HttpProblem(404, "order_not_found", `no order ${id.slice(0, 80)} for this wallet`, {
    orderId: id.slice(0, 80),
  });
}

/**
 * Order reads (orders:read): GET /api/orders/open (a bare array of Order records, optional
 * `marketId`), /api/orders/history (filters marketId, status — enum, PARTIAL = open with a fill —,
 * from inclusive, to exclusive, limit 1..200 default 100, opaque keyset cursor), /api/orders/{id}
 * and /api/orders/{id}/fills (`{orderId, fills}`; 404 `order_not_found`, also for another wallet's
 * order: reads never reveal that an id exists).
 */
export function orderReadRoutes(deps: RouteDeps): Route[] {
  const { ctx } = deps;
  return [
    {
      method: "GET",
      pattern: "/api/orders/open",
      auth: "key",
      scopes: ["orders:read"],
      handler: (rc) => {
        const wallet = actingWallet(rc);
        return json(ctx.venue.openOrders(wallet.address, textParam(rc.query, "marketId")).map(wireOrder));
      },
    },
    {
      method: "GET",
      pattern: "/api/orders/history",
      auth: "key",
      scopes: ["orders:read"],
      handler: (rc) => {
        const wallet = actingWallet(rc);
        const status = enumParam(rc.query, "status", ORDER_STATUSES);
        const from = timeParam(rc.query, "from");
        const to = timeParam(rc.query, "to");
        const limit = limitParam(rc.query, { def: 100, max: 200 });
        const after = deps.cursors.decode("orders", wallet.address, rc.query.get("cursor"));
        const marketId = textParam(rc.query, "marketId");
        const page = ctx.venue.orderHistory(wallet.address, {
          limit,
          ...(marketId === undefined ? {} : { marketId }),
          ...(status === undefined ? {} : { status }),
          ...(from === undefined ? {} : { from }),
          ...(to === undefined ? {} : { to }),
          ...(after === undefined ? {} : { after }),
        });
        return json({
          walletAddress: wallet.address,
          orders: page.items.map(wireOrder),
          nextCursor:
            page.next === undefined ? null : deps.cursors.encode("orders", wallet.address, page.next),
        });
      },
    },
    {
      method: "GET",
      pattern: "/api/orders/{id}",
      auth: "key",
      scopes: ["orders:read"],
      handler: (rc) => {
        const id = rc.params.id ?? "";
        const order = ctx.venue.order(actingWallet(rc).address, id);
        if (order === undefined) throw orderNotFound(id);
        return json(wireOrder(order));
      },
    },
    {
      method: "GET",
      pattern: "/api/orders/{id}/fills",
      auth: "key",
      scopes: ["orders:read"],
      handler: (rc) => {
        const id = rc.params.id ?? "";
        const rows = ctx.venue.orderFills(actingWallet(rc).address, id);
        if (rows === undefined) throw orderNotFound(id);
        return json({ orderId: id, fills: rows.map((r) => wireTrade(ctx, r)) });
      },
    },
  ];
}
