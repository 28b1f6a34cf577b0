import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { GateAnswer, GateTicket } from "../../../src/exchange/caller.js";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import { budgetGate, GATE_MAX_BLOCK_MS } from "../../../src/execution/rate-budget-wait.js";

/*
 * budgetGate's limits: how long one Retry-After may hold every order read, and what becomes of a
 * wait whose caller has gone (the HTTP client closed).
 */

const T = 1_750_000_000_000;
const READ = "/api/orders/{id}";

/** A hand-written warn sink: what the gate reported, in order. */
function warnings() {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  return { lines, log: { warn: (obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg }) } };
}

const limited = (retryAfterMs: number | undefined): GateAnswer => ({
  status: 429,
  code: "rate_limited",
  rateLimit: undefined,
  retryAfterMs,
});
const ok: GateAnswer = { status: 200, code: undefined, rateLimit: undefined, retryAfterMs: undefined };

/** Lets the gate's promise chain run without moving simulated time. */
async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
}

/** The clock time at which a gated read is let go (advancing the SimClock timer by timer). */
async function releasedAt(clock: SimClock, wait: Promise<GateTicket | undefined> | undefined) {
  let ticket: GateTicket | undefined;
  let done = false;
  void wait?.then((t) => {
    ticket = t;
    done = true;
  });
  for (let i = 0; i < 100 && !done; i++) {
    await flush();
    if (done) break;
    const next = clock.nextDeadline();
    if (next !== undefined) clock.advanceTo(next);
  }
  if (!done) throw new Error("the gate never let the read go");
  return { at: clock.now() - T, ticket };
}

describe("budgetGate: a Retry-After longer than any rate window", () => {
  it("holds the order reads for at most GATE_MAX_BLOCK_MS (60 s), not the 300 s asked, and warns once per episode", async () => {
    const clock = new SimClock(T);
    const { lines, log } = warnings();
    const budget = new RateBudget({ rateLimitPerMin: 600, marginMs: 0, log });
    const gate = budgetGate(budget, clock, "order_reads");
    const first = await releasedAt(clock, gate("GET", READ));
    first.ticket?.(limited(300_000));
    const second = await releasedAt(clock, gate("GET", READ));
    expect(second.at).toBe(60_000);
    // Still limited: the exchange says so again (the same episode), and is honoured again, capped.
    second.ticket?.(limited(240_000));
    const third = await releasedAt(clock, gate("GET", READ));
    expect(third.at).toBe(120_000);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toMatch(/Retry-After/);
    expect(lines[0]?.obj).toMatchObject({ op: "order_reads", retryAfterMs: 300_000, heldMs: 60_000 });
    // An answer that is not an over-long 429 ends the episode: the next one is reported again.
    third.ticket?.(ok);
    // After a hold the reads go one at a time at the bucket's rate (600 a minute: one per 100 ms).
    const fourth = await releasedAt(clock, gate("GET", READ));
    expect(fourth.at).toBe(120_100);
    fourth.ticket?.(limited(3_600_000));
    expect(lines).toHaveLength(2);
    expect((await releasedAt(clock, gate("GET", READ))).at).toBe(180_100);
    expect(GATE_MAX_BLOCK_MS).toBe(60_000);
  });

  it("honours a Retry-After within the cap exactly, without a warning", async () => {
    const clock = new SimClock(T);
    const { lines, log } = warnings();
    const budget = new RateBudget({ rateLimitPerMin: 600, marginMs: 0, log });
    const gate = budgetGate(budget, clock, "order_reads");
    (await releasedAt(clock, gate("GET", READ))).ticket?.(limited(45_000));
    expect((await releasedAt(clock, gate("GET", READ))).at).toBe(45_000);
    expect(lines).toEqual([]);
  });

  it("a 503 carrying Retry-After: 300 holds nothing (not a rate limit; the client's retry policy owns it)", async () => {
    const clock = new SimClock(T);
    const budget = new RateBudget({ rateLimitPerMin: 600, marginMs: 0 });
    const gate = budgetGate(budget, clock, "order_reads");
    (await releasedAt(clock, gate("GET", READ))).ticket?.({
      status: 503,
      code: "exchange_unavailable",
      rateLimit: undefined,
      retryAfterMs: 300_000,
    });
    expect((await releasedAt(clock, gate("GET", READ))).at).toBe(0);
  });
});

describe("budgetGate: a wait whose caller has gone", () => {
  it("ends when the caller's signal aborts: no token is spent, no timer left, the wait is rejected", async () => {
    const clock = new SimClock(T);
    const budget = new RateBudget({ rateLimitPerMin: 600, marginMs: 0 });
    budget.block("order_reads", T, 30_000);
    const gate = budgetGate(budget, clock, "order_reads");
    const closed = new AbortController();
    const wait = gate("GET", READ, closed.signal);
    let outcome = "pending";
    void wait?.then(
      () => {
        outcome = "released";
      },
      () => {
        outcome = "rejected";
      },
    );
    await flush();
    expect(clock.nextDeadline()).toBe(T + 30_000);
    closed.abort();
    await flush();
    expect(outcome).toBe("rejected");
    expect(clock.nextDeadline()).toBeUndefined();
    clock.advanceTo(T + 60_000);
    await flush();
    // The 100-token burst of the 600-a-minute wallet is whole: nothing was spent for the gone caller.
    expect(budget.available("order_reads", clock.now())).toBe(100);
    expect(outcome).toBe("rejected");
  });

  it("asked with an already aborted signal, takes no token", async () => {
    const clock = new SimClock(T);
    const budget = new RateBudget({ rateLimitPerMin: 600, marginMs: 0 });
    const gate = budgetGate(budget, clock, "order_reads");
    const wait = gate("GET", READ, AbortSignal.abort());
    await expect(wait).rejects.toThrow();
    expect(budget.available("order_reads", clock.now())).toBe(100);
  });
});
