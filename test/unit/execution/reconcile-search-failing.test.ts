import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { STUCK_SEARCH_FAILURES } from "../../../src/execution/search-failures.js";
import { Harness } from "../engine/support/harness.js";
import { ambiguousBid } from "../engine/support/harness-records.js";

/*
 * Session 18 (rcfix). An ambiguous placement whose order-history search fails with anything but a
 * refused cursor stays unknown, its level waiting, and is never given up (it may rest: a second
 * quote there is double exposure). With a search failing for good the level waited for ever, and
 * what the operator saw was one warning per reconcile, every 2 s (the follow-up of a run that left
 * it unresolved), with no metric or alert apart from the unknown-orders gauges, which a healthy
 * bot also shows for seconds at a time. Now: a warning at the first failure, the repeats at debug,
 * one warning once STUCK_SEARCH_FAILURES have failed in a row, an info line when it answers again,
 * a counter of failed searches and a gauge of the placements stuck (the MmHistorySearchStuck alert).
 */

const FAILED = "their order-history search failed";
const STUCK = "their order-history search keeps failing";

function messages(h: Harness, level: number, text: string) {
  return h.logs.records().filter((r) => r.level === level && String(r.msg).includes(text));
}

describe("reconcile: an unknown placement whose history search keeps failing", () => {
  it("is never given up, and the operator is told once it is stuck (log, counter, gauge), and when it answers again", async () => {
    const h = new Harness();
    const cid = await ambiguousBid(h);
    let down = true;
    let searches = 0;
    const real = h.exchange.ordersByClientId.bind(h.exchange);
    h.exchange.ordersByClientId = async (ids, window, resume) => {
      if (!ids.includes(cid)) return real(ids, window, resume);
      searches++;
      if (!down) return real(ids, window, resume);
      throw new ExchangeError({
        code: "internal_error",
        message: "upstream failed",
        outcome: "ambiguous",
        endpoint: "GET /api/orders/history",
        httpStatus: 500,
      });
    };
    await h.run(5 * 60_000);
    expect(searches).toBeGreaterThan(STUCK_SEARCH_FAILURES);
    // Never given up: still unknown, its level waiting.
    expect(h.eventsOf("placements_answered")).toEqual([]);
    expect(h.engine.liveOrders().find((o) => o.clientOrderId === cid)?.state).toBe("unknown");
    // Said at warn once when it started failing and once when it got stuck, not at every reconcile.
    expect(messages(h, 40, FAILED)).toHaveLength(1);
    expect(messages(h, 40, STUCK)).toMatchObject([{ placements: [cid], failures: STUCK_SEARCH_FAILURES }]);
    expect(messages(h, 20, FAILED).length).toBeGreaterThan(STUCK_SEARCH_FAILURES);
    const summaries = h.eventsOf("reconcile").map((e) => e.summary);
    expect(summaries.at(-1)?.searchStuck).toBe(1);
    expect(summaries.reduce((n, s) => n + (s.searchFailures ?? 0), 0)).toBe(searches);
    // The search answers again (proved never placed: the venue never had it): the level is freed.
    down = false;
    await h.run(10_000);
    expect(h.eventsOf("placements_answered").flatMap((e) => e.placements)).toMatchObject([
      { clientOrderId: cid, orderId: undefined, givenUp: false },
    ]);
    expect(messages(h, 30, "their order-history search answers again")).toMatchObject([
      { placements: [cid] },
    ]);
    expect(h.eventsOf("reconcile").at(-1)?.summary.searchStuck).toBe(0);
  });
});
