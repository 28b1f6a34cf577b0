import { describe, expect, it } from "vitest";
import { SWEEP_PAUSE_FIRST_MS, SWEEP_PAUSE_MAX_MS } from "../../../src/engine/shutdown-sweep.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { Harness } from "./support/harness.js";
import { refuse, type StopOp, started, THREE_BANDS } from "./support/stop-rig.js";

/**
 * Makes the exchange answer 500 (ambiguous: the request may have been applied) to the cancels,
 * cancel-alls and open-orders reads for which `fails(op)` is true, recording each as `<op>_fault`.
 */
function faulty(h: Harness, fails: (op: StopOp) => boolean): void {
  const x = h.exchange;
  const cancel = x.cancel.bind(x);
  const cancelAll = x.cancelAll.bind(x);
  const openOrders = x.openOrders.bind(x);
  const fault = (op: StopOp, arg = "") => {
    x.calls.push({ op: `${op}_fault`, atMs: h.clock.now(), arg });
    return new ExchangeError({
      code: "internal_error",
      message: "injected fault",
      outcome: "ambiguous",
      endpoint: op,
      httpStatus: 500,
    });
  };
  x.cancel = async (id) => {
    if (fails("cancel")) throw fault("cancel", id);
    return cancel(id);
  };
  x.cancelAll = async (m) => {
    if (fails("cancel_all")) throw fault("cancel_all", m ?? "*");
    return cancelAll(m);
  };
  x.openOrders = async () => {
    if (fails("open_orders")) throw fault("open_orders");
    return openOrders();
  };
}

/** Starts a stop of `budgetMs`; `settledAt()` is the Clock's time when it resolved (undefined before). */
function stop(h: Harness, budgetMs: number) {
  let at: number | undefined;
  const result = h.engine.stop("sigterm", budgetMs).then((r) => {
    at = h.clock.now();
    return r;
  });
  return { result, settledAt: () => at };
}

/**
 * Shutdown's last step (shutdown-sweep.ts): after the wallet cancel-all came back 5xx (the single
 * cancels it covered unsent), a failed GET /api/orders/open must not end the stop while the budget
 * lasts: the engine still holds every order id, so it cancels them and reads again, pausing between
 * attempts, until the exchange lists nothing or the deadline passes. The count keeps its meaning:
 * what the exchange lists, else (no read after the last cancels) what the engine believes live.
 */
