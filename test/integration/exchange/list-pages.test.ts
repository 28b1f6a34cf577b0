import { afterEach, describe, expect, it } from "vitest";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { MAX_LIST_PAGES } from "../../../src/exchange/list-pages.js";
import { sampleOrder } from "../../support/exchange-fixtures.js";
import {
  sendJson,
  startTestServer,
  type TestHandler,
  type TestServer,
} from "../../support/http-test-server.js";
import { clientFor, exchangeError } from "./helpers.js";

/*
 * GET /api/orders/open and /api/me/positions: the spec shows neither body nor paging. A wrapped
 * answer with a nextCursor used to be read as the whole list, so the reconciler would have taken every
 * order or position past the first page as gone (found by review). The cursor is now followed.
 */

let server: TestServer | undefined;
let client: ExchangeHttpClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(handler: TestHandler): Promise<{ srv: TestServer; c: ExchangeHttpClient }> {
  const srv = await startTestServer(handler);
  server = srv;
  const c = clientFor(srv);
  client = c;
  return { srv, c };
}

describe("paged list reads", () => {
  it("follows nextCursor through every page of open orders, passing it back unchanged", async () => {
    const pages: Record<string, { orders: unknown[]; nextCursor: string | null }> = {
      "": { orders: [sampleOrder({ id: "a" }), sampleOrder({ id: "b" })], nextCursor: "k/2 +" },
      "k/2 +": { orders: [sampleOrder({ id: "c" })], nextCursor: "k3" },
      k3: { orders: [sampleOrder({ id: "d" })], nextCursor: null },
    };
    const { srv, c } = await setup((req, res) => {
      const page = pages[req.query.get("cursor") ?? ""];
      if (page === undefined) sendJson(res, 400, { code: "bad_request", message: "cursor" });
      else sendJson(res, 200, page);
    });
    expect((await c.orders.open()).map((o) => o.id)).toEqual(["a", "b", "c", "d"]);
    expect(srv.requests.map((r) => r.query.get("cursor"))).toEqual([null, "k/2 +", "k3"]);
  });

  it("reads a bare array (the mock's form) in one request", async () => {
    const { srv, c } = await setup((_req, res) => sendJson(res, 200, [sampleOrder({ id: "a" })]));
    expect((await c.orders.open()).map((o) => o.id)).toEqual(["a"]);
    expect(srv.requests).toHaveLength(1);
  });

  it("pages positions too, keeping the caller's query", async () => {
    const { srv, c } = await setup((req, res) =>
      sendJson(
        res,
        200,
        req.query.get("cursor") === null
          ? { positions: [{ tokenId: "1", quantity: "5" }], nextCursor: "p2" }
          : { positions: [{ tokenId: "2", quantity: "7" }], nextCursor: null },
      ),
    );
    const got = await c.me.positions({ marketId: "m1" });
    expect(got.map((p) => [p.tokenId, p.quantity])).toEqual([
      ["1", "5"],
      ["2", "7"],
    ]);
    expect(srv.requests.every((r) => r.query.get("marketId") === "m1")).toBe(true);
  });

  it("fails rather than return part of the list on a repeated cursor or endless pages", async () => {
    const repeat = await setup((_req, res) =>
      sendJson(res, 200, { orders: [sampleOrder()], nextCursor: "same" }),
    );
    const err = await exchangeError(repeat.c.orders.open());
    expect(err).toMatchObject({ code: "malformed_response", outcome: "ambiguous" });
    expect(repeat.srv.requests).toHaveLength(2);
    client?.close();
    await server?.close();
    let n = 0;
    const endless = await setup((_req, res) => sendJson(res, 200, { positions: [], nextCursor: `c${++n}` }));
    expect(await exchangeError(endless.c.me.positions())).toMatchObject({ code: "malformed_response" });
    expect(endless.srv.requests).toHaveLength(MAX_LIST_PAGES);
  });
});
