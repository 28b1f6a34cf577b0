import { afterEach, describe, expect, it } from "vitest";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import { sessionTrades } from "../../../src/engine/session-trades.js";
import { Inventory } from "../../../src/execution/inventory.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { runReconcile } from "../../../src/execution/reconcile-run.js";
import { TradeResume } from "../../../src/execution/trade-resume.js";
import { sampleOrder, TEST_WALLET } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server.js";
import { clientFor } from "../exchange/helpers.js";

/*
 * GET /api/me/trades served oldest first over HTTP, its history longer than the reconcile's page
 * bound (1 page here): the next reconcile reads on from the cursor the last one stopped at
 * (TradeResume), and a kept cursor the exchange answers 400 to (a deploy changed their encoding)
 * is dropped, the history read from its start, the refusal heard.
 */

const T0 = Date.parse("2026-06-01T00:00:00Z");
const SINCE = T0 + 60_000;
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const trade = (id: string, atMs: number) => ({
  id,
  orderId: "o9",
  marketId: "m1",
  vaultAddress: "0x2222222222222222222222222222222222222222",
  fee: "0.01",
  side: "buy",
  price: "0.5",
  quantity: "2",
  createdAt: new Date(atMs).toISOString(),
});

/** Two old trades and one of this session, oldest first, `limit` a page; cursors "<prefix>:<offset>". */
async function exchange(): Promise<{ exchange: HttpExchange; prefix: { v: string } }> {
  const rows = [trade("t0", T0), trade("t1", T0 + 1_000), trade("t2", SINCE + 1_000)];
  const prefix = { v: "k" };
  server = await startTestServer((req, res) => {
    if (req.path === "/api/orders/open") {
      sendJson(res, 200, []);
      return;
    }
    if (req.path === "/api/orders/o9") {
      sendJson(res, 200, sampleOrder({ id: "o9", clientOrderId: "elsewhere", status: "FILLED" }));
      return;
    }
    const cursor = req.query.get("cursor");
    if (cursor !== null && !cursor.startsWith(`${prefix.v}:`)) {
      sendJson(res, 400, { code: "invalid_cursor", message: "cursor not recognised" });
      return;
    }
    const i = cursor === null ? 0 : Number(cursor.slice(prefix.v.length + 1));
    const n = Number(req.query.get("limit") ?? "2");
    const next = i + n < rows.length ? `${prefix.v}:${i + n}` : null;
    sendJson(res, 200, { walletAddress: TEST_WALLET, trades: rows.slice(i, i + n), nextCursor: next });
  });
  return { exchange: new HttpExchange(clientFor(server)), prefix };
}

describe("trade paging kept across reconciles, over HTTP, on a history served oldest first", () => {
  it("reads on from the cursor where the bound stopped, and from the start after a refused cursor", async () => {
    const { exchange: ex, prefix } = await exchange();
    const state = { orders: new OrderStore(), inventory: new Inventory() };
    const resume = new TradeResume();
    const refusals: string[] = [];
    const reconcile = async () => {
      const paging = resume.begin(SINCE, SINCE);
      const source = sessionTrades(ex, SINCE, undefined, { paging, refused: (c) => refusals.push(c) });
      const report = await runReconcile(source, state, SINCE + 10_000, {
        tokenOf: () => "1001",
        tradesSinceMs: SINCE,
        maxTradePages: 1,
        tradePageSize: 2,
      });
      paging.commit(report.tradesCapped !== undefined);
      return report;
    };
    const first = await reconcile();
    expect(first.tradesCapped).toBeDefined();
    expect(first.backfill.applied).toEqual([]);
    // The exchange's cursors change encoding: the kept one is refused, the history read afresh.
    prefix.v = "v2";
    const second = await reconcile();
    expect(refusals).toEqual(["k:2"]);
    expect(second.backfill.applied).toEqual([]);
    const third = await reconcile();
    expect(third.backfill.applied.map((f) => f.tradeId)).toEqual(["t2"]);
    expect(
      server?.requests.filter((r) => r.path === "/api/me/trades").map((r) => r.query.get("cursor")),
    ).toEqual([null, "k:2", null, "v2:2"]);
  });
});
