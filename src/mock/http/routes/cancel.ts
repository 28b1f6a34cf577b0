import { HttpProblem } from "../problem.js";
import type { Route } from "../route.js";
import { json } from "./format.js";
import { actingWallet, type RouteDeps } from "./shared.js";

const CANCEL_STATUS = { order_not_found: 404, not_cancellable: 409, forbidden: 403 } as const;

function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpProblem(400, "bad_request", "the body must be a JSON object", { field: "body" });
  }
  return body as Record<string, unknown>;
}

/**
 * POST /api/orders/cancel (body `{orderId}`; answers `{orderId, status}`: 404 `order_not_found`,
 * 409 `not_cancellable` when already terminal, 403 `forbidden` for another wallet's order) and
 * POST /api/orders/cancel-all (optional `marketId`; answers `{cancelled, marketId?}`).
 * Both need orders:write and a KYC-cleared wallet.
 */
export function cancelRoutes(deps: RouteDeps): Route[] {
  const { ctx } = deps;
  return [
    {
      method: "POST",
      pattern: "/api/orders/cancel",
      auth: "key",
      scopes: ["orders:write"],
      write: true,
      handler: (rc) => {
        const wallet = actingWallet(rc);
        const orderId = bodyObject(rc.body).orderId;
        if (typeof orderId !== "string" || orderId === "") {
          throw new HttpProblem(400, "bad_request", "orderId must be a non-empty string", {
            field: "orderId",
          });
        }
        const result = ctx.venue.cancel(wallet.address, orderId);
        if (!result.ok) {
          throw new HttpProblem(CANCEL_STATUS[result.code], result.code, result.message, {
            ...result.details,
          });
        }
        return json({ orderId: result.order.id, status: result.order.status });
      },
    },
    {
      method: "POST",
      pattern: "/api/orders/cancel-all",
      auth: "key",
      scopes: ["orders:write"],
      write: true,
      handler: (rc) => {
        const wallet = actingWallet(rc);
        const marketId = bodyObject(rc.body).marketId;
        if (
          marketId !== undefined &&
          marketId !== null &&
          (typeof marketId !== "string" || marketId === "")
        ) {
          throw new HttpProblem(400, "bad_request", "marketId must be a non-empty string", {
            field: "marketId",
          });
        }
        return json(ctx.venue.cancelAll(wallet.address, typeof marketId === "string" ? marketId : undefined));
      },
    },
  ];
}
