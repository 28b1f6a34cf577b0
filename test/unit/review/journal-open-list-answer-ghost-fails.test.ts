import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { journaledRun } from "../journal/support-running.js";

/*
 * review18 r2-exec. f0ba6f5 says an ambiguous placement found on the open list is journaled answered
 * "at once … before any later read". It is not: runReconcile binds its orderId in the store right
 * after the open-orders read, but reports it (onAnswered → placements_answered) only after the ghost
 * lookups (GET /api/orders/{id}) and the history search. A ghost lookup that throws (a 5xx, a
 * timeout) fails the run in between: the store keeps the bound orderId, so no later run sees it as
 * "found" again (before.orderId is set), and only bindLive at a later successful run's end can
 * answer it — not at all if it ends (filled, cancelled) first. The case the commit set out to fix.
 */
describe("journal: an ambiguous placement found on the open list by a reconcile whose ghost lookup fails", () => {
  it("is journaled accepted though a later read of the same run fails", async () => {
    const { h, db, cid, restoreNow } = await journaledRun(undefined, { reaching: true });
    // Another of the bot's resting orders is missing from the open list (a ghost): the run looks it
    // up by id, and that read fails.
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
    await h.run(1_000);
    expect(h.eventsOf("reconcile_failed").length).toBeGreaterThan(0);
    const id = h.engine.liveOrders().find((o) => o.clientOrderId === cid)?.orderId;
    expect(id).toBeDefined(); // the open list bound it
    // Fails: nothing answered it (placements_answered comes after the ghost lookup).
    expect(
      h
        .eventsOf("placements_answered")
        .flatMap((e) => e.placements)
        .map((p) => p.clientOrderId),
    ).toContain(cid);
    const next = restoreNow();
    expect(next.unanswered.has(cid)).toBe(false);
    db.close();
  });
});
