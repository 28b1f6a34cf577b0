import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExchangeError } from "../../../../src/exchange/exchange-error.js";
import { MockHarness, WALLET } from "./harness.js";

/** The spec's Endpoints section: every endpoint mm's client calls, read through that client. */

let h: MockHarness;
beforeAll(async () => {
  h = await MockHarness.start();
});
afterAll(() => h.close());

async function failure(p: Promise<unknown>): Promise<ExchangeError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ExchangeError) return err;
    throw err;
  }
  throw new Error("expected the call to fail");
}

describe("public market reads", () => {
  it("GET /api/markets lists every scenario market with every field of the Market table", async () => {
    const markets = await h.client().markets.list();
    expect(markets.map((m) => m.symbol)).toEqual(h.scenario.markets.map((m) => m.symbol));
    const fields = [
      "id",
      "eventId",
      "symbol",
      "slug",
      "title",
      "groupItemTitle",
      "conditionId",
      "questionId",
      "yesTokenId",
      "noTokenId",
      "status",
      "currentReviewRound",
      "outcomeCount",
      "outcomeLabels",
      "initialFairValue",
      "initialOutcomePrices",
      "feeTakerBps",
      "opensAt",
      "closesAt",
      "kickoff",
      "resolutionWindowHours",
      "pausedAt",
      "resolvedAt",
      "payoutNumerators",
      "officialDataSource",
      "sourceMatchId",
      "resolutionCriteria",
      "negRiskEligible",
      "isNewMarketType",
      "createdAt",
      "updatedAt",
      "outcomePrices",
    ];
    for (const m of markets) expect(Object.keys(m).sort()).toEqual([...fields].sort());
    const paused = markets.find((m) => m.symbol === "EXTRA-TIME");
    expect(paused).toMatchObject({ status: "PAUSED", pausedAt: expect.any(String) });
    expect(markets.find((m) => m.symbol === "BOOT-KANE")).toMatchObject({
      negRiskEligible: true,
      groupItemTitle: "Kane",
    });
    expect((await h.client().markets.list({ status: "PAUSED" })).map((m) => m.symbol)).toEqual([
      "EXTRA-TIME",
    ]);
  });

  it("GET /api/markets/{slug} is keyed by slug (404 market_not_found by symbol); outcomePrices follow the last trade", async () => {
    const m = await h.client().markets.get("arg-vs-fra-final-arg-win");
    expect(m).toMatchObject({
      symbol: "ARG-WIN",
      feeTakerBps: 200,
      outcomePrices: ["0.55", "0.45"],
      initialFairValue: "0.55",
    });
    expect((await failure(h.client().markets.get("ARG-WIN"))).code).toBe("market_not_found");
    await h
      .client()
      .orders.place(await h.order(WALLET.mm, "ARG-WIN", { side: "sell", price: "0.61", quantity: "5" }));
    await h
      .client({ key: h.keys.multiKyc, wallet: WALLET.kyc })
      .orders.place(await h.order(WALLET.kyc, "ARG-WIN", { side: "buy", price: "0.61", quantity: "2" }));
    expect((await h.client().markets.get("arg-vs-fra-final-arg-win")).outcomePrices).toEqual([
      "0.61",
      "0.45",
    ]);
  });

  it("GET /api/markets/{symbol}/orderbook, /trades, /price-history, /ohlc", async () => {
    const c = h.client();
    await c.orders.place(await h.order(WALLET.mm, "FRA-WIN", { side: "buy", price: "0.3", quantity: "7" }));
    await c.orders.place(await h.order(WALLET.mm, "FRA-WIN", { side: "buy", price: "0.3", quantity: "3" }));
    await c.orders.place(await h.order(WALLET.mm, "FRA-WIN", { side: "sell", price: "0.35", quantity: "4" }));
    const book = await c.markets.orderbook("FRA-WIN");
    expect(book.bids).toEqual([{ price: "0.3", size: "10" }]);
    expect(book.asks).toEqual([{ price: "0.35", size: "4" }]);
    expect((await c.markets.orderbook("FRA-WIN", { outcome: "NO" })).bids).toEqual([]);
    h.clock.advanceBy(7_000);
    await h
      .client({ key: h.keys.multiKyc, wallet: WALLET.kyc })
      .orders.place(await h.order(WALLET.kyc, "FRA-WIN", { side: "buy", price: "0.35", quantity: "1" }));
    const trades = await c.markets.trades("FRA-WIN");
    expect(trades).toEqual([
      expect.objectContaining({ price: "0.35", quantity: "1", side: "buy", outcome: "YES" }),
    ]);
    const history = await c.markets.priceHistory("FRA-WIN");
    expect(history.map((p) => p.price)).toEqual(["0.38", "0.35"]);
    const ohlc = await h.fetch("/api/markets/FRA-WIN/ohlc?interval=s5");
    expect(ohlc.body.bars).toEqual([expect.objectContaining({ open: "0.35", close: "0.35", volume: "1" })]);
    expect((await failure(c.markets.orderbook("NOPE"))).code).toBe("market_not_found");
  });
});

