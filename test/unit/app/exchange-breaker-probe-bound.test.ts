import { describe, expect, it } from "vitest";
import { exchangeClient, keylessClient } from "../../../src/app/exchange.js";
import { loadConfig } from "../../../src/config/load.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { defaultBreakerVerdict } from "../../../src/exchange/circuit-breaker.js";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { fail503At, silentLogger } from "../../support/exchange-fixtures.js";
import { makeApiKey } from "../config/support.js";

/*
 * 83d3f09 let a market status read (RunOptions.neverProbe) take the breaker's half-open probe once
 * none went out for 60 s. With reconcile.intervalMs above that and no order traffic, a status read
 * of a failing public market service (the orders working) took the probe before the reconcile's
 * reads, re-opened the breaker for another 60 s and failed the cancels with it, again each pause,
 * until a reconcile landed in a half-open window. The keyed client's bound is now
 * max(60 s, reconcile.intervalMs); the keyless one (no reconcile goes through it) keeps 60 s.
 */

const OPEN_MS = 60_000; // config/default.json's circuitBreaker.openMs

const fail503 = fail503At("GET /api/markets");
const ok = () => Promise.resolve("ok");

/** Opens the client's breaker with failures (config minRequests), then waits out the pause. */
async function halfOpen(client: ExchangeHttpClient, clock: SimClock): Promise<void> {
  for (let i = 0; i < 20 && client.breaker.state === "closed"; i++)
    await client.breaker.run("GET /api/markets", fail503, defaultBreakerVerdict).catch(() => undefined);
  expect(client.breaker.state).toBe("open");
  clock.advanceBy(OPEN_MS);
  expect(client.breaker.state).toBe("half-open");
}

/** Whether a status read (never the probe unless overdue) is sent `afterMs` into the half-open state. */
async function statusReadSent(
  client: ExchangeHttpClient,
  clock: SimClock,
  afterMs: number,
): Promise<boolean> {
  clock.advanceBy(afterMs);
  const res = await client.breaker
    .run("GET /api/markets", ok, defaultBreakerVerdict, { neverProbe: true })
    .catch((e: unknown) => e);
  if (res === "ok") return true;
  expect(res).toMatchObject({ code: "circuit_open" });
  return false;
}

function configWith(intervalMs: number) {
  return loadConfig({
    env: { MM_API_KEY: makeApiKey().key, MM_RECONCILE_INTERVAL_MS: String(intervalMs) },
  });
}

/**
 * A client made by `make` from a config whose reconcile period is `intervalMs`, on a SimClock, its
 * breaker brought half-open (halfOpen); runs `body` on it, then closes it.
 */
async function onHalfOpen(
  make: typeof exchangeClient,
  intervalMs: number,
  body: (client: ExchangeHttpClient, clock: SimClock) => Promise<void>,
): Promise<void> {
  const clock = new SimClock(0);
  const client = make(configWith(intervalMs), clock, silentLogger());
  try {
    await halfOpen(client, clock);
    await body(client, clock);
  } finally {
    client.close();
  }
}

describe("the keyed client's breaker: a status read takes the half-open probe", () => {
  it("only after the reconcile period, when it is longer than 60 s", async () => {
    await onHalfOpen(exchangeClient, 180_000, async (client, clock) => {
      // Was: sent at 60 s, the probe taken before the reconcile's reads.
      expect(await statusReadSent(client, clock, 60_000)).toBe(false);
      expect(await statusReadSent(client, clock, 119_999)).toBe(false);
      expect(await statusReadSent(client, clock, 1)).toBe(true);
      expect(client.breaker.state).toBe("closed");
    });
  });

  it("after 60 s with a shorter reconcile period (the default 30 s)", async () => {
    await onHalfOpen(exchangeClient, 30_000, async (client, clock) => {
      expect(await statusReadSent(client, clock, 59_999)).toBe(false);
      expect(await statusReadSent(client, clock, 1)).toBe(true);
    });
  });

  it("after 60 s on the keyless client, whatever the reconcile period", async () => {
    await onHalfOpen(keylessClient, 180_000, async (client, clock) => {
      expect(await statusReadSent(client, clock, 59_999)).toBe(false);
      expect(await statusReadSent(client, clock, 1)).toBe(true);
    });
  });
});
