import { describe, expect, it } from "vitest";
import { CROWD, Harness, T0 } from "./support/harness.js";

/**
 * A market's closesAt (the market list's close time, TokenMarket.closesAtMs) is a local gate: once the
 * injected clock reaches it, the market's quotes are cancelled and nothing more is placed there, whether
 * or not a lifecycle push or a 409 market_not_open ever says so. Markets without a closesAt are never
 * gated by time. The harness runs on a SimClock, as a backtest does.
 */

const CLOSE = T0 + 60_000;

/** The exchange closes the market at its closesAt without telling anyone (no lifecycle push). */
function closeSilently(h: Harness, marketId: string): void {
  h.engine.onMarketStatus = () => undefined;
  h.venue.setMarketStatus(marketId, "CLOSED");
}

function placesOn(h: Harness, tokenIds: readonly string[], fromMs: number): number {
  return h.eventsOf("place_sent").filter((e) => e.atMs >= fromMs && tokenIds.includes(e.tokenId)).length;
}

function closedLogs(h: Harness, marketId: string): number {
  return h.logs
    .records()
    .filter((r) => r.msg === "risk: market_not_open" && r.scope === "market" && r.marketId === marketId)
    .length;
}

async function quotingBoth(h: Harness): Promise<void> {
  for (const i of [1, 2]) h.crowdQuote(h.tokens(i)[0], "0.48", "0.52");
  await h.engine.start();
  await h.run();
  expect(h.botQuotes(h.tokens(1)[0])).toHaveLength(2);
  expect(h.botQuotes(h.tokens(2)[0])).toHaveLength(2);
}

describe("engine: a market past its closesAt is closed locally", () => {
  it("cancels its quotes at closesAt with no book change, places nothing there after, logs one market decision", async () => {
    const h = new Harness({ markets: 2, closesAt: (i) => (i === 1 ? CLOSE : undefined) });
    const [a] = h.tokens(1);
    const [b] = h.tokens(2);
    await quotingBoth(h);

    await h.run(CLOSE - h.clock.now());
    expect(h.botQuotes(a)).toHaveLength(2); // quoted up to its closesAt, not a millisecond less
    closeSilently(h, "m1");
    await h.run(1);
    expect(h.botQuotes(a)).toEqual([]);
    expect(closedLogs(h, "m1")).toBe(1);

    // Book changes on the closed market place nothing (before the fix: a refused placement each time).
    for (const bid of ["0.47", "0.46", "0.45"]) {
      h.crowdOrder(a, "buy", bid);
      await h.run(20_000);
    }
    expect(placesOn(h, h.tokens(1), CLOSE)).toBe(0);
    expect(h.eventsOf("place_outcome").filter((e) => e.code === "market_not_open")).toEqual([]);
    expect(closedLogs(h, "m1")).toBe(1);
    // The market without a closesAt is untouched.
    expect(h.botQuotes(b)).toHaveLength(2);
  });

  it("a market whose closesAt passed before start is never quoted; the others are", async () => {
    const h = new Harness({ markets: 2, closesAt: (i) => (i === 1 ? T0 - 1_000 : T0 + 86_400_000) });
    for (const i of [1, 2]) h.crowdQuote(h.tokens(i)[0], "0.48", "0.52");
    await h.engine.start();
    await h.run(5_000);
    expect(placesOn(h, h.tokens(1), T0)).toBe(0);
    expect(h.botQuotes(h.tokens(2)[0])).toHaveLength(2);
    expect(closedLogs(h, "m1")).toBe(1);
    expect(closedLogs(h, "m2")).toBe(0);
  });

  it("a push saying OPEN, or a refusal's cool-down ending, does not reopen a market past its closesAt", async () => {
    const h = new Harness({ markets: 2, closesAt: (i) => (i === 1 ? CLOSE : undefined) });
    const [a] = h.tokens(1);
    await quotingBoth(h);
    await h.run(CLOSE - h.clock.now() + 1_000);
    expect(h.botQuotes(a)).toEqual([]);
    h.engine.onMarketStatus("m1", "OPEN");
    h.crowdOrder(a, "buy", "0.47");
    await h.run(120_000);
    expect(placesOn(h, h.tokens(1), CLOSE)).toBe(0);
  });

  it("a market without a closesAt quotes on, hours later", async () => {
    const h = new Harness({ markets: 2, closesAt: () => undefined });
    await quotingBoth(h);
    await h.run(2 * 3_600_000);
    const [a] = h.tokens(1);
    h.crowdQuote(a, "0.46", "0.50");
    await h.run(1_000);
    expect(h.botQuotes(a).sort()).toEqual(["buy 0.45 10", "sell 0.51 10"]);
    expect(h.logs.records().some((r) => r.msg === "risk: market_not_open")).toBe(false);
    expect(h.venue.openOrders(CROWD).length).toBeGreaterThan(0);
  });
});