describe("catalogue, platform and probes", () => {
  it("GET /api/events and /api/events/{id} carry their markets", async () => {
    const events = await h.client().catalog.events();
    expect(events.map((e) => e.slug)).toEqual(["arg-vs-fra-final", "golden-boot-2026"]);
    const boot = await h.client().catalog.event(h.scenario.events[1]?.id ?? "");
    expect(boot.markets.map((m) => m.symbol)).toEqual([
      "BOOT-MBAPPE",
      "BOOT-MESSI",
      "BOOT-KANE",
      "BOOT-OTHER",
    ]);
  });

  it("GET /api/matches and /api/matches/{id}; 404 match_not_found for an unknown id", async () => {
    const [match, ...rest] = await h.client().catalog.matches();
    expect(rest).toEqual([]);
    expect(match).toMatchObject({ participantA: "Argentina", participantB: "France", state: "READY" });
    const again = await h.client().catalog.match(match?.id ?? "");
    expect(again.events[0]?.markets.length).toBe(5);
    const err = await failure(h.client().catalog.match("00000000-0000-4000-8000-000000000000"));
    expect([err.code, err.httpStatus]).toEqual(["match_not_found", 404]);
  });

  it("a match whose markets are all out of public status is match_not_found", async () => {
    const match = (await h.client().catalog.matches())[0];
    const event = h.scenario.events[0];
    const markets = h.scenario.markets.filter((m) => m.eventId === event?.id);
    for (const m of markets) h.ctx.venue.setMarketStatus(m.id, "CANCELLED");
    try {
      expect((await failure(h.client().catalog.match(match?.id ?? ""))).code).toBe("match_not_found");
    } finally {
      for (const m of markets) h.ctx.venue.setMarketStatus(m.id, m.status);
    }
  });

  it("GET /api/tags", async () => {
    expect((await h.client().catalog.tags()).map((t) => t.slug)).toEqual(["football", "world-cup"]);
  });

  it("GET /api/platform/status mirrors the frozen fault; /ready answers 503 while frozen; notices; /health", async () => {
    const c = h.client();
    expect(await c.platform.status()).toMatchObject({ frozen: false });
    h.ctx.faults.platformFrozen = true;
    h.clock.advanceBy(1_000);
    expect(await c.platform.status()).toMatchObject({
      frozen: true,
      since: new Date(h.clock.now()).toISOString(),
    });
    expect(await c.platform.ready()).toMatchObject({ ok: false, httpStatus: 503 });
    h.ctx.faults.platformFrozen = false;
    expect(await c.platform.ready()).toMatchObject({ ok: true, httpStatus: 200 });
    expect((await c.platform.notices()).length).toBe(1);
    expect(await c.platform.health()).toMatchObject({ ok: true, body: { status: "ok" } });
  });
});

describe("the acting wallet's reads", () => {
  it("balances, positions, vault, fee-tier, portfolio, deposit-limits", async () => {
    const c = h.client({ key: h.keys.multiKyc, wallet: WALLET.kyc });
    const before = await c.me.balances();
    await c.orders.place(
      await h.order(WALLET.kyc, "PENALTIES", { side: "buy", price: "0.2", quantity: "10" }),
    );
    const after = await c.me.balances();
    expect(Number(before.available) - Number(after.available)).toBeCloseTo(2, 9);
    expect(after.locked).toBe("2");
    const positions = await c.me.positions();
    expect(positions.every((p) => /^\d+$/.test(p.tokenId) && typeof p.quantity === "string")).toBe(true);
    expect(await c.me.vault()).toMatchObject({ walletAddress: WALLET.kyc, deployed: true });
    expect(await c.me.feeTier()).toMatchObject({ tier: "standard" });
    const portfolio = await c.me.portfolio();
    expect(portfolio).toMatchObject({ walletAddress: WALLET.kyc, cash: { total: after.total } });
    expect(await c.me.depositLimits()).toMatchObject({ single: "100000" });
    expect(await h.client({ key: h.keys.multiKyc, wallet: WALLET.tier0 }).me.depositLimits()).toMatchObject({
      single: "0",
    });
    expect(await h.client({ key: h.keys.multiKyc, wallet: WALLET.tier0 }).me.vault()).toMatchObject({
      deployed: false,
    });
  });
});
