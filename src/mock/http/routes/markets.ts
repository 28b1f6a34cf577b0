import { MARKET_STATUSES } from "../../../core/types.js";
import { wireLevels } from "../../../venue/wire.js";
import type { MarketScenario } from "../../scenario/types.js";
import { HttpProblem } from "../problem.js";
import { enumParam, intParam, limitParam, textParam } from "../query.js";
import type { RequestContext, Route } from "../route.js";
import { iso, json } from "./format.js";
import type { RouteDeps } from "./shared.js";

/** The outcomes of every scenario market, in index order (the `outcome` query enum). */
export const OUTCOMES = ["YES", "NO"] as const;

/** A market by symbol (sub-resources are keyed by symbol); 404 `market_not_found` otherwise. */
export function marketBySymbol(deps: RouteDeps, symbol: string | undefined): MarketScenario {
  const m = symbol === undefined ? undefined : deps.ctx.markets.bySymbol(symbol);
  if (m === undefined) throw notFound(symbol ?? "");
  return m;
}

/** The token of `?outcome=` (YES when absent); 400 `bad_request` for another value. */
export function outcomeToken(
  m: MarketScenario,
  rc: RequestContext,
): { outcome: string; tokenId: string; index: number } {
  const outcome = enumParam(rc.query, "outcome", OUTCOMES) ?? "YES";
  return outcome === "YES"
    ? { outcome, tokenId: m.yesTokenId, index: 0 }
    : { outcome, tokenId: m.noTokenId, index: 1 };
}

function notFound(ref: string): HttpProblem {
  return new HttpProblem(404, "market_not_found", `no market ${ref.slice(0, 80)}`, {
    market: ref.slice(0, 80),
  });
}

/**
 * GET /api/markets (filters `status` — enum —, `eventId`, `limit`), GET /api/markets/{slug} (the
 * root detail is keyed by slug since 2026-05-16) and GET /api/markets/{symbol}/orderbook
 * (`outcome` YES|NO, `depth` up to 100). Public: a key is checked when sent, and one without
 * markets:read reads as no key (publicReader in server.ts).
 */
export function marketRoutes(deps: RouteDeps): Route[] {
  const { ctx } = deps;
  return [
    {
      method: "GET",
      pattern: "/api/markets",
      auth: "public",
      scopes: ["markets:read"],
      handler: (rc) => {
        const status = enumParam(rc.query, "status", MARKET_STATUSES);
        const eventId = textParam(rc.query, "eventId");
        const limit = limitParam(rc.query, { def: 100, max: 500 });
        const markets = ctx.markets.all
          .filter((m) => eventId === undefined || m.eventId === eventId)
          .filter((m) => status === undefined || deps.markets.status(m) === status)
          .slice(0, limit)
          .map((m) => deps.markets.record(m));
        return json({ markets });
      },
    },
    {
      method: "GET",
      pattern: "/api/markets/{slug}",
      auth: "public",
      scopes: ["markets:read"],
      handler: (rc) => {
        const slug = rc.params.slug ?? "";
        const m = ctx.markets.bySlug(slug);
        if (m === undefined) throw notFound(slug);
        return json(deps.markets.record(m));
      },
    },
    {
      method: "GET",
      pattern: "/api/markets/{symbol}/orderbook",
      auth: "public",
      scopes: ["markets:read"],
      handler: (rc) => {
        const m = marketBySymbol(deps, rc.params.symbol);
        const { outcome, tokenId, index } = outcomeToken(m, rc);
        const depth = intParam(rc.query, "depth", { def: 100, min: 1, max: 100 });
        const book = ctx.venue.bookSnapshot(tokenId, depth);
        if (book === undefined) throw new Error(`venue has no book for scenario token ${tokenId}`);
        return json({
          marketId: m.id,
          symbol: m.symbol,
          conditionId: m.conditionId,
          tokenId,
          outcome,
          outcomeIndex: index,
          bids: wireLevels(book.bids),
          asks: wireLevels(book.asks),
          // The seq the /ws/market token_book feed gives this book now (see BookSeqOffsets).
          seq: ctx.bookSeq.seqOf(tokenId, book.seq),
          timestamp: iso(book.tsMs),
        });
      },
    },
  ];
}
