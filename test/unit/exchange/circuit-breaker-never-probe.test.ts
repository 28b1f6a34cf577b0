import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import {
  type BreakerState,
  CircuitBreaker,
  defaultBreakerVerdict,
} from "../../../src/exchange/circuit-breaker.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";

/*
 * A call that must never be the breaker's half-open probe (RunOptions.neverProbe: the engine's
 * market status reads). The half-open state lets one request through, and its answer decides for
 * every request after it, cancels included: a failing status read taken as the probe (the public
 * market service down while the orders work) re-opened the breaker for another 60 s and kept the
 * cancels out. Such a call now fails fast while half-open and leaves the probe to another request.
 */

const fail503 = () =>
  Promise.reject(
    new ExchangeError({
      code: "exchange_unavailable",
      message: "down",
      outcome: "retryable",
      endpoint: "GET /x",
      httpStatus: 503,
    }),
  );

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
