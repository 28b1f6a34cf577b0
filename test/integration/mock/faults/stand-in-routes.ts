import { toWei } from "../../../../src/core/wei.js";
import type { MockContext } from "../../../../src/mock/context.js";
import { refuseWhileFrozen, takeHangingPlacement } from "../../../../src/mock/faults/placement-gate.js";
import { HttpProblem } from "../../../../src/mock/http/problem.js";
import type { RequestContext, Route } from "../../../../src/mock/http/route.js";
import { NO_ANSWER } from "../../../../src/mock/http/server.js";
import { weiToString, wireBookSnapshot, wireOrder, wirePlacement } from "../../../../src/venue/wire.js";

/**
 * The few API routes the fault and flow tests need, written small on purpose: these tests are
 * about the admin API, the fault state and the flow, so the placement here skips the EIP-712
 * signature (the real route in src/mock/http/routes checks it) but applies the same two
 * placement faults through placement-gate.ts and the same 409 for market_not_open. Everything
 * else (auth, rate limits, failNext, latency, envelopes) is the real server pipeline.
 */
export function standInRoutes(ctx: MockContext): Route[] {
  const wallet = (rc: RequestContext) => {
    if (rc.identity === undefined) throw new Error("key route without identity");
    return rc.identity.wallet.address;
  };
  return [
    {
      method: "GET",
      pattern: "/api/markets/{symbol}/orderbook",
      auth: "public",
      scopes: [],
      handler: (rc) => {
        const m = ctx.markets.bySymbol(rc.params.symbol ?? "");
        if (m === undefined) throw new HttpProblem(404, "not_found", "no market");
        const token = rc.query.get("outcome") === "NO" ? m.noTokenId : m.yesTokenId;
        const book = ctx.venue.bookSnapshot(token, 100);
        if (book === undefined) throw new HttpProblem(404, "not_found", "no book");
        return { status: 200, body: wireBookSnapshot(book) };
      },
    },
    {
      method: "POST",
      pattern: "/api/orders/place",
      auth: "key",
      scopes: ["orders:write"],
      write: true,
      envelope: "placement",
      handler: (rc) => {
        refuseWhileFrozen(ctx);
        const b = rc.body as Record<string, string>;
        const result = ctx.venue.place({
          wallet: wallet(rc),
          marketId: b.marketId ?? "",
          outcome: b.outcome ?? "",
          side: b.side === "sell" ? "sell" : "buy",
          price: toWei(b.price ?? "0"),
          quantity: toWei(b.quantity ?? "0"),
          ...(b.clientOrderId === undefined ? {} : { clientOrderId: b.clientOrderId }),
        });
        if (takeHangingPlacement(ctx)) return NO_ANSWER;
        if (result.code === "market_not_open") {
          throw new HttpProblem(409, "market_not_open", result.message ?? "", {}, "placement");
        }
        return { status: 201, body: wirePlacement(result) };
      },
    },
    {
      method: "POST",
      pattern: "/api/orders/cancel",
      auth: "key",
      scopes: ["orders:write"],
      write: true,
      handler: (rc) => {
        const r = ctx.venue.cancel(wallet(rc), String((rc.body as { orderId?: unknown }).orderId));
        if (!r.ok) throw new HttpProblem(r.code === "order_not_found" ? 404 : 409, r.code, r.message);
        return { status: 200, body: wireOrder(r.order) };
      },
    },
    {
      method: "GET",
      pattern: "/api/orders/{id}",
      auth: "key",
      scopes: ["orders:read"],
      handler: (rc) => {
        const o = ctx.venue.order(wallet(rc), rc.params.id ?? "");
        if (o === undefined) throw new HttpProblem(404, "order_not_found", "no such order");
        return { status: 200, body: wireOrder(o) };
      },
    },
    {
      method: "GET",
      pattern: "/api/me/balances",
      auth: "key",
      scopes: ["portfolio:read"],
      handler: (rc) => {
        const b = ctx.venue.balances(wallet(rc)).usdc;
        return { status: 200, body: { available: weiToString(b.available), total: weiToString(b.balance) } };
      },
    },
  ];
}
