import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SimClock } from "../../../../src/core/sim-clock.js";
import type { MockContext } from "../../../../src/mock/context.js";
import { type FlowHandle, startFlow } from "../../../../src/mock/flow/start-flow.js";
import { type HttpListener, listenHttp } from "../../../../src/mock/http/listen.js";
import { MM_WALLET, scenario, simContext } from "../../../unit/mock/sim-support.js";
import { standInRoutes } from "../faults/stand-in-routes.js";

const KEY = "mm_test_ba9533dcb8d806b6_ZS2A_RVQIyZo0QcwFbjXI0VP1uldYHzRqIwwTzj40RU";

interface WireBook {
  bids: { price: string; size: string }[];
  asks: { price: string; size: string }[];
  seq: number;
}

let ctx: MockContext;
let clock: SimClock;
let flow: FlowHandle;
let http: HttpListener;

beforeEach(async () => {
  ({ ctx, clock } = simContext());
  flow = startFlow(ctx);
  http = await listenHttp(ctx, standInRoutes(ctx));
});

afterEach(async () => {
  flow.stop();
  await http.close();
});

async function book(symbol: string, outcome: "YES" | "NO"): Promise<WireBook> {
  const res = await fetch(`${http.url}/api/markets/${symbol}/orderbook?outcome=${outcome}`);
  expect(res.status).toBe(200);
  return (await res.json()) as WireBook;
}

async function place(body: Record<string, string>): Promise<{ orderId: string; status: string }> {
  const res = await fetch(`${http.url}/api/orders/place`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Api-Key": KEY },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { orderId: string; status: string };
}

async function order(id: string): Promise<{ status: string; filledQty: string }> {
  const res = await fetch(`${http.url}/api/orders/${id}`, { headers: { "X-Api-Key": KEY } });
  expect(res.status).toBe(200);
  return (await res.json()) as { status: string; filledQty: string };
}

describe("flow simulator seen over HTTP", () => {
  it("after a simulated minute every open book has both sides around fair value, and takers traded", async () => {
    clock.advanceBy(60_000);
    const open = ctx.markets.all.filter((m) => m.status === "OPEN");
    expect(open.length).toBeGreaterThan(5);
    for (const m of open) {
      const fairYes = flow.fairValue(m.id) ?? Number.NaN;
      const tick = Number(m.tickSize);
      for (const [outcome, fair] of [
        ["YES", fairYes],
        ["NO", 1 - fairYes],
      ] as const) {
        const b = await book(m.symbol, outcome);
        const bid = Number(b.bids[0]?.price);
        const ask = Number(b.asks[0]?.price);
        expect(b.bids.length).toBeGreaterThan(0);
        expect(b.asks.length).toBeGreaterThan(0);
        expect(bid).toBeLessThan(fair);
        expect(ask).toBeGreaterThan(fair);
        // The inside is spreadTicks (+ rounding) from fair value on each side.
        const reach = (ctx.scenario.flow.spreadTicks + 1) * tick + 1e-9;
        expect(fair - bid).toBeLessThanOrEqual(reach);
        expect(ask - fair).toBeLessThanOrEqual(reach);
        expect(b.seq).toBeGreaterThan(0);
      }
    }
    const s = flow.stats();
    expect(s.takerTrades).toBeGreaterThan(0);
    expect(s.errors).toBe(0);
    const trades = ctx.markets.all.flatMap((m) => ctx.venue.recentTrades(m.yesTokenId, 1_000));
    expect(trades.length).toBeGreaterThan(0);
  });

  async function quoteAtTouch(symbols: readonly string[]): Promise<{ key: string; orderId: string }[]> {
    const out: { key: string; orderId: string }[] = [];
    for (const symbol of symbols) {
      const m = ctx.markets.bySymbol(symbol);
      if (m === undefined) throw new Error(`no ${symbol}`);
      const b = await book(symbol, "YES");
      for (const side of ["buy", "sell"] as const) {
        const price = side === "buy" ? b.bids[0]?.price : b.asks[0]?.price;
        if (price === undefined) throw new Error("empty book");
        const placed = await place({
          marketId: m.id,
          outcome: "YES",
          side,
          price,
          quantity: "10",
          clientOrderId: `paper-${symbol}-${side}`,
        });
        expect(placed.status).toBe("OPEN");
        out.push({ key: `${symbol} ${side} @ ${price}`, orderId: placed.orderId });
      }
    }
    return out;
  }

  /** Advances the clock a second at a time, polling over HTTP every 5 s; returns seconds to FILLED. */
  async function secondsToFill(quotes: { key: string; orderId: string }[], maxSeconds: number) {
    const filled = new Map<string, number>();
    for (let s = 5; s <= maxSeconds && filled.size < quotes.length; s += 5) {
      clock.advanceBy(5_000);
      for (const q of quotes) {
        if (filled.has(q.key)) continue;
        const o = await order(q.orderId);
        if (o.status === "FILLED") {
          expect(o.filledQty).toBe("10");
          filled.set(q.key, s);
        }
      }
    }
    return filled;
  }

  it("fills quotes joined at the touch, bid and ask, on 0.01 and 0.001 ticks (fair value held still)", async () => {
    flow.stop();
    await http.close();
    ({ ctx, clock } = simContext(scenario({ flow: { volatilityPerStep: 0 } })));
    flow = startFlow(ctx);
    http = await listenHttp(ctx, standInRoutes(ctx));
    clock.advanceBy(5_000);
    const quotes = await quoteAtTouch(["ARG-WIN", "PENALTIES"]);
    const filled = await secondsToFill(quotes, 600);
    // Each joined the flow's level behind it in time; takers ate the level, then the quote.
    expect([...filled.keys()].sort()).toEqual(quotes.map((q) => q.key).sort());
    const fills = ctx.venue.walletTrades(MM_WALLET, { limit: 50 }).items;
    expect(fills.reduce((sum, f) => sum + f.quantity, 0n)).toBe(40_000_000n);
    expect(fills.every((f) => f.role === "maker")).toBe(true);
    console.log([...filled].map(([k, s]) => `${k}: filled within ${s} simulated s`).join("\n"));
  });

  it("fills most quotes at the touch while fair value walks (a quote the walk leaves behind may wait)", async () => {
    clock.advanceBy(5_000);
    const quotes = await quoteAtTouch(["ARG-WIN", "FRA-WIN", "OVER-2-5", "PENALTIES", "BOOT-MESSI"]);
    const filled = await secondsToFill(quotes, 300);
    expect(filled.size).toBeGreaterThanOrEqual(8);
    console.log(
      quotes
        .map((q) => `${q.key}: ${filled.has(q.key) ? `filled within ${filled.get(q.key)} s` : "open"}`)
        .join("\n"),
    );
  });
});
