import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { journaledRun } from "./support-running.js";

/*
 * runReconcile writes the history search's answers into the order store (never placed, found, given
 * up) and only then reads the trades. When that later read fails the run rejects; the answers must
 * already have reached the journal (`onAnswered` → `placements_answered`), since the store no longer
 * holds the placement unresolved and no later reconcile answers it again: the journal would keep it
 * unanswered for the rest of the run, and a crash would have the next start search it (review 17 r3a).
 * Likewise one found on the open list: it is bound right after that read, so it is reported before
 * the ghost lookups and the search (review 18 r2-exec: it was reported only after them).
 */
describe("journal: the running reconcile's answers survive a later read failing in the same run", () => {
  it("never placed (complete search past grace), trades read fails once: still journaled rejected never_placed", async () => {
    const { h, db, cid, restoreNow } = await journaledRun();
    const sentAt = h.clock.now(); // ~1.25 s after the send: its grace (30 s) ends ~28.75 s on

    // The first reconcile whose history search runs past the grace: its trades read then fails (a 503).
    let searchedPastGrace = false;
    let failed = false;
    const search = h.exchange.ordersByClientId.bind(h.exchange);
    h.exchange.ordersByClientId = async (ids, window, resume) => {
      if (ids.includes(cid) && h.clock.now() - sentAt >= 28_000) searchedPastGrace = true;
      return search(ids, window, resume);
    };
    const trades = h.exchange.trades.bind(h.exchange);
    h.exchange.trades = async (opts) => {
      if (searchedPastGrace && !failed) {
        failed = true;
        throw new ExchangeError({
          code: "exchange_unavailable",
          message: "503",
          outcome: "retryable",
          endpoint: "GET /api/me/trades",
          httpStatus: 503,
        });
      }
      return trades(opts);
    };

    await h.run(5 * 60_000);
    expect(failed).toBe(true);
    expect(h.eventsOf("reconcile_failed").length).toBeGreaterThan(0);
    // Later reconciles succeed; the answer the failed one put into the store is never journaled.
    const answered = h.eventsOf("placements_answered").flatMap((e) => e.placements);
    expect(answered.map((a) => a.clientOrderId)).toContain(cid);
    expect(restoreNow().unanswered.has(cid)).toBe(false);
    db.close();
  });

  it("found on the open list, later reads of the same run failing (a ghost lookup, the positions): still journaled accepted", async () => {
    const { h, db, cid, restoreNow } = await journaledRun(undefined, { reaching: true });
    // Another of the bot's resting orders is missing from the open list (a ghost): the run looks it
    // up by id, and that read fails every time.
    const other = h.engine
      .liveOrders()
      .find((o) => o.clientOrderId !== cid && o.orderId !== undefined && o.state === "open");
    expect(other).toBeDefined();
    h.exchange.unlisted.add(other?.clientOrderId ?? "");
    h.exchange.order = async () => {
      throw new ExchangeError({
        code: "internal_error",
        message: "upstream 502",
        outcome: "retryable",
        endpoint: "GET /api/orders/{id}",
        httpStatus: 502,
      });
    };
    // A failed ghost lookup fails alone (session 20): the positions read fails the run.
    h.exchange.positionsAt = async () => {
      throw new ExchangeError({
        code: "internal_error",
        message: "upstream 502",
        outcome: "retryable",
        endpoint: "GET /api/me/positions",
        httpStatus: 502,
      });
    };
    await h.run(1_000);
    expect(h.eventsOf("reconcile_failed").length).toBeGreaterThan(0);
    const id = h.engine.liveOrders().find((o) => o.clientOrderId === cid)?.orderId;
    expect(id).toBeDefined(); // the open list bound it
    // Before: never reported (placements_answered came after the ghost lookup, which failed the run).
    const answered = h.eventsOf("placements_answered").flatMap((e) => e.placements);
    expect(answered.filter((a) => a.clientOrderId === cid)).toMatchObject([{ orderId: id, givenUp: false }]);
    const next = restoreNow();
    expect(next.unanswered.has(cid)).toBe(false);
    expect(next.orders.get(id ?? "")).toBe(cid);
    db.close();
  });
});
