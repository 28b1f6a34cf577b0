import { describe, expect, it } from "vitest";
import { STUCK_SEARCH_MS } from "../../../src/execution/search-failures.js";
import { Harness } from "../engine/support/harness.js";
import { ambiguousBid } from "../engine/support/harness-records.js";
import { historySearchFailed } from "../engine/support/reconcile-faults.js";

/*
 * Session 18 (rcfix). An ambiguous placement whose order-history search fails with anything but a
 * refused cursor stays unknown, its level waiting, and is never given up (it may rest: a second
 * quote there is double exposure). With a search failing for good the level waited for ever, and
 * what the operator saw was one warning per reconcile, every 2 s (the follow-up of a run that left
 * it unresolved), with no metric or alert apart from the unknown-orders gauges, which a healthy
 * bot also shows for seconds at a time. Now: a warning at the first failure, the repeats at debug,
 * one warning once it has failed in a row for STUCK_SEARCH_MS, an info line when it answers again,
 * a counter of failed searches and a gauge of the placements stuck (the MmHistorySearchStuck alert).
 *
 * Session 20 (s20-recon). Each of those runs succeeded otherwise, so the follow-up of the placement
 * left unresolved came every 2 s for as long as the search failed: a full reconcile (open orders,
 * the failing history read, trades, positions) every 2 s for ever against the wallet's rate limit,
 * for a read that had failed a minute on end. Runs whose every order in doubt was left so by a
 * failed read now back off as failed runs do (2, 4, 8, 16 s, then the periodic run alone), and the
 * stuck gauge counts time failing (a minute), not failures (30 at 2 s), so the alert keeps its pace.
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
      throw historySearchFailed();
    };
    await h.run(5 * 60_000);
    expect(searches).toBeGreaterThan(5);
    // Never given up: still unknown, its level waiting.
    expect(h.eventsOf("placements_answered")).toEqual([]);
    expect(h.engine.liveOrders().find((o) => o.clientOrderId === cid)?.state).toBe("unknown");
    // Said at warn once when it started failing and once when it got stuck, not at every reconcile.
    expect(messages(h, 40, FAILED)).toHaveLength(1);
    expect(messages(h, 40, STUCK)).toMatchObject([{ placements: [cid] }]);
    expect(messages(h, 40, STUCK)[0]?.failingForMs).toBeGreaterThanOrEqual(STUCK_SEARCH_MS);
    expect(messages(h, 20, FAILED).length).toBe(searches - 1);
    const summaries = h.eventsOf("reconcile").map((e) => e.summary);
    expect(summaries.at(-1)?.searchStuck).toBe(1);
    expect(summaries.reduce((n, s) => n + (s.searchFailures ?? 0), 0)).toBe(searches);
    // The search answers again (proved never placed: the venue never had it): the level is freed.
    down = false;
    await h.run(35_000); // the next run: at the periodic pace by now
    expect(h.eventsOf("placements_answered").flatMap((e) => e.placements)).toMatchObject([
      { clientOrderId: cid, orderId: undefined, givenUp: false },
    ]);
    expect(messages(h, 30, "their order-history search answers again")).toMatchObject([
      { placements: [cid] },
    ]);
    expect(h.eventsOf("reconcile").at(-1)?.summary.searchStuck).toBe(0);
  });

  it("is searched at the periodic pace once it keeps failing, and still counted stuck after a minute", async () => {
    const h = new Harness(); // reconcile every 30 s, follow-ups 2 s
    const cid = await ambiguousBid(h);
    const real = h.exchange.ordersByClientId.bind(h.exchange);
    const searchedAt: number[] = [];
    h.exchange.ordersByClientId = async (ids, window, resume) => {
      if (!ids.includes(cid)) return real(ids, window, resume);
      searchedAt.push(h.clock.now());
      throw historySearchFailed();
    };
    const runsBefore = h.exchange.of("open_orders").length;
    const stuckAt = () => h.eventsOf("reconcile").find((e) => (e.summary.searchStuck ?? 0) > 0)?.atMs;
    await h.run(10 * 60_000);
    const first = searchedAt[0] ?? 0;
    // Was: a search (and a whole reconcile) every 2 s, ~300 in 10 minutes. Now 2, 4, 8, 16 s apart,
    // then every 30 s (the periodic run): about 24.
    expect(searchedAt.length).toBeLessThanOrEqual(26);
    expect(h.exchange.of("open_orders").length - runsBefore).toBeLessThanOrEqual(26);
    const gaps = searchedAt.slice(1).map((t, i) => t - (searchedAt[i] ?? 0));
    expect(gaps.slice(0, 4).map((g) => Math.round(g / 1_000))).toEqual([2, 4, 8, 16]);
    expect(gaps.slice(5).every((g) => g >= 29_000 && g <= 31_000)).toBe(true);
    // The gauge (MmHistorySearchStuck) still counts it about a minute after its first failure.
    expect((stuckAt() ?? Number.POSITIVE_INFINITY) - first).toBeLessThanOrEqual(STUCK_SEARCH_MS + 31_000);
    expect(h.eventsOf("reconcile").at(-1)?.summary.searchStuck).toBe(1);
    expect(h.engine.liveOrders().find((o) => o.clientOrderId === cid)?.state).toBe("unknown");
    await h.engine.stop("test", 5_000);
  });
});
