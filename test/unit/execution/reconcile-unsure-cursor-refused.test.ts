import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { Harness } from "../engine/support/harness.js";
import { ambiguousBid } from "../engine/support/harness-records.js";

/*
 * A cut-short history search keeps the exchange's page cursor across reconciles (30 s and more
 * apart) and reads on from it. The spec's cursor is opaque and says nothing of how long it stays
 * valid. When the exchange refused a stored cursor (400: a deploy changed its encoding, it expired),
 * searchSent threw, runReconcile threw, and, the held search kept unchanged, every later reconcile of
 * the run failed at the same read (271 in 10 minutes, none succeeding again): no open-orders diff,
 * no trade backfill, no position check. Now the refusal costs that search: the cursor is dropped and
 * counted as one cut-short search, so the placement is given up after MAX_UNSURE_SEARCHES as usual
 * (review 17 r3a).
 */
describe("reconcile: a stored history cursor the exchange refuses", () => {
  it("does not fail every later reconcile of the run", async () => {
    const h = new Harness();
    const cid = await ambiguousBid(h);
    let reads = 0;
    h.exchange.ordersByClientId = async (ids, _window, resume) => {
      if (ids.includes(cid)) reads++;
      if (resume !== undefined) {
        throw new ExchangeError({
          code: "bad_request",
          message: "invalid cursor",
          outcome: "rejected",
          endpoint: "GET /api/orders/history",
          httpStatus: 400,
        });
      }
      // A busy window: every search is cut short by its page bound, cid not on the pages read.
      return { orders: [], complete: !ids.includes(cid), resume: "cursor-1" };
    };
    await h.run(10 * 60_000);
    const failedAt = h.eventsOf("reconcile_failed").map((e) => e.atMs);
    const okAt = h.eventsOf("reconcile").map((e) => e.atMs);
    const lastFailed = Math.max(...failedAt);
    // Before a fix: from the first resume on (~60 s) every reconcile fails — 271 in 10 minutes, one
    // every 2 s (the failure follow-up), each a history read — and none succeeds again.
    expect(okAt.some((t) => t > lastFailed)).toBe(true);
    expect(failedAt).toEqual([]);
    // Searched afresh within its grace, then 5 counted searches (fresh, refused, fresh, refused,
    // fresh) 30 s apart, then given up: not a history read every 2 s for the rest of the run.
    const answered = h.eventsOf("placements_answered").flatMap((e) => e.placements);
    expect(answered).toMatchObject([{ clientOrderId: cid, givenUp: true }]);
    expect(reads).toBeLessThan(40);
  });
});
