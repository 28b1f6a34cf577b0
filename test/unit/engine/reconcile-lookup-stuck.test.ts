import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { Harness } from "./support/harness.js";

/*
 * From review 20 (rexec), 3c216b1. A ghost's lookup (GET /api/orders/{id}) that fails now fails alone:
 * the reconcile succeeds with the order left in doubt. When that lookup keeps failing (the order's
 * record unreadable: a 5xx for that id, a proxy's 404 without `order_not_found`…) the order stays in
 * doubt for ever — held live by mm (its level blocked, its exposure counted) though the exchange's
 * open list no longer shows it. Before, every reconcile failed on it and MmReconcileStale fired
 * within minutes; now every reconcile succeeds (mm_reconcile_last_success_timestamp_seconds stays
 * fresh), the lookup is warned of once, then at debug, and nothing an alert watches says so: the
 * history search's equivalent has mm_reconcile_history_search_stuck_orders / MmHistorySearchStuck,
 * the lookup has none (mm_reconcile_unresolved_orders has no alert, and counts placements within
 * their grace too).
 */

const broken = () =>
  new ExchangeError({
    code: "exchange_unavailable",
    message: "upstream unavailable",
    outcome: "retryable",
    endpoint: "GET /api/orders/{id}",
    httpStatus: 503,
  });
const lost = () =>
  new ExchangeError({
    code: "request_timeout",
    message: "no answer within the timeout",
    outcome: "ambiguous",
    endpoint: "POST /api/orders/cancel",
  });

describe("review rexec: a cancel in doubt whose lookup never answers", () => {
  it("is signalled to an alert (stuck gauge, or the reconcile failing) after minutes, not only one warn", async () => {
    const h = new Harness();
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    await h.engine.start();
    await h.run(1_000);
    const cancel = h.exchange.cancel.bind(h.exchange);
    let doubted: string | undefined;
    h.exchange.cancel = async (orderId) => {
      if (doubted !== undefined) return cancel(orderId);
      doubted = orderId;
      await cancel(orderId); // done at the venue, the answer lost
      throw lost();
    };
    const order = h.exchange.order.bind(h.exchange);
    let down = true;
    h.exchange.order = async (orderId) => {
      if (down && orderId === doubted) throw broken();
      return order(orderId);
    };
    h.crowdQuote(a, "0.46", "0.50"); // a requote: the resting quotes are cancelled
    await h.run(15 * 60_000);
    expect(doubted).toBeDefined();
    // Still held live by mm: gone on the exchange, in doubt for 15 minutes.
    const held = h.engine.liveOrders().some((o) => o.orderId === doubted);
    expect(held).toBe(true);
    const runs = h.eventsOf("reconcile");
    const last = runs.at(-1)?.summary;
    const failedRecently = h.eventsOf("reconcile_failed").some((e) => e.atMs > h.clock.now() - 5 * 60_000);
    // Something an alert watches must say so: a stuck count (as for a history search that keeps
    // failing), or no successful reconcile (MmReconcileStale, the behaviour before 3c216b1).
    const stuck = Object.entries(last ?? {}).some(
      ([k, v]) => /stuck/i.test(k) && typeof v === "number" && v > 0,
    );
    expect(stuck || failedRecently).toBe(true);
    // The fix: its own gauge (mm_reconcile_lookup_stuck_orders, MmOrderLookupStuck), and a second
    // warning, once, when the lookup has failed at every try for a minute.
    expect(last?.lookupStuck).toBe(1);
    const stuckWarns = h.logs
      .records()
      .filter((r) => r.level === 40 && String(r.msg).includes("their lookup keeps failing"));
    expect(stuckWarns).toHaveLength(1);
    expect(stuckWarns[0]?.orders).toEqual([expect.objectContaining({ orderId: doubted })]);
    expect(stuckWarns[0]?.failingForMs).toBeGreaterThanOrEqual(60_000);
    // The lookup answers again: the order is settled (cancelled), the gauge back to 0.
    down = false;
    await h.run(60_000);
    expect(h.engine.liveOrders().some((o) => o.orderId === doubted)).toBe(false);
    expect(h.eventsOf("reconcile").at(-1)?.summary.lookupStuck).toBe(0);
    expect(h.logs.text()).toContain("orders whose lookup had failed: their state is read again");
    await h.engine.stop("test", 5_000);
  });
});
