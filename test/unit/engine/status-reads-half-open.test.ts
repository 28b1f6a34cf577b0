import { describe, expect, it } from "vitest";
import type { ListedMarketStatus, MarketRead, MarketRecordStatus } from "../../../src/engine/ports.js";
import { failingMarketService } from "./support/breaker-rig.js";
import { Harness } from "./support/harness.js";

/*
 * The market status reads (the open-market sweep's list and records, the closed-market watch's
 * records) share the HTTP client's circuit breaker with the orders. Once it opened, the first
 * request after its pause is its one half-open probe, whose answer decides for every request:
 * a status read taken as the probe while the public market service still failed re-opened it for
 * another pause, and the cancels stayed out with it, for as long as the market service failed and
 * a status read came first. The status reads now never take the probe (MarketRead.neverProbe, the
 * list alike): they fail fast while the breaker is half-open, and the probe is left to a request
 * that matters more (a cancel, a reconcile read).
 */

const RECHECK_MS = 5_000;
/** The breaker's pause, a few sweep periods. */
const OPEN_MS = 3 * RECHECK_MS;

/**
 * Quiets `h`'s status logs, makes its public market service fail behind a breaker of its own
 * (opened by one failure, OPEN_MS pause), quotes the first token and starts the engine. `changes`
 * lists the breaker's state changes as `prev->state`.
 */
async function startWithMarketServiceFailing(h: Harness) {
  h.silentStatus = true;
  const service = failingMarketService(h, { minRequests: 1, openMs: OPEN_MS });
  const changes: string[] = [];
  service.breaker.onStateChange((snap, prev) => changes.push(`${prev}->${snap.state}`));
  const [a] = h.tokens(1);
  h.crowdQuote(a, "0.48", "0.52");
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  return { service, changes, a };
}

describe("status reads and the circuit breaker's half-open probe", () => {
  it("neither the sweep's nor the closed watch's reads take the probe", async () => {
    // m1 quoted (the sweep reads the list), m2 held PAUSED (the watch reads its record).
    const h = new Harness({
      markets: 2,
      latencyMs: 50,
      status: (i) => (i === 2 ? "PAUSED" : "OPEN"),
      options: { marketRecheckMs: RECHECK_MS },
    });
    const { service, changes } = await startWithMarketServiceFailing(h);

    // The first failing read opens the breaker; its pause ends, and periods pass while half-open.
    await h.run(RECHECK_MS);
    expect(changes).toEqual(["closed->open"]);
    const sent = service.requests;
    await h.run(OPEN_MS + 6 * RECHECK_MS);
    expect(service.breaker.state).toBe("half-open");
    expect(changes).toEqual(["closed->open", "open->half-open"]);
    expect(service.requests).toBe(sent);
  });

  /*
   * Unless the breaker stays half-open long with no probe: on a bot with no order traffic (a quiet
   * book, quoting halted, every market held closed) and a long reconcile period (up to an hour),
   * every status read failed fast, unsent, until the next reconcile, the exchange recovered or not.
   * Here only the status reads use the breaker: a status read takes the probe once the breaker has
   * been half-open for its neverProbeAfterMs (60 s) with no probe.
   */
  it("a status read takes the probe once none went out for neverProbeAfterMs, and closes a recovered breaker", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const { service, changes, a } = await startWithMarketServiceFailing(h);
    await h.run(RECHECK_MS);
    expect(changes).toEqual(["closed->open"]);
    service.down = false; // recovered during the pause
    await h.run(OPEN_MS + 50_000);
    expect(service.breaker.state).toBe("half-open");
    await h.run(10_000 + 2 * RECHECK_MS);
    expect(changes).toEqual(["closed->open", "open->half-open", "half-open->closed"]);
    expect(h.botQuotes(a)).toHaveLength(2);
  });

  it("the sweep's record reads, the confirm read and a by-slug read, are made never to probe", async () => {
    const h = new Harness({ markets: 3, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const reads = new Map<string, (MarketRead | undefined)[]>();
    // m1 PAUSED in the list (a confirm read), m2 left out (read by slug), m3 OPEN there.
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
      h.venue
        .markets()
        .filter((m) => m.marketId !== "m2")
        .map((m) => ({ marketId: m.marketId, status: m.marketId === "m1" ? "PAUSED" : m.status }));
    h.exchange.marketRecord = async ({ marketId }, read): Promise<MarketRecordStatus> => {
      reads.set(marketId, [...(reads.get(marketId) ?? []), read]);
      return { status: "OPEN" };
    };
    for (const i of [1, 2, 3]) {
      const [t] = h.tokens(i);
      h.crowdQuote(t, "0.48", "0.52");
    }
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    await h.run(2 * RECHECK_MS);
    for (const id of ["m1", "m2"]) {
      expect(reads.get(id)?.length).toBeGreaterThan(0);
      expect(reads.get(id)?.every((r) => r?.neverProbe === true)).toBe(true);
    }
    // The by-slug read is made once; the confirm read keeps the client's retries (README's retry policy).
    expect(reads.get("m2")?.every((r) => r?.once === true)).toBe(true);
    expect(reads.get("m1")?.every((r) => r?.once !== true)).toBe(true);
  });
});
