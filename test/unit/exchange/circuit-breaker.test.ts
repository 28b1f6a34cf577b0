import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import {
  type BreakerSnapshot,
  type BreakerState,
  CircuitBreaker,
  defaultBreakerVerdict,
} from "../../../src/exchange/circuit-breaker.js";
import { ExchangeError, type ExchangeOutcome } from "../../../src/exchange/exchange-error.js";

function err(code: string, outcome: ExchangeOutcome, httpStatus?: number): ExchangeError {
  return new ExchangeError({ code, message: code, outcome, endpoint: "GET /x", httpStatus });
}

const fail500 = () => Promise.reject(err("http_error", "ambiguous", 500));
const ok = () => Promise.resolve("ok");

async function runMany(b: CircuitBreaker, results: ("ok" | "fail")[]): Promise<void> {
  for (const r of results) {
    await b.run("GET /x", r === "ok" ? ok : fail500, defaultBreakerVerdict).catch(() => undefined);
  }
}

function setup(minRequests = 10) {
  const clock = new SimClock(0);
  const changes: [BreakerState, BreakerState, BreakerSnapshot][] = [];
  const breaker = new CircuitBreaker(clock, { minRequests }, (snap, prev) =>
    changes.push([prev, snap.state, snap]),
  );
  return { clock, breaker, changes };
}

describe("CircuitBreaker", () => {
  it("stays closed at exactly 50% failures and opens above it", async () => {
    const { breaker } = setup();
    await runMany(breaker, [..."ok ok ok ok ok".split(" "), ..."fail fail fail fail fail".split(" ")] as (
      | "ok"
      | "fail"
    )[]);
    expect(breaker.snapshot()).toMatchObject({
      state: "closed",
      requests: 10,
      failures: 5,
      failureRatio: 0.5,
    });
    await runMany(breaker, ["fail"]);
    expect(breaker.state).toBe("open");
  });

  it("does not act below the minimum request count", async () => {
    const { breaker } = setup(10);
    await runMany(breaker, Array(9).fill("fail"));
    expect(breaker.snapshot()).toMatchObject({ state: "closed", failures: 9, failureRatio: 1 });
  });

  it("forgets failures older than 30 s", async () => {
    const { clock, breaker } = setup();
    await runMany(breaker, Array(5).fill("fail"));
    clock.advanceBy(30_000); // those five leave the window (strictly older than 30 s no longer count)
    await runMany(breaker, [...Array(5).fill("ok"), ...Array(4).fill("fail")]);
    expect(breaker.snapshot()).toMatchObject({ state: "closed", requests: 9, failures: 4 });
    clock.advanceBy(29_999);
    await runMany(breaker, ["fail", "fail"]);
    expect(breaker.snapshot()).toMatchObject({ state: "open" });
  });

  it("fails fast while open, probes after 60 s, and closes on a successful probe", async () => {
    const { clock, breaker, changes } = setup();
    await runMany(breaker, [...Array(4).fill("ok"), ...Array(6).fill("fail")]);
    expect(breaker.snapshot()).toMatchObject({ state: "open", opensUntil: 60_000 });
    let called = 0;
    const counted = () => {
      called++;
      return Promise.resolve("sent");
    };
    const rejected = await breaker.run("GET /x", counted, defaultBreakerVerdict).catch((e: unknown) => e);
    expect(called).toBe(0);
    expect(rejected).toBeInstanceOf(ExchangeError);
    expect(rejected).toMatchObject({ code: "circuit_open", outcome: "retryable", retryAfterMs: 60_000 });

    clock.advanceBy(59_999);
    expect(breaker.state).toBe("open");
    clock.advanceBy(1);
    expect(breaker.state).toBe("half-open");

    // One probe at a time: a second request while the probe is in flight fails fast.
    let release: (v: string) => void = () => undefined;
    const probe = breaker.run(
      "GET /x",
      () => new Promise<string>((r) => (release = r)),
      defaultBreakerVerdict,
    );
    await expect(breaker.run("GET /x", ok, defaultBreakerVerdict)).rejects.toMatchObject({
      code: "circuit_open",
    });
    release("pong");
    await expect(probe).resolves.toBe("pong");
    expect(breaker.snapshot()).toMatchObject({ state: "closed", requests: 0, failures: 0 });
    expect(changes.map(([from, to]) => `${from}->${to}`)).toEqual([
      "closed->open",
      "open->half-open",
      "half-open->closed",
    ]);
  });

  it("reopens for another 60 s when the probe fails", async () => {
    const { clock, breaker, changes } = setup();
    await runMany(breaker, Array(10).fill("fail"));
    clock.advanceBy(60_000);
    await runMany(breaker, ["fail"]);
    expect(breaker.snapshot()).toMatchObject({ state: "open", opensUntil: 120_000 });
    clock.advanceBy(60_000);
    await runMany(breaker, ["ok"]);
    expect(breaker.state).toBe("closed");
    expect(changes.map(([, to]) => to)).toEqual(["open", "half-open", "open", "half-open", "closed"]);
  });

  it("counts rejects as healthy answers and ignores 429 and its own fail-fast errors", async () => {
    expect(defaultBreakerVerdict(err("bad_signature", "rejected", 400))).toBe("success");
    expect(defaultBreakerVerdict(err("rate_limited", "retryable", 429))).toBe("ignore");
    expect(defaultBreakerVerdict(err("circuit_open", "retryable"))).toBe("ignore");
    expect(defaultBreakerVerdict(err("exchange_unavailable", "retryable", 503))).toBe("failure");
    expect(defaultBreakerVerdict(err("connect_failed", "retryable"))).toBe("failure");
    expect(defaultBreakerVerdict(new TypeError("bug"))).toBe("ignore");

    const { breaker } = setup();
    for (let i = 0; i < 20; i++) {
      await breaker
        .run("GET /x", () => Promise.reject(err("rate_limited", "retryable", 429)), defaultBreakerVerdict)
        .catch(() => 0);
      await breaker
        .run("GET /x", () => Promise.reject(err("not_cancellable", "rejected", 409)), defaultBreakerVerdict)
        .catch(() => 0);
    }
    expect(breaker.snapshot()).toMatchObject({ state: "closed", requests: 20, failures: 0 });
  });

  it("ignores placements answered 503 exchange_unavailable (a freeze), so cancels and reads still go", async () => {
    const { breaker } = setup();
    const frozen = new ExchangeError({
      code: "exchange_unavailable",
      message: "frozen",
      outcome: "retryable",
      endpoint: "POST /api/orders/place",
      httpStatus: 503,
    });
    expect(defaultBreakerVerdict(frozen)).toBe("ignore");
    for (let i = 0; i < 20; i++) {
      await breaker
        .run("POST /api/orders/place", () => Promise.reject(frozen), defaultBreakerVerdict)
        .catch(() => 0);
    }
    expect(breaker.state).toBe("closed");
    await expect(breaker.run("POST /api/orders/cancel", ok, defaultBreakerVerdict)).resolves.toBe("ok");
    // The exchange itself unreachable still opens it: the same code on reads and cancels counts.
    await runMany(breaker, Array(10).fill("fail"));
    const unreachable = err("exchange_unavailable", "retryable", 503);
    expect(defaultBreakerVerdict(unreachable)).toBe("failure");
    expect(breaker.state).toBe("open");
  });
});
