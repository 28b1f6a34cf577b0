import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { budgetOpOf, RateBudget } from "../../../src/execution/rate-budget.js";
import { budgetGate, takeWhenAvailable } from "../../../src/execution/rate-budget-wait.js";
import { BucketEmptyError } from "../../../src/execution/token-bucket.js";

const limits = (b: RateBudget, op: Parameters<RateBudget["buckets"]>[0]) =>
  b.buckets(op).map((t) => `${t.limit}/${t.windowMs / 1000}s`);

describe("RateBudget (the rate-limit table as buckets)", () => {
  it("builds place (wallet 50/s + ip 1000/60 s), cancel 20/s, cancel-all 5/s, order reads 600/60 s", () => {
    const b = new RateBudget({ rateLimitPerMin: 600 });
    expect(limits(b, "place").sort()).toEqual(["1000/60s", "50/1s"]);
    expect(limits(b, "cancel")).toEqual(["20/1s"]);
    expect(limits(b, "cancel_all")).toEqual(["5/1s"]);
    expect(limits(b, "order_reads")).toEqual(["600/60s"]);
  });

  it("scales wallet limits by rateLimitPerMin / 600 and leaves ip limits alone", () => {
    const b = new RateBudget({ rateLimitPerMin: 1200 });
    expect(limits(b, "place").sort()).toEqual(["100/1s", "1000/60s"]);
    expect(limits(b, "cancel_all")).toEqual(["10/1s"]);
    const slow = new RateBudget({ rateLimitPerMin: 60 });
    expect(limits(slow, "place").sort()).toEqual(["1000/60s", "5/1s"]);
    expect(limits(slow, "cancel_all")).toEqual(["1/1s"]);
  });

  it("needs every bucket of an op: the ip bucket stops placements the wallet bucket would allow", () => {
    const b = new RateBudget({ rateLimitPerMin: 6000, marginMs: 0 }); // wallet 500/s, ip 1000/60 s paced
    let sent = 0;
    for (let t = 0; t < 1000; t++) {
      while (b.available("place", t) > 0) {
        b.take("place", t);
        sent++;
      }
    }
    expect(sent).toBeLessThanOrEqual(167 + 17); // burst of ten seconds' worth, then 1000/60 s
    expect(() => b.take("place", 1000)).toThrow(BucketEmptyError);
  });

  it("shares ip buckets between the wallets of one process", () => {
    const a = new RateBudget({ rateLimitPerMin: 600 });
    const c = new RateBudget({ rateLimitPerMin: 600, shareIpWith: a });
    const ipOf = (b: RateBudget) => b.buckets("place").find((t) => t.windowMs === 60_000);
    expect(ipOf(c)).toBe(ipOf(a));
    expect(c.buckets("place").find((t) => t.windowMs === 1000)).not.toBe(
      a.buckets("place").find((t) => t.windowMs === 1000),
    );
  });

  it("blocks all of an op's buckets on Retry-After and reports remaining budget per bucket", () => {
    const b = new RateBudget({ rateLimitPerMin: 600 });
    b.take("cancel", 0);
    b.block("place", 0, 2_000);
    const snap = b.snapshot(10);
    expect(snap.filter((s) => s.op === "place").map((s) => [s.remaining, s.blockedUntil])).toEqual([
      [0, 2_000],
      [0, 2_000],
    ]);
    expect(snap.find((s) => s.op === "cancel")?.remaining).toBe(19);
    expect(b.nextAvailableAt("place", 10)).toBe(2_000);
  });

  it("routes headers to the bucket whose limit matches X-RateLimit-Limit", () => {
    const b = new RateBudget({ rateLimitPerMin: 600 });
    b.take("place", 0);
    // The ip bucket is the tightest: 990 of 1000 used this minute, 989 of them by someone else.
    expect(b.observe("place", { limit: 1000, remaining: 10, resetAt: 30_000, observedAt: 5 }, 0, 5)).toBe(
      989,
    );
    expect(b.available("place", 5)).toBe(10);
  });

  it("takeWhenAvailable waits on the Clock for the next token", async () => {
    const clock = new SimClock(0);
    const b = new RateBudget({ rateLimitPerMin: 600, marginMs: 0 });
    for (let i = 0; i < 20; i++) b.take("cancel", 0);
    let done = false;
    const p = takeWhenAvailable(b, clock, "cancel").then(() => {
      done = true;
    });
    clock.advanceTo(999);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advanceTo(1000);
    await p;
    expect(done).toBe(true);
  });

  it("budgetOpOf: every endpoint of the order-reads row spends order_reads, of the me-reads row me_reads; other rows no op", () => {
    for (const route of [
      "/api/orders/open",
      "/api/orders/history",
      "/api/orders/{id}",
      "/api/orders/{id}/fills",
      "/api/orders/fees-summary",
    ]) {
      expect(budgetOpOf("GET", route)).toBe("order_reads");
    }
    expect(budgetOpOf("POST", "/api/orders/place")).toBe("place");
    expect(budgetOpOf("POST", "/api/orders/cancel")).toBe("cancel");
    for (const route of ["/api/me/positions", "/api/me/trades", "/api/me/balances", "/api/me/fees"]) {
      expect(budgetOpOf("GET", route)).toBe("me_reads");
    }
    expect(budgetOpOf("GET", "/api/me/overview")).toBeUndefined(); // a row of its own
    expect(budgetOpOf("GET", "/api/platform/status")).toBeUndefined();
  });

  it("budgetGate paces only its op: the 61st order read of a 60-a-minute wallet waits a window", async () => {
    const clock = new SimClock(0);
    const b = new RateBudget({ rateLimitPerMin: 60, marginMs: 0 });
    const gate = budgetGate(b, clock, "order_reads");
    expect(gate("GET", "/api/me/positions")).toBeUndefined();
    expect(gate("POST", "/api/orders/place")).toBeUndefined();
    const sentAt: number[] = [];
    for (let i = 0; i < 61; i++) {
      const wait = gate("GET", i % 2 === 0 ? "/api/orders/{id}" : "/api/orders/history");
      let done = false;
      void wait?.then(() => {
        done = true;
      });
      for (;;) {
        await Promise.resolve();
        await Promise.resolve();
        if (done) break;
        // No timer yet: let the gate's promise chain run (never jump the clock to Infinity).
        const next = clock.nextDeadline();
        if (next === undefined) await new Promise((r) => setTimeout(r, 0));
        else clock.advanceTo(next);
      }
      sentAt.push(clock.now());
    }
    // A burst of ten seconds' worth, then one a second; the 61st only once the first token is back.
    expect(sentAt.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(sentAt[10]).toBe(1_000);
    expect(sentAt[59]).toBe(50_000);
    expect(sentAt[60]).toBe(60_000);
  });

  it("budgetGate over several ops: each request waits for its own op's tokens", async () => {
    const clock = new SimClock(0);
    const b = new RateBudget({ rateLimitPerMin: 60, marginMs: 0 });
    const gate = budgetGate(b, clock, ["order_reads", "me_reads"]);
    b.block("order_reads", 0, 30_000);
    // A portfolio read is not held by the order reads' hold; it spends a me_reads token (180 a minute).
    await gate("GET", "/api/me/trades");
    expect(b.available("me_reads", 0)).toBe(29);
    let read = false;
    void gate("GET", "/api/orders/open")?.then(() => {
      read = true;
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(read).toBe(false);
    clock.advanceTo(30_000);
    await new Promise((r) => setTimeout(r, 0));
    expect(read).toBe(true);
    expect(gate("GET", "/api/me/withdrawals")).toBeUndefined();
  });
});
