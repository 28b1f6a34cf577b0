import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { Harness } from "../engine/support/harness.js";

/*
 * Review 17 (r3a), 91731ba. A cut-short history search now keeps the exchange's page cursor across
 * reconciles (30 s and more apart) and resumes from it. The spec's cursor is opaque ("pass it back
 * unchanged") and says nothing of how long it stays valid. If the exchange refuses a stored cursor
 * (400 bad_request: a deploy changed its encoding, it expired), searchSent throws, runReconcile
 * throws, and — since the held search is kept unchanged (no attempt counted, never given up, the
 * same cursor) — EVERY later reconcile of the run fails at the same read: no open-orders diff
 * applied, no trade backfill, no position check, for the rest of the run. One bad stored cursor
 * should cost that search (start the window over, or count it), not the reconciler.
 */
describe("reconcile: a stored history cursor the exchange refuses", () => {
  it("does not fail every later reconcile of the run", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.exchange.scriptPlace({ kind: "ambiguous_before" });
    h.crowdQuote(yes, "0.50", "0.54");
    await h.run(1_000);
    const amb = h.eventsOf("place_outcome").find((e) => e.outcome === "ambiguous");
    if (amb === undefined) throw new Error("no ambiguous placement");
    const cid = amb.intent.clientOrderId;
    h.exchange.ordersByClientId = async (ids, _window, resume) => {
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
  });
});
