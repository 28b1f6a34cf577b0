import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import {
  type ClientIdSearch,
  type CutShortSearch,
  refusedCursor,
  searchSent,
  type TimeWindow,
  UnsureSearches,
} from "../../../src/execution/history-search.js";
import { remote, tracked } from "./reconcile-support.js";

/*
 * One history search failing fails alone: a stored cursor the exchange refuses for good (a 4xx but
 * 429) is dropped and counted as one cut-short search; any other failure leaves its placements
 * unknown (`unread`) with their cursor kept; the other send clusters are searched as usual. Before,
 * the error rejected searchSent and with it every later reconcile of the run (review 17 r3a).
 */

const history = (status: number) =>
  new ExchangeError({
    code: status === 429 ? "rate_limited" : status >= 500 ? "exchange_unavailable" : "bad_request",
    message: `HTTP ${status}`,
    outcome: status === 400 ? "rejected" : "retryable",
    endpoint: "GET /api/orders/history",
    httpStatus: status,
  });

/** Sends of "a" (held, cut short once) at 0 and of "b" 10 minutes later: two clusters. */
function setup(failure: ExchangeError) {
  const unsure = new UnsureSearches();
  const held: CutShortSearch = {
    window: { fromMs: -60_000, toMs: 60_000 },
    resume: "c-25",
    searches: 1,
    atMs: 0,
  };
  unsure.keep("a", held);
  const calls: { ids: readonly string[]; resume: string | undefined }[] = [];
  const source = {
    async ordersByClientId(
      ids: readonly string[],
      _w?: TimeWindow,
      resume?: string,
    ): Promise<ClientIdSearch> {
      calls.push({ ids, resume });
      if (resume !== undefined) throw failure;
      return { orders: [remote({ id: "o-b", clientOrderId: "b" })], complete: true };
    },
  };
  const orders = [
    tracked({ clientOrderId: "a", sentAtMs: 0 }),
    tracked({ clientOrderId: "b", sentAtMs: 600_000 }),
  ];
  return { unsure, held, calls, source, orders };
}

describe("searchSent: a failing search fails alone", () => {
  it("a refused stored cursor is dropped and counted as one cut-short search; the other cluster is searched", async () => {
    const { unsure, held, calls, source, orders } = setup(history(400));
    const res = await searchSent(source, orders, 0, unsure, { everyMs: 30_000, atMs: 30_000 });
    expect(calls.map((c) => c.resume)).toEqual(["c-25", undefined]);
    expect(res.byCid.get("b")?.id).toBe("o-b");
    expect(res.missed.get("a")).toEqual({
      window: held.window,
      resume: undefined,
      searches: 2,
      atMs: 30_000,
    });
    expect(res.unread.size).toBe(0);
    expect(res.failures).toMatchObject([{ ids: ["a"], cursorDropped: true }]);
  });

  it.each([429, 503, 401])(
    "a %i on a resume keeps the cursor: the placement stays unknown, unread",
    async (status) => {
      const { unsure, held, source, orders } = setup(history(status));
      const res = await searchSent(source, orders, 0, unsure, { everyMs: 30_000, atMs: 30_000 });
      expect(res.byCid.get("b")?.id).toBe("o-b");
      expect([...res.unread]).toEqual(["a"]);
      expect(res.missed.has("a")).toBe(false);
      expect(unsure.held("a")).toBe(held);
      expect(res.failures).toMatchObject([{ ids: ["a"], cursorDropped: false }]);
    },
  );

  it("a fresh search refused leaves its placements unknown (no cursor to blame)", async () => {
    const source = {
      async ordersByClientId(): Promise<ClientIdSearch> {
        throw history(400);
      },
    };
    const res = await searchSent(
      source,
      [tracked({ clientOrderId: "x", sentAtMs: 0 })],
      0,
      new UnsureSearches(),
    );
    expect([...res.unread]).toEqual(["x"]);
    expect(res.failures).toMatchObject([{ ids: ["x"], cursorDropped: false }]);
  });

  it("refusedCursor: a 4xx but 429, 401, 403; never a 5xx, a transport failure or a plain error", () => {
    expect([400, 404, 410, 422].map((s) => refusedCursor(history(s)))).toEqual([true, true, true, true]);
    expect([429, 401, 403, 500, 503].map((s) => refusedCursor(history(s)))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(refusedCursor(new Error("socket hang up"))).toBe(false);
  });
});
