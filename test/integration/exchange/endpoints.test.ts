import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import type { Order } from "../../../src/exchange/types.js";
import {
  router,
  sampleMarket,
  sampleOrder,
  sampleTrade,
  sampleWithdrawal,
  TEST_WALLET,
} from "../../support/exchange-fixtures.js";
import {
  type RecordedRequest,
  sendJson,
  startTestServer,
  type TestServer,
} from "../../support/http-test-server.js";
import { clientFor, exchangeError } from "./helpers.js";

let server: TestServer;
let client: ExchangeHttpClient;
let routes: ReturnType<typeof router>;

const event = { id: "ev-1", slug: "bra-fra", title: "Brazil v France", markets: [sampleMarket()] };
const match = { id: "m-1", slug: "bra-fra", title: "BRA v FRA", events: [event] };
const withdrawalId = "8b9f3a4e-0000-4000-8000-000000000001";

beforeAll(async () => {
  const ok =
    (body: unknown, status = 200) =>
    (_req: RecordedRequest, res: Parameters<typeof sendJson>[0]) =>
      sendJson(res, status, body);
  routes = router({
    "GET /api/markets": ok({
      markets: [sampleMarket(), sampleMarket({ id: "m2", slug: "b", symbol: "B", status: "FUTURE_STATE" })],
    }),
    "GET /api/markets/brazil-vs-france-brazil-wins": ok(sampleMarket()),
    "GET /api/markets/BRA-FRA-W/orderbook": ok({
      bids: [{ price: "0.51", size: "100" }],
      asks: [{ price: "0.53", size: "40.5" }],
      seq: 7,
    }),
    "GET /api/markets/BRA-FRA-W/trades": ok([{ price: "0.52", quantity: "3", side: "buy" }]),
    "GET /api/markets/BRA-FRA-W/price-history": ok({ history: [{ time: 1_717_200_000, price: "0.5" }] }),
    "GET /api/events": ok([event]),
    "GET /api/events/ev-1": ok(event),
    "GET /api/matches": ok({ matches: [match] }),
    "GET /api/matches/m-1": ok(match),
    "GET /api/tags": ok([{ slug: "world-cup", name: "World Cup", color: "#fff", iconUrl: "" }]),
    "GET /api/platform/status": ok({ frozen: false, reason: null }),
    "GET /api/platform/notices": ok({ notices: [{ id: "n1", text: "maintenance" }] }),
    "GET /health": (_req, res) => sendJson(res, 200, "ok"),
    "GET /ready": ok({ ready: false }, 503),
    "POST /api/orders/cancel": (req, res) =>
      sendJson(res, 200, {
        ...sampleOrder({ status: "CANCELLED" }),
        id: (req.json as { orderId: string }).orderId,
      }),
    "POST /api/orders/cancel-all": (req, res) =>
      sendJson(res, 200, { cancelled: 3, ...(req.json as object) }),
    "GET /api/orders/open": ok({
      orders: [sampleOrder(), sampleOrder({ id: "ord-2", clientOrderId: null })],
    }),
    "GET /api/orders/ord-1": ok(sampleOrder()),
    "GET /api/orders/ord-1/fills": ok([{ id: "f1", price: "0.52", quantity: "4" }]),
    "GET /api/orders/fees-summary": ok({ totalFees: "1.25" }),
    "GET /api/me/balances": ok({ available: "1000.5", locked: "20" }),
    "GET /api/me/positions": ok([{ tokenId: "713210", quantity: "25", marketId: "m" }]),
    "GET /api/me/trades": ok({
      trades: [sampleTrade(), sampleTrade({ id: "trade-unsettled", fee: null })],
      nextCursor: "c2",
    }),
    "GET /api/me/fees": ok([{ tradeId: "trade-1", role: "taker", amount: "0.05" }]),
    "GET /api/me/fee-tier": ok({ tier: 1 }),
    "GET /api/me/portfolio": ok({ value: "1020.5" }),
    "GET /api/me/vault": ok({ vaultAddress: "0x2222222222222222222222222222222222222222", deployed: true }),
    "GET /api/me/deposit-limits": ok({ single: "100000" }),
    "GET /api/me/withdrawals": ok({ walletAddress: TEST_WALLET, withdrawals: [sampleWithdrawal()] }),
    [`GET /api/me/withdrawals/${withdrawalId}`]: ok(sampleWithdrawal()),
    [`POST /api/me/withdrawals/${withdrawalId}/cancel`]: ok(
      sampleWithdrawal({ status: "CANCELLED", reason: "user" }),
    ),
    "POST /api/withdrawals/request": ok(sampleWithdrawal(), 201),
  });
  server = await startTestServer(routes);
  client = clientFor(server);
});
afterAll(async () => {
  client.close();
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
  server.setHandler(routes);
});

