import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { HttpTransport } from "../../../src/exchange/transport.js";
import { silentLogger } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server.js";

// Session 17: a Retry-After given as an HTTP-date was measured against the host's clock. The date is
// written on the exchange's clock, which the transport already estimates from X-Server-Time (the
// order expiry uses it): a host an hour behind read "in 5 s" as an hour and 5 s.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const SERVER_NOW = Date.parse("2026-06-01T00:00:00Z");
const IN_FIVE_SECONDS = "Mon, 01 Jun 2026 00:00:05 GMT";

async function limitedAnswer(hostSkewMs: number, serverTime: boolean): Promise<number | undefined> {
  const server: TestServer = await startTestServer((_req, res) =>
    sendJson(
      res,
      429,
      { status: 429, error: { code: "rate_limited", message: "slow down", trace_id: "t" } },
      { "retry-after": IN_FIVE_SECONDS, ...(serverTime ? { "x-server-time": SERVER_NOW } : {}) },
    ),
  );
  // A SimClock that does not move: the round trip reads 0 ms, so the offset estimate is exact.
  const transport = new HttpTransport({
    baseUrl: server.url,
    clock: new SimClock(SERVER_NOW + hostSkewMs),
    logger: silentLogger(),
    timeoutMs: 5_000,
  });
  cleanups.push(async () => {
    transport.close();
    await server.close();
  });
  const res = await transport.send({ method: "GET", route: "/api/orders/open", path: "/api/orders/open" });
  return res.retryAfterMs;
}

describe("Retry-After as an HTTP-date", () => {
  it("is measured against the exchange's clock (X-Server-Time) on a host an hour behind", async () => {
    expect(await limitedAnswer(-3_600_000, true)).toBe(5_000);
  });

  it("is measured against the exchange's clock on a host ahead by more than the wait", async () => {
    expect(await limitedAnswer(30_000, true)).toBe(5_000);
  });

  it("falls back to the host's clock before any X-Server-Time was seen", async () => {
    expect(await limitedAnswer(-3_000, false)).toBe(8_000);
  });
});
