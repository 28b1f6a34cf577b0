import type { Address } from "../../../core/types.js";
import type { Keyset, WalletTradeRow } from "../../../venue/types.js";
import { weiToString } from "../../../venue/wire.js";
import type { MockContext } from "../../context.js";
import { enumParam, limitParam, textParam, timeParam } from "../query.js";
import type { RequestContext, Route } from "../route.js";
import { json } from "./format.js";
import { actingWallet, type RouteDeps } from "./shared.js";
import { settledAt, wireFee, wireTrade } from "./trade-rows.js";

/** Every trade row of a wallet, newest first (paged through the venue so no page is unbounded). */
export function allTradeRows(ctx: MockContext, wallet: Address, from?: number): WalletTradeRow[] {
  const out: WalletTradeRow[] = [];
  let after: Keyset | undefined;
  for (;;) {
    const page = ctx.venue.walletTrades(wallet, {
      limit: 1_000,
      ...(after === undefined ? {} : { after }),
      ...(from === undefined ? {} : { from }),
    });
    out.push(...page.items);
    if (page.next === undefined) return out;
    after = page.next;
  }
}

/**
 * The acting wallet's trades and fees: GET /api/me/trades and /api/me/fees (portfolio:read; query
 * marketId, from, to, limit 1..200 default 100, cursor; fees also `role` maker|taker) and
 * GET /api/orders/fees-summary (orders:read, as its rate-limit row suggests; settled fees summed
 * per role and asset). Fees show once settled (see trade-rows.ts).
 */
export function meTradeRoutes(deps: RouteDeps): Route[] {
  const { ctx } = deps;
  const page = (rc: RequestContext, list: string, role?: "maker" | "taker") => {
    const wallet = actingWallet(rc).address;
    const marketId = textParam(rc.query, "marketId");
    const from = timeParam(rc.query, "from");
    const to = timeParam(rc.query, "to");
    const limit = limitParam(rc.query, { def: 100, max: 200 });
    const after = deps.cursors.decode(list, wallet, rc.query.get("cursor"));
    const p = ctx.venue.walletTrades(wallet, {
      limit,
      ...(marketId === undefined ? {} : { marketId }),
      ...(role === undefined ? {} : { role }),
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      ...(after === undefined ? {} : { after }),
    });
    const nextCursor = p.next === undefined ? null : deps.cursors.encode(list, wallet, p.next);
    return { wallet, items: p.items, nextCursor };
  };
  return [
    {
      method: "GET",
      pattern: "/api/me/trades",
      auth: "key",
      scopes: ["portfolio:read"],
      handler: (rc) => {
        const p = page(rc, "trades");
        return json({
          walletAddress: p.wallet,
          trades: p.items.map((r) => wireTrade(ctx, r)),
          nextCursor: p.nextCursor,
        });
      },
    },
    {
      method: "GET",
      pattern: "/api/me/fees",
      auth: "key",
      scopes: ["portfolio:read"],
      handler: (rc) => {
        const role = enumParam(rc.query, "role", ["maker", "taker"] as const);
        const p = page(rc, "fees", role);
        return json({
          walletAddress: p.wallet,
          fees: p.items.map((r) => wireFee(ctx, r)),
          nextCursor: p.nextCursor,
        });
      },
    },
    {
      method: "GET",
      pattern: "/api/orders/fees-summary",
      auth: "key",
      scopes: ["orders:read"],
      handler: (rc) => {
        const wallet = actingWallet(rc).address;
        const rows = allTradeRows(ctx, wallet);
        const now = ctx.clock.now();
        const sums = { maker: { usdc: 0n, shares: 0n }, taker: { usdc: 0n, shares: 0n } };
        let settled = 0;
        for (const r of rows) {
          if (now < settledAt(ctx, r)) continue;
          settled++;
          sums[r.role][r.fee.asset] += r.fee.amount;
        }
        const fmt = (s: { usdc: bigint; shares: bigint }) => ({
          usdc: weiToString(s.usdc),
          shares: weiToString(s.shares),
        });
        return json({
          walletAddress: wallet,
          trades: rows.length,
          settledTrades: settled,
          maker: fmt(sums.maker),
          taker: fmt(sums.taker),
          total: fmt({
            usdc: sums.maker.usdc + sums.taker.usdc,
            shares: sums.maker.shares + sums.taker.shares,
          }),
        });
      },
    },
  ];
}
