import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import {
  type BreakerState,
  CircuitBreaker,
  defaultBreakerVerdict,
} from "../../../src/exchange/circuit-breaker.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { fail503At } from "../../support/exchange-fixtures.js";

/*
 * A call that must never be the breaker's half-open probe (RunOptions.neverProbe: the engine's
 * market status reads). The half-open state lets one request through, and its answer decides for
 * every request after it, cancels included: a failing status read taken as the probe (the public
 * market service down while the orders work) re-opened the breaker for another 60 s and kept the
 * cancels out. Such a call now fails fast while half-open and leaves the probe to another request.
 */

const fail503 = fail503At("GET /x");

async function halfOpen(): Promise<{ breaker: CircuitBreaker; changes: string[] }> {
  const clock = new SimClock(0);
  const changes: string[] = [];
  const breaker = new CircuitBreaker(clock, { minRequests: 1 }, (snap, prev: BreakerState) =>
    changes.push(`${prev}->${snap.state}`),
  );
  await breaker.run("GET /x", fail503, defaultBreakerVerdict).catch(() => undefined);
  clock.advanceBy(60_000);
  expect(breaker.state).toBe("half-open");
  return { breaker, changes };
}

describe("CircuitBreaker: a call that never probes", () => {
  it("fails fast while half-open, unsent, and leaves the probe to the next call", async () => {
    const { breaker, changes } = await halfOpen();
    let sent = 0;
    const read = () => {
      sent++;
      return fail503();
    };
    const refused = await breaker
      .run("GET /api/markets", read, defaultBreakerVerdict, { neverProbe: true })
      .catch((e: unknown) => e);
    expect(sent).toBe(0);
    expect(refused).toMatchObject({ code: "circuit_open", outcome: "retryable" });
    expect(breaker.state).toBe("half-open");
    // The probe is still there for a call that may take it (a cancel), and its answer decides.
    await expect(breaker.run("DELETE /x", () => Promise.resolve("ok"), defaultBreakerVerdict)).resolves.toBe(
      "ok",
    );
    expect(changes).toEqual(["closed->open", "open->half-open", "half-open->closed"]);
  });

  it("is sent and counted as any call while the breaker is closed", async () => {
    const clock = new SimClock(0);
    const breaker = new CircuitBreaker(clock, { minRequests: 1 });
    await expect(
      breaker.run("GET /x", () => Promise.resolve("ok"), defaultBreakerVerdict, { neverProbe: true }),
    ).resolves.toBe("ok");
    await breaker.run("GET /x", fail503, defaultBreakerVerdict, { neverProbe: true }).catch(() => undefined);
    expect(breaker.snapshot()).toMatchObject({ state: "closed", requests: 2, failures: 1 });
    await breaker.run("GET /x", fail503, defaultBreakerVerdict, { neverProbe: true }).catch(() => undefined);
    expect(breaker.state).toBe("open");
  });
});

/*
 * But a breaker left half-open with no probe for long (a bot with no order traffic: a quiet book,
 * quoting halted, every market held closed, and a reconcile period of up to an hour) kept every
 * status read failing fast, unsent, the exchange recovered or not, until the next reconcile: a
 * silent pause or a reopening seen that late, the status-reads-failing gauge up meanwhile. Once
 * half-open for `neverProbeAfterMs` with no probe, such a call may take the probe.
 */
describe("CircuitBreaker: a call that never probes, the breaker half-open long with no probe", () => {
  it("takes the probe once no probe went out for neverProbeAfterMs, and its answer decides", async () => {
    const clock = new SimClock(0);
    const breaker = new CircuitBreaker(clock, { minRequests: 1, openMs: 1_000, neverProbeAfterMs: 5_000 });
    await breaker.run("GET /x", fail503, defaultBreakerVerdict).catch(() => undefined);
    clock.advanceBy(1_000);
    expect(breaker.state).toBe("half-open");
    const ok = () => Promise.resolve("ok");
    clock.advanceBy(4_999);
    await expect(
      breaker.run("GET /api/markets", ok, defaultBreakerVerdict, { neverProbe: true }),
    ).rejects.toMatchObject({ code: "circuit_open" });
    clock.advanceBy(1);
    await expect(
      breaker.run("GET /api/markets", ok, defaultBreakerVerdict, { neverProbe: true }),
    ).resolves.toBe("ok");
    expect(breaker.state).toBe("closed");
  });

  it("waits the bound again after a probe that decided nothing, and after a failed one re-opened it", async () => {
    const clock = new SimClock(0);
    const breaker = new CircuitBreaker(clock, { minRequests: 1, openMs: 1_000, neverProbeAfterMs: 5_000 });
    await breaker.run("GET /x", fail503, defaultBreakerVerdict).catch(() => undefined);
    clock.advanceBy(1_000 + 4_000);
    // A probe answered 429 (ignored): still half-open, the quiet starts again from its answer.
    const tooMany = new ExchangeError({
      code: "rate_limited",
      message: "slow down",
      outcome: "retryable",
      endpoint: "DELETE /x",
      httpStatus: 429,
    });
    await breaker
      .run("DELETE /x", () => Promise.reject(tooMany), defaultBreakerVerdict)
      .catch(() => undefined);
    expect(breaker.state).toBe("half-open");
    clock.advanceBy(4_000);
    const never = { neverProbe: true };
    await expect(breaker.run("GET /x", fail503, defaultBreakerVerdict, never)).rejects.toMatchObject({
      code: "circuit_open",
    });
    clock.advanceBy(1_000);
    // Overdue: it probes, fails, and the breaker re-opens; half-open again, the bound runs anew.
    await expect(breaker.run("GET /x", fail503, defaultBreakerVerdict, never)).rejects.toMatchObject({
      httpStatus: 503,
    });
    expect(breaker.state).toBe("open");
    clock.advanceBy(1_000);
    expect(breaker.state).toBe("half-open");
    await expect(breaker.run("GET /x", fail503, defaultBreakerVerdict, never)).rejects.toMatchObject({
      code: "circuit_open",
    });
  });
});