describe("engine stop: a burst of 5xx during the stop", () => {
  it("a burst that ends mid-stop: every quote cancelled, 0 open, well before the deadline", async () => {
    const { h, yes } = await started();
    const t0 = h.clock.now();
    faulty(h, () => h.clock.now() < t0 + 1_500);
    const s = stop(h, 3_000);
    await h.run(3_000);
    expect(await s.result).toEqual({ openOrders: 0 });
    expect(h.botQuotes(yes)).toEqual([]);
    // Read again at most one (capped) pause after the burst's end, then cancelled at once.
    expect(s.settledAt()).toBeLessThanOrEqual(t0 + 1_500 + SWEEP_PAUSE_MAX_MS);
    expect(h.exchange.of("open_orders_fault").length).toBeGreaterThan(1);
    expect(h.clock.pending).toBe(0);
  });

  it("five 500s in a row on any request (the live case): all cancelled, 0 open", async () => {
    const { h, yes } = await started();
    let faults = 5;
    faulty(h, () => faults-- > 0);
    const s = stop(h, 3_000);
    await h.run(3_000);
    expect(await s.result).toEqual({ openOrders: 0 });
    expect(h.botQuotes(yes)).toEqual([]);
    expect(h.clock.pending).toBe(0);
  });

  it("a burst that never ends: returns at the deadline, not later, with the believed count", async () => {
    const { h, yes } = await started();
    const t0 = h.clock.now();
    faulty(h, () => true);
    const s = stop(h, 3_000);
    await h.run(10_000);
    expect(await s.result).toEqual({ openOrders: 2, believed: true });
    expect(s.settledAt()).toBe(t0 + 3_000);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    expect(h.clock.pending).toBe(0);
    // No spin: after the one round of cancels, the reads are paused on the Clock, first
    // SWEEP_PAUSE_FIRST_MS apart, doubling up to SWEEP_PAUSE_MAX_MS.
    const reads = h.exchange.of("open_orders_fault").map((c) => c.atMs);
    for (let i = 2; i < reads.length; i++) {
      expect((reads[i] ?? 0) - (reads[i - 1] ?? 0)).toBeGreaterThanOrEqual(SWEEP_PAUSE_FIRST_MS);
    }
    expect(reads.length).toBeLessThanOrEqual(2 + Math.ceil(3_000 / SWEEP_PAUSE_FIRST_MS));
    expect(reads.length).toBeGreaterThanOrEqual(Math.floor(3_000 / SWEEP_PAUSE_MAX_MS));
    // The ids the engine holds were tried one by one (the cancel-all having failed).
    expect(h.exchange.of("cancel_fault").length).toBeGreaterThanOrEqual(2);
  });

  it("cancel-all always failing, reads failing: the orders are cancelled one by one by the ids the engine holds", async () => {
    const { h, yes } = await started();
    faulty(h, (op) => op !== "cancel");
    const s = stop(h, 3_000);
    await h.run(3_000);
    expect(h.botQuotes(yes)).toEqual([]);
    expect(h.exchange.of("cancel").length).toBe(2);
    // No read ever succeeded: the count is what the engine believes, the cancels having confirmed.
    expect(await s.result).toEqual({ openOrders: 0, believed: true });
    expect(h.clock.pending).toBe(0);
  });

  it("reads failing but a later wallet cancel-all succeeding: 0 at once, without waiting for a read", async () => {
    const { h, yes } = await started();
    let cancelAllFaults = 1;
    faulty(h, (op) => op === "open_orders" || (op === "cancel_all" && cancelAllFaults-- > 0));
    const t0 = h.clock.now();
    const s = stop(h, 3_000);
    await h.run(3_000);
    expect(await s.result).toEqual({ openOrders: 0 });
    expect(h.botQuotes(yes)).toEqual([]);
    expect(s.settledAt()).toBeLessThan(t0 + 100);
    expect(h.clock.pending).toBe(0);
  });

  it("orders listed again after every round: rounds paused on the Clock, the listed count at the deadline", async () => {
    const { h, yes } = await started();
    // A cancel-all answered 200 that removes nothing (the read keeps listing both orders).
    h.exchange.cancelAll = async () => {
      h.exchange.calls.push({ op: "cancel_all", atMs: h.clock.now(), arg: "no-op" });
      return { cancelled: 0 };
    };
    const t0 = h.clock.now();
    const s = stop(h, 3_000);
    await h.run(10_000);
    // The exchange's list, not the engine's belief (it counts both cancelled after the 200).
    expect(await s.result).toEqual({ openOrders: 2 });
    expect(s.settledAt()).toBe(t0 + 3_000);
    expect(h.botQuotes(yes)).toHaveLength(2);
    const rounds = h.exchange.of("cancel_all").map((c) => c.atMs);
    for (let i = 2; i < rounds.length; i++) {
      expect((rounds[i] ?? 0) - (rounds[i - 1] ?? 0)).toBeGreaterThanOrEqual(SWEEP_PAUSE_FIRST_MS);
    }
    expect(rounds.length).toBeLessThanOrEqual(2 + Math.ceil(3_000 / SWEEP_PAUSE_FIRST_MS));
    expect(h.clock.pending).toBe(0);
  });

  it("a definite refusal (401: the key revoked) is not retried: the believed count at once, not at the deadline", async () => {
    const { h, yes } = await started();
    refuse(h, ["cancel", "cancel_all", "open_orders"], {
      code: "api_key_revoked",
      message: "revoked",
      httpStatus: 401,
    });
    const t0 = h.clock.now();
    const s = stop(h, 3_000);
    await h.run(3_000);
    expect(await s.result).toEqual({ openOrders: 2, believed: true });
    expect(s.settledAt()).toBeLessThan(t0 + 100);
    expect(h.botQuotes(yes)).toHaveLength(2);
    // The key itself is refused: no cancel round after the refused read (every cancel would be
    // refused too, each at the cancel rate), and no second read.
    const reads = h.exchange.of("open_orders_refused");
    expect(reads).toHaveLength(1);
    const readIndex = h.exchange.calls.findIndex((c) => c.op === "open_orders_refused");
    const after = h.exchange.calls.slice(readIndex + 1).map((c) => c.op);
    expect(after.filter((op) => op === "cancel_refused" || op === "cancel_all_refused")).toEqual([]);
    // Step 1 did try them: the wallet cancel-all, then each quote by id.
    expect(h.exchange.of("cancel_all_refused")).toHaveLength(1);
    expect(h.exchange.of("cancel_refused")).toHaveLength(2);
    expect(h.clock.pending).toBe(0);
  });

  it("a banned wallet (403 wallet_banned) is refused everywhere too: no cancel round after the read", async () => {
    const { h, yes } = await started();
    refuse(h, ["cancel", "cancel_all", "open_orders"], {
      code: "wallet_banned",
      message: "banned",
      httpStatus: 403,
    });
    const s = stop(h, 3_000);
    await h.run(3_000);
    expect(await s.result).toEqual({ openOrders: 2, believed: true });
    expect(h.botQuotes(yes)).toHaveLength(2);
    // Step 1's cancel-all and its two fallback cancels; nothing after the one refused read.
    expect(h.exchange.of("cancel_all_refused")).toHaveLength(1);
    expect(h.exchange.of("cancel_refused")).toHaveLength(2);
    expect(h.exchange.of("open_orders_refused")).toHaveLength(1);
    expect(h.clock.pending).toBe(0);
  });

  it.each([
    { why: "404 on that endpoint only", httpStatus: 404, code: "order_not_found" },
    { why: "403 for the read's scope only", httpStatus: 403, code: "api_key_scope_missing" },
    // Another service or a proxy (its 401 carries no code of the exchange's): no word on the key.
    { why: "401 without the exchange's code", httpStatus: 401, code: "http_error" },
    { why: "401 whose body was cut", httpStatus: 401, code: "connection_lost" },
  ])("a read refused otherwise ($why): the cancel round still runs", async ({ httpStatus, code }) => {
    const { h, yes } = await started();
    refuse(h, ["open_orders"], { code, message: "refused", httpStatus });
    let cancelAllFaults = 1;
    faulty(h, (op) => op === "cancel_all" && cancelAllFaults-- > 0);
    const s = stop(h, 3_000);
    await h.run(3_000);
    // Step 1's cancel-all failed; after the refused read, the sweep's own cancel-all clears the wallet.
    expect(h.exchange.of("cancel_all")).toHaveLength(1);
    const readAt = h.exchange.calls.findIndex((c) => c.op === "open_orders_refused");
    const allAt = h.exchange.calls.findIndex((c) => c.op === "cancel_all");
    expect(allAt).toBeGreaterThan(readAt);
    expect(h.botQuotes(yes)).toEqual([]);
    expect(await s.result).toEqual({ openOrders: 0 });
    expect(h.clock.pending).toBe(0);
  });

  it("cancel-all failing for good with six quotes in a market: the fallback cancels go out one by one", async () => {
    const { h, yes } = await started(THREE_BANDS);
    expect(h.botQuotes(yes)).toHaveLength(6);
    const t0 = h.clock.now();
    // The closed queue must not fold the fallback cancels into a (market) cancel-all again.
    faulty(h, (op) => op === "cancel_all" || (op === "open_orders" && h.clock.now() < t0 + 1_000));
    const s = stop(h, 3_000);
    await h.run(3_000);
    expect(h.botQuotes(yes)).toEqual([]);
    const cancels = h.exchange.of("cancel");
    expect(cancels).toHaveLength(6);
    // Sent in the first round, while the reads still fail, not folded into a market cancel-all.
    for (const c of cancels) expect(c.atMs).toBeLessThan(t0 + 1_000);
    expect(h.exchange.of("cancel_all_fault").map((c) => c.arg)).not.toContain("m1");
    expect(await s.result).toEqual({ openOrders: 0 });
    expect(h.clock.pending).toBe(0);
  });
});
