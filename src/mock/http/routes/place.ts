import { toWei } from "../../../core/wei.js";
import { placeRejectStatus } from "../../../venue/reject-status.js";
import type { PlacementResult } from "../../../venue/types.js";
import { weiToString, wirePlacement } from "../../../venue/wire.js";
import { refuseWhileFrozen, takeHangingPlacement } from "../../faults/placement-gate.js";
import type { Route, RouteResult } from "../route.js";
import { NO_ANSWER } from "../server.js";
import { parsePlacementBody, placementProblem } from "./place-body.js";
import { canonicalOrder, checkOrderSignature } from "./place-signature.js";
import { actingWallet, type RouteDeps } from "./shared.js";

/**
 * POST /api/orders/place (orders:write, KYC-cleared wallet). In order: platform freeze (503),
 * body shape, market and outcome, maker = wallet or its vault (`maker_mismatch`), the canonical
 * struct and its signature (`bad_signature`, `order_signed_with_floor_notional`), then the venue
 * (clientOrderId dedup, `invalid_tif`, `invalid_amounts`, `expired`, `market_not_open`,
 * `insufficient_funds`, `matcher_error`). An injected hang places the order and never answers.
 */
export function placeRoute(deps: RouteDeps): Route {
  const { ctx } = deps;
  return {
    method: "POST",
    pattern: "/api/orders/place",
    auth: "key",
    scopes: ["orders:write"],
    write: true,
    envelope: "placement",
    handler: async (rc) => {
      refuseWhileFrozen(ctx);
      const wallet = actingWallet(rc);
      const body = parsePlacementBody(rc.body);
      const market = ctx.markets.byId(body.marketId);
      const view = ctx.venue.market(body.marketId);
      if (market === undefined || view === undefined) {
        throw placementProblem(
          409,
          "market_not_open",
          `market ${body.marketId.slice(0, 80)} does not exist`,
          {
            marketId: body.marketId.slice(0, 80),
            reason: "unknown_market",
          },
        );
      }
      const wanted = body.outcome.trim().toLowerCase();
      const byLabel = view.outcomes.findIndex((o) => o.label.toLowerCase() === wanted);
      const outcome = view.outcomes[byLabel >= 0 ? byLabel : /^\d{1,3}$/.test(wanted) ? Number(wanted) : -1];
      if (outcome === undefined) {
        throw placementProblem(
          400,
          "invalid_outcome",
          `outcome ${body.outcome.slice(0, 40)} is not one of the market's`,
          {
            outcome: body.outcome.slice(0, 40),
            outcomes: view.outcomes.map((o) => o.label),
          },
        );
      }
      if (body.maker !== wallet.address && body.maker !== wallet.vault) {
        throw placementProblem(400, "maker_mismatch", "maker is neither the request's wallet nor its vault", {
          maker: body.maker,
          wallet: wallet.address,
          vault: wallet.vault,
        });
      }
      const order = canonicalOrder(deps, body, market, outcome, wallet.address);
      await checkOrderSignature(deps, order, body.signature, wallet.address);
      const result = ctx.venue.place({
        wallet: wallet.address,
        marketId: market.id,
        outcome: outcome.label,
        side: body.side,
        price: toWei(order.price, "price"),
        quantity: toWei(order.quantity, "quantity"),
        expiry: body.expiry,
        ...(body.type === undefined ? {} : { type: body.type }),
        ...(body.timeInForce === undefined ? {} : { timeInForce: body.timeInForce }),
        ...(body.clientOrderId === undefined ? {} : { clientOrderId: body.clientOrderId }),
      });
      if (takeHangingPlacement(ctx)) return NO_ANSWER;
      return placementAnswer(result);
    },
  };
}

/** Venue detail fields that carry micro-units; the API speaks human decimal strings. */
const MICRO_FIELDS = new Set(["required", "available", "executable", "price", "tick", "quantity", "minSize"]);

function placementAnswer(result: PlacementResult): RouteResult {
  const body = wirePlacement(result);
  if (result.status !== "REJECTED") return { status: 201, body };
  const details: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(result.details ?? {})) {
    details[k] = MICRO_FIELDS.has(k) && typeof v === "string" && /^\d+$/.test(v) ? weiToString(BigInt(v)) : v;
  }
  return {
    status: placeRejectStatus(result.code),
    body: Object.keys(details).length > 0 ? { ...body, details } : body,
  };
}