const last = () => server.requests.at(-1) as RecordedRequest;

describe("public reads", () => {
  it("markets: list (wrapped), detail by slug, orderbook / trades / price history by symbol", async () => {
    const markets = await client.markets.list({ status: "OPEN" });
    expect(markets.map((m) => m.status)).toEqual(["OPEN", "FUTURE_STATE"]);
    expect(last().url).toBe("/api/markets?status=OPEN");
    const m = await client.markets.get("brazil-vs-france-brazil-wins");
    expect(m).toMatchObject({
      symbol: "BRA-FRA-W",
      feeTakerBps: 200,
      negRiskEligible: false,
      outcomePrices: ["0.52", "0.48"],
    });
    expect(await client.markets.orderbook("BRA-FRA-W")).toMatchObject({
      bids: [{ price: "0.51", size: "100" }],
      seq: 7,
    });
    expect(await client.markets.trades("BRA-FRA-W")).toEqual([{ price: "0.52", quantity: "3", side: "buy" }]);
    expect(await client.markets.priceHistory("BRA-FRA-W")).toEqual([{ time: 1_717_200_000, price: "0.5" }]);
  });

  it("events, matches, tags, platform status and notices", async () => {
    expect((await client.catalog.events())[0]?.markets[0]?.slug).toBe("brazil-vs-france-brazil-wins");
    expect((await client.catalog.event("ev-1")).id).toBe("ev-1");
    expect((await client.catalog.matches())[0]?.events[0]?.id).toBe("ev-1");
    expect((await client.catalog.match("m-1")).slug).toBe("bra-fra");
    expect((await client.catalog.tags())[0]?.slug).toBe("world-cup");
    expect(await client.platform.status()).toEqual({ frozen: false, reason: null });
    expect(await client.platform.notices()).toEqual([{ id: "n1", text: "maintenance" }]);
  });

  it("health accepts a text body; ready returns a 503 as an answer", async () => {
    expect(await client.platform.health()).toEqual({ ok: true, httpStatus: 200, body: "ok" });
    expect(await client.platform.ready()).toEqual({ ok: false, httpStatus: 503, body: { ready: false } });
    expect(server.requests).toHaveLength(2); // a not-ready answer is not retried
  });

  it("refuses decimals sent as JSON numbers and unknown order statuses", async () => {
    server.setHandler((_req, res) => sendJson(res, 200, { bids: [{ price: 0.51, size: "1" }], asks: [] }));
    expect(await exchangeError(client.markets.orderbook("X"))).toMatchObject({
      code: "malformed_response",
      details: { field: "GET /api/markets/{symbol}/orderbook.bids[0].price" },
    });
    server.setHandler((_req, res) => sendJson(res, 200, [sampleOrder({ status: "LIMBO" })]));
    expect((await exchangeError(client.orders.open())).details.field).toBe("GET /api/orders/open[0].status");
  });
});

