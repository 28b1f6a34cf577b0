import { afterEach, describe, expect, it } from "vitest";
import { HttpExchange, WINDOW_PAGES } from "../../../src/engine/http-exchange.js";
import { searchSent, type TimeWindow } from "../../../src/execution/history-search.js";
import type { TrackedOrder } from "../../../src/execution/order-state.js";
import { sampleOrder, TEST_WALLET } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server.js";
import { clientFor } from "../exchange/helpers.js";

/*
 * The reconciler looks unresolved placements up by clientOrderId in GET /api/orders/history. The
 * spec gives that history a keyset cursor over (created_at, id) but not its direction, so the search
 * is bounded by when we sent them (`from`/`to`), not by "the newest pages" (found by review).
 */

const T0 = Date.parse("2026-06-01T00:00:00Z");
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A history of `n` orders one second apart, paged OLDEST first (200 a page), honouring from/to. */
async function oldestFirst(n: number): Promise<{ exchange: HttpExchange; server: TestServer }> {
  const all = Array.from({ length: n }, (_, i) =>
    sampleOrder({ id: `o${i}`, clientOrderId: `c${i}`, createdAt: new Date(T0 + i * 1_000).toISOString() }),
  );
  const srv = await startTestServer((req, res) => {
    const from = req.query.get("from");
    const to = req.query.get("to");
    const inWindow = all.filter((o) => {
      const t = Date.parse(o.createdAt as string);
      return (from === null || t >= Date.parse(from)) && (to === null || t < Date.parse(to));
    });
    const start = Number(req.query.get("cursor") ?? "0");
    const limit = Number(req.query.get("limit") ?? "100");
    const orders = inWindow.slice(start, start + limit);
    const next = start + limit < inWindow.length ? String(start + limit) : null;
    sendJson(res, 200, { walletAddress: TEST_WALLET, orders, nextCursor: next });
  });
  server = srv;
  return { exchange: new HttpExchange(clientFor(srv)), server: srv };
}

describe("HttpExchange.ordersByClientId", () => {
  it("finds recent orders in a history paged oldest first when given the window they were sent in", async () => {
    const { exchange, server: srv } = await oldestFirst(3_000);
    const recent = ["c2990", "c2995"];
    // Without a window: five pages of the oldest 1,000 orders, and not a trace of them.
    // It says so: not finding them there proves nothing.
    expect(await exchange.ordersByClientId(recent)).toEqual({ orders: [], complete: false, resume: "1000" });
    const window: TimeWindow = { fromMs: T0 + 2_900_000, toMs: T0 + 3_000_000 };
    const found = await exchange.ordersByClientId(recent, window);
    expect(found.orders.map((o) => o.id)).toEqual(["o2990", "o2995"]);
    expect(found.complete).toBe(true);
    const last = srv.requests.at(-1);
    expect(last?.query.get("from")).toBe(new Date(window.fromMs).toISOString());
    expect(last?.query.get("to")).toBe(new Date(window.toMs).toISOString());
  });

  it("pages a window to its end, and says when its page bound cut the search short", async () => {
    const n = (WINDOW_PAGES + 1) * 200;
    const { exchange } = await oldestFirst(n);
    const window: TimeWindow = { fromMs: T0, toMs: T0 + n * 1_000 };
    // A window of 20 pages, read to its end: what is in it found, and absence proven.
    const mid = await exchange.ordersByClientId(["c3000", "missing"], { fromMs: T0, toMs: T0 + 4_000_000 });
    expect(mid.orders.map((o) => o.id)).toEqual(["o3000"]);
    expect(mid.complete).toBe(true);
    // On the page after the bound: not found, and not finding it proves nothing.
    const past = await exchange.ordersByClientId([`c${n - 1}`], window);
    expect(past).toEqual({ orders: [], complete: false, resume: String(WINDOW_PAGES * 200) });
    // Read on from where it stopped (same window): the next pages, so the search reaches the end.
    const on = await exchange.ordersByClientId([`c${n - 1}`, "missing"], window, past.resume);
    expect(on.orders.map((o) => o.id)).toEqual([`o${n - 1}`]);
    expect(on.complete).toBe(true);
  });

  it("a record listed twice does not end the search before every id was seen", async () => {
    const srv = await startTestServer((req, res) => {
      const page = req.query.get("cursor");
      const orders =
        page === null
          ? [sampleOrder({ id: "a", clientOrderId: "c1" }), sampleOrder({ id: "a2", clientOrderId: "c1" })]
          : [sampleOrder({ id: "b", clientOrderId: "c2" })];
      sendJson(res, 200, { walletAddress: TEST_WALLET, orders, nextCursor: page === null ? "p2" : null });
    });
    server = srv;
    const found = await new HttpExchange(clientFor(srv)).ordersByClientId(["c1", "c2"]);
    expect(found.orders.map((o) => o.id)).toEqual(["a", "a2", "b"]);
  });
});

describe("searchSent", () => {
  it("searches around the send times (creation when unsent), a minute of slack each side, one window per cluster", async () => {
    const windows: TimeWindow[] = [];
    const source = {
      ordersByClientId: async (_ids: readonly string[], w?: TimeWindow) => {
        if (w !== undefined) windows.push(w);
        return { orders: [], complete: true };
      },
    };
    const o = (clientOrderId: string, sentAtMs: number | undefined, createdAtMs: number) =>
      ({ clientOrderId, sentAtMs, createdAtMs }) as TrackedOrder;
    await searchSent(source, [o("a", 5_000_000, 1), o("b", undefined, 4_950_000), o("c", 9_000_000, 2)]);
    expect(windows).toEqual([
      { fromMs: 4_950_000 - 60_000, toMs: 5_000_000 + 60_000 },
      { fromMs: 9_000_000 - 60_000, toMs: 9_000_000 + 60_000 },
    ]);
  });
});
