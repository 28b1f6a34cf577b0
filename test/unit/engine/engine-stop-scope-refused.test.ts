import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { Harness } from "./support/harness.js";
import { refuse, started, THREE_BANDS } from "./support/stop-rig.js";

/*
 * A key without orders:write (it reads the open orders, orders:read, but every cancel is answered
 * 403 api_key_scope_missing: spec, Authentication step 5, scopes are the key's). The stop's sweep
 * took the read's listing as "orders left" and ran cancel rounds (a cancel-all, each order singly,
 * the read again, a pause) until the deadline: a refused key's exit 3 came only once the budget
 * was spent. Now the first cancel refused for its scope ends the cancels: the count is the read's.
 */

/** A started harness resting six quotes on one token, whose cancels are then refused for their scope. */
async function refusedCancels(): Promise<{ h: Harness; yes: string }> {
  const { h, yes } = await started(THREE_BANDS);
  expect(h.botQuotes(yes)).toHaveLength(6);
  refuse(h, ["cancel", "cancel_all"], {
    code: "api_key_scope_missing",
    message: "the API key lacks orders:write",
    httpStatus: 403,
    details: { requiredScope: "orders:write", have: ["orders:read", "portfolio:read"] },
  });
  return { h, yes };
}

describe("engine stop with a key that may not cancel (403 api_key_scope_missing)", () => {
  it("gives up on the cancels at the first refusal: the read's count at once, not at the deadline", async () => {
    const { h, yes } = await refusedCancels();
    const t0 = h.clock.now();
    let at: number | undefined;
    const result = h.engine.stop("api_key_scope_missing", 8_000).then((r) => {
      at = h.clock.now();
      return r;
    });
    await h.run(8_000);
    // The exchange's word (its open-orders list, read after the cancels), not a belief.
    expect(await result).toEqual({ openOrders: 6 });
    // Was: at the deadline, t0 + 8000.
    expect(at).toBeLessThan(t0 + 100);
    expect(h.botQuotes(yes)).toHaveLength(6);
    // Step 1's wallet cancel-all, refused; none of the six cancels it gave back was sent (each
    // would be refused alike), no cancel round after the read, and one read.
    expect(h.exchange.of("cancel_all_refused")).toHaveLength(1);
    expect(h.exchange.of("cancel_refused")).toHaveLength(0);
    expect(h.exchange.of("open_orders").filter((c) => c.atMs >= t0)).toHaveLength(1);
    expect(h.clock.pending).toBe(0);
  });

  it("the read failing too (a 5xx): read again until it answers, still no cancel round", async () => {
    const { h } = await refusedCancels();
    const openOrders = h.exchange.openOrders.bind(h.exchange);
    let failures = 2;
    h.exchange.openOrders = async () => {
      if (failures-- > 0) {
        h.exchange.calls.push({ op: "open_orders_fault", atMs: h.clock.now(), arg: "" });
        throw new ExchangeError({
          code: "internal_error",
          message: "injected",
          outcome: "ambiguous",
          endpoint: "GET /api/orders/open",
          httpStatus: 500,
        });
      }
      return openOrders();
    };
    const result = h.engine.stop("api_key_scope_missing", 8_000);
    await h.run(8_000);
    expect(await result).toEqual({ openOrders: 6 });
    expect(h.exchange.of("open_orders_fault")).toHaveLength(2);
    expect(h.exchange.of("cancel_all_refused")).toHaveLength(1);
    expect(h.exchange.of("cancel_refused")).toHaveLength(0);
  });
});