describe("orders", () => {
  it("cancel, cancel-all (scoped and not), open, by id, fills, fees summary", async () => {
    expect(await client.orders.cancel("ord-7")).toEqual({ orderId: "ord-7", status: "CANCELLED" });
    expect(last()).toMatchObject({ method: "POST", path: "/api/orders/cancel", json: { orderId: "ord-7" } });
    expect(await client.orders.cancelAll("mkt-1")).toEqual({ cancelled: 3, marketId: "mkt-1" });
    expect(last().json).toEqual({ marketId: "mkt-1" });
    expect(await client.orders.cancelAll()).toEqual({ cancelled: 3 });
    expect(last().json).toEqual({});
    const open = await client.orders.open();
    expect(open.map((o) => [o.id, o.clientOrderId])).toEqual([
      ["ord-1", "mm-a1-b0-1"],
      ["ord-2", undefined],
    ]);
    expect("clientOrderId" in (open[1] as Order)).toBe(false);
    expect(await client.orders.get("ord-1")).toMatchObject({ id: "ord-1", price: "0.52", status: "OPEN" });
    expect(await client.orders.fills("ord-1")).toEqual([{ id: "f1", price: "0.52", quantity: "4" }]);
    expect(await client.orders.feesSummary()).toEqual({ totalFees: "1.25" });
  });

  it("iterates history over several pages, passing the opaque cursor back unchanged", async () => {
    const cursors = ["k1/+=&?x y", "k2%2F~"];
    const pages: Record<string, { orders: unknown[]; nextCursor: string | null }> = {
      "": {
        orders: [sampleOrder({ id: "h1" }), sampleOrder({ id: "h2" })],
        nextCursor: cursors[0] as string,
      },
      [cursors[0] as string]: {
        orders: [sampleOrder({ id: "h3", status: "FILLED" })],
        nextCursor: cursors[1] as string,
      },
      [cursors[1] as string]: { orders: [sampleOrder({ id: "h4", status: "CANCELLED" })], nextCursor: null },
    };
    server.setHandler((req, res) => {
      const page = pages[req.query.get("cursor") ?? ""];
      if (page === undefined) sendJson(res, 400, { code: "bad_request", message: "unknown cursor" });
      else sendJson(res, 200, { walletAddress: TEST_WALLET, ...page });
    });
    const ids: string[] = [];
    for await (const order of client.orders.iterateHistory({ marketId: "mkt-1", limit: 2 }))
      ids.push(order.id);
    expect(ids).toEqual(["h1", "h2", "h3", "h4"]);
    expect(server.requests.map((r) => r.query.get("cursor"))).toEqual([null, ...cursors]);
    expect(
      server.requests.every((r) => r.query.get("marketId") === "mkt-1" && r.query.get("limit") === "2"),
    ).toBe(true);

    const single = await client.orders.history({ cursor: cursors[1] as string });
    expect(single).toMatchObject({ walletAddress: TEST_WALLET, nextCursor: null });
  });

  it("stops with malformed_response when the server repeats a cursor", async () => {
    server.setHandler((_req, res) =>
      sendJson(res, 200, { walletAddress: TEST_WALLET, orders: [], nextCursor: "same" }),
    );
    const pages = async () => {
      for await (const _ of client.orders.historyPages()) {
        // drain
      }
    };
    expect(await exchangeError(pages())).toMatchObject({
      code: "malformed_response",
      details: { cursor: "same" },
    });
    expect(server.requests).toHaveLength(2); // the first page, then the page that repeated "same"
  });
});

describe("me and withdrawals", () => {
  it("balances, positions, trades, fees, fee-tier, portfolio, vault, deposit-limits", async () => {
    expect(await client.me.balances()).toEqual({ available: "1000.5", locked: "20" });
    expect(await client.me.positions()).toEqual([{ tokenId: "713210", quantity: "25", marketId: "m" }]);
    // A trade not yet settled has no fee (spec: "resolved after settlement"); it must still parse.
    expect(await client.me.trades({ limit: 10 })).toEqual({
      trades: [sampleTrade(), sampleTrade({ id: "trade-unsettled", fee: null })],
      nextCursor: "c2",
    });
    expect(last().url).toBe("/api/me/trades?limit=10");
    expect(await client.me.fees()).toEqual([{ tradeId: "trade-1", role: "taker", amount: "0.05" }]);
    expect(await client.me.feeTier()).toEqual({ tier: 1 });
    expect(await client.me.portfolio()).toEqual({ value: "1020.5" });
    expect((await client.me.vault()).vaultAddress).toBe("0x2222222222222222222222222222222222222222");
    expect(await client.me.depositLimits()).toEqual({ single: "100000" });
  });

  it("withdrawals list, detail, cancel (POST, no body) and request", async () => {
    const list = await client.withdrawals.list({ status: "PENDING", limit: 5 });
    expect(list).toMatchObject({ walletAddress: TEST_WALLET, nextCursor: null });
    expect(list.withdrawals[0]?.amount).toBe("25.5");
    expect(last().url).toBe("/api/me/withdrawals?status=PENDING&limit=5");
    expect((await client.withdrawals.get(withdrawalId)).id).toBe(withdrawalId);
    expect(await client.withdrawals.cancel(withdrawalId)).toMatchObject({
      status: "CANCELLED",
      reason: "user",
    });
    expect(last()).toMatchObject({ method: "POST", bodyText: "" });
    expect(last().headers["content-length"]).toBe("0");
    const body = {
      amount: "25.5",
      destination: "0x3333333333333333333333333333333333333333",
      signature: "0xabc",
      deadline: 1,
    };
    const created = await client.withdrawals.request(body);
    expect(created.withdrawal.status).toBe("PENDING");
    expect(created.code).toBeUndefined();
    expect(last().json).toEqual(body);
  });
});
