import { OrderBook } from "../../../src/book/order-book.js";
import type { TokenMarket } from "../../../src/core/trading.js";
import type { StrategyContext } from "../../../strategies/types.js";

export const M = 1_000_000n;
export const NOW = 1_700_000_000_000;

/** Shares → micro-units. */
export const shares = (n: number): bigint => BigInt(Math.round(n * 1_000_000));

/** A price as a micro-unit number, rounded to the micro (test inputs only). */
export const px = (p: number): number => Math.round(p * 1_000_000);

export function market(over: Partial<TokenMarket> = {}): TokenMarket {
  return {
    tokenId: "101",
    marketId: "m1",
    conditionId: "0xc0",
    outcome: "YES",
    outcomeIndex: 0,
    tickMicro: 10_000,
    minSizeMicro: 1n * M,
    feeTakerBps: null,
    negRisk: false,
    closesAtMs: NOW + 3_600_000,
    status: "OPEN",
    ...over,
  };
}

/** A book from [price, shares] pairs. */
export function book(bids: [number, number][], asks: [number, number][]): OrderBook {
  const b = new OrderBook("101");
  for (const [p, s] of bids) b.apply("bid", px(p), shares(s));
  for (const [p, s] of asks) b.apply("ask", px(p), shares(s));
  return b;
}

/** A quotable context around `b`; override anything. */
export function context(b: OrderBook, over: Partial<StrategyContext> = {}): StrategyContext {
  return {
    market: market(),
    book: b,
    bookState: "synced",
    quotable: true,
    inventory: 0n,
    openQuotes: [],
    nowMs: NOW,
    volatility: undefined,
    ...over,
  };
}

/** Quotes as compact tuples for table assertions: [side, level, price, shares]. */
export function compact(qs: { side: string; level: number; priceMicro: number; sizeMicro: bigint }[]) {
  return qs.map((q) => [q.side, q.level, q.priceMicro / 1_000_000, Number(q.sizeMicro) / 1_000_000]);
}

/** The error code thrown by `fn`, or undefined. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

/** Issue lines `field: message` of a StrategyParamsError thrown by `fn`. */
export function issuesOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    const issues = (err as { issues?: { field: string; message: string }[] }).issues ?? [];
    return issues.map((i) => `${i.field}: ${i.message}`);
  }
  return [];
}
