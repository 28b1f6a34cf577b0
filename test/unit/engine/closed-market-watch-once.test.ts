import { describe, expect, it } from "vitest";
import { failingMarketService } from "./support/breaker-rig.js";
import { Harness } from "./support/harness.js";

/*
 * The closed-market watch's record reads share the HTTP client's circuit breaker with the orders,
 * cancels included. They kept the client's retries (3 attempts a GET) while the open-market sweep's
 * were made once: a failing public market service cost that breaker three failures a period per
 * closed market the watch reached, for reads it makes again next period anyway. Now one attempt a
 * read (MarketRead.once): one request, one breaker failure a period.
 */

const RECHECK_MS = 5_000;

describe("closed-market watch: record reads against a failing market service", () => {
  it("cost the breaker one failure (one request) a period, not one per client attempt", async () => {
    // Two markets closed by their status; nothing OPEN, so the sweep reads nothing.
    const h = new Harness({
      markets: 2,
      latencyMs: 50,
      status: () => "PAUSED",
      options: { marketRecheckMs: RECHECK_MS },
    });
    h.silentStatus = true;
    // A breaker that never opens here, to count every failure.
    const service = failingMarketService(h, { minRequests: 1_000_000 });
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(service.requests).toBe(0);

    const PERIODS = 4;
    await h.run(RECHECK_MS * PERIODS);
    // A round ends at its first failed read: one read a period, made once.
    expect(service.requests).toBe(PERIODS);
    expect(service.breaker.snapshot().failures).toBe(PERIODS);
  });
});
