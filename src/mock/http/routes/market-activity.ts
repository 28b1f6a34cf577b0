import type { TradeRecord } from "../../../venue/types.js";
import { weiToString } from "../../../venue/wire.js";
import { enumParam, limitParam, timeParam } from "../query.js";
import type { Route } from "../route.js";
import { iso, json } from "./format.js";
import { initialPrices } from "./market-record.js";
import { marketBySymbol, OUTCOMES, outcomeToken } from "./markets.js";
import type { RouteDeps } from "./shared.js";

/** OHLC bar intervals (the spec names `s5`; the rest are this mock's choice). */
export const OHLC_INTERVALS = ["s5", "m1", "m5", "m15", "h1", "h4", "d1"] as const;
const INTERVAL_MS: Record<(typeof OHLC_INTERVALS)[number], number> = {
  s5: 5_000,
  m1: 60_000,
  m5: 300_000,
  m15: 900_000,
  h1: 3_600_000,
  h4: 14_400_000,
  d1: 86_400_000,
};
/** How far back the market sub-resources look, in trades per token. */
const TRADE_WINDOW = 1_000;

/**
 * Public trade reads of a market, keyed by symbol (parameters and bodies not shown in the spec):
 * GET /api/markets/{symbol}/trades (both outcomes newest first, or `outcome`), /price-history
 * (`{time, price}` points under `history`, the opening price first) and the deprecated /ohlc
 * (`interval` enum, default s5).
 */
export function marketActivityRoutes(deps: RouteDeps): Route[] {
  const { ctx } = deps;
  const tradesOf = (tokenId: string) => ctx.venue.recentTrades(tokenId, TRADE_WINDOW);
  return [
    {
      method: "GET",
      pattern: "/api/markets/{symbol}/trades",
      auth: "public",
      scopes: ["markets:read"],
      handler: (rc) => {
        const m = marketBySymbol(deps, rc.params.symbol);
        const only = enumParam(rc.query, "outcome", OUTCOMES);
        const limit = limitParam(rc.query, { def: 100, max: 500 });
        const tokens =
          only === undefined ? [m.yesTokenId, m.noTokenId] : [only === "YES" ? m.yesTokenId : m.noTokenId];
        const trades = tokens
          .flatMap((t) => ctx.venue.recentTrades(t, limit))
          .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
          .slice(0, limit)
          .map((t) => ({
            id: t.id,
            marketId: t.marketId,
            tokenId: t.tokenId,
            outcome: t.outcome,
            side: t.takerSide,
            price: weiToString(t.price),
            quantity: weiToString(t.quantity),
            createdAt: iso(t.createdAt),
          }));
        return json({ symbol: m.symbol, trades });
      },
    },
    {
      method: "GET",
      pattern: "/api/markets/{symbol}/price-history",
      auth: "public",
      scopes: ["markets:read"],
      handler: (rc) => {
        const m = marketBySymbol(deps, rc.params.symbol);
        const { outcome, tokenId, index } = outcomeToken(m, rc);
        const from = timeParam(rc.query, "from");
        const to = timeParam(rc.query, "to");
        const limit = limitParam(rc.query, { def: 500, max: TRADE_WINDOW });
        const opening = { at: deps.markets.startedAt, price: initialPrices(m)[index === 0 ? 0 : 1] };
        const points = [
          opening,
          ...[...tradesOf(tokenId)].reverse().map((t) => ({ at: t.createdAt, price: weiToString(t.price) })),
        ]
          .filter((p) => (from === undefined || p.at >= from) && (to === undefined || p.at < to))
          .slice(-limit)
          .map((p) => ({ time: iso(p.at), price: p.price }));
        return json({ symbol: m.symbol, tokenId, outcome, history: points });
      },
    },
    {
      method: "GET",
      pattern: "/api/markets/{symbol}/ohlc",
      auth: "public",
      scopes: ["markets:read"],
      handler: (rc) => {
        const m = marketBySymbol(deps, rc.params.symbol);
        const interval = enumParam(rc.query, "interval", OHLC_INTERVALS) ?? "s5";
        const { outcome, tokenId } = outcomeToken(m, rc);
        const limit = limitParam(rc.query, { def: 100, max: TRADE_WINDOW });
        const bars = ohlcBars([...tradesOf(tokenId)].reverse(), INTERVAL_MS[interval]).slice(-limit);
        return json({ symbol: m.symbol, tokenId, outcome, interval, bars });
      },
    },
  ];
}

/** Bars of `intervalMs` over trades given oldest first (empty buckets are left out). */
function ohlcBars(trades: readonly TradeRecord[], intervalMs: number): Record<string, string>[] {
  const bars: { start: number; open: bigint; high: bigint; low: bigint; close: bigint; volume: bigint }[] =
    [];
  for (const t of trades) {
    const start = t.createdAt - (t.createdAt % intervalMs);
    const bar = bars[bars.length - 1];
    if (bar !== undefined && bar.start === start) {
      if (t.price > bar.high) bar.high = t.price;
      if (t.price < bar.low) bar.low = t.price;
      bar.close = t.price;
      bar.volume += t.quantity;
    } else {
      bars.push({ start, open: t.price, high: t.price, low: t.price, close: t.price, volume: t.quantity });
    }
  }
  return bars.map((b) => ({
    time: iso(b.start),
    open: weiToString(b.open),
    high: weiToString(b.high),
    low: weiToString(b.low),
    close: weiToString(b.close),
    volume: weiToString(b.volume),
  }));
}
