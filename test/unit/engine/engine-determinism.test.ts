import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";
import type { VenueCall } from "./support/venue-exchange.js";

// A fixed 10 s horizon keeps γσ²(T − t) small on this jumpy tape (σ ≈ 0.04/√s): with the 1 h close
// the model's prices lie beyond [tick, 1 − tick] and it quotes nothing.
const AS_ONLINE = {
  name: "avellaneda-stoikov",
  params: { gamma: 1, k: 50, orderSize: "10", horizonSeconds: 10 },
};
const MIDS = [50, 51, 53, 52, 49, 47, 48, 50, 52, 55, 54, 51];

/**
 * One fixed event sequence: two markets, the crowd moving the mids, takers hitting the quotes, a
 * market pause, a reconnect, an ambiguous answer, then a stop; 7 ms of exchange latency so that
 * answers interleave with the next events. Returns every exchange call and engine event.
 */
async function scenario(strategy: unknown): Promise<{ calls: VenueCall[]; events: string[] }> {
  const h = new Harness({
    markets: 2,
    latencyMs: 7,
    strategy,
    options: { volatility: { halfLifeMs: 5_000, minSamples: 3 }, reconcileIntervalMs: 2_000 },
  });
  h.exchange.scriptPlace({ kind: "ambiguous_after" });
  const starting = h.engine.start();
  await h.run(100);
  await starting;
  for (let step = 0; step < 36; step++) {
    for (const i of [1, 2]) {
      const mid = (MIDS[(step + i * 3) % MIDS.length] ?? 50) / 100;
      h.crowdQuote(h.tokens(i)[0], (mid - 0.02).toFixed(2), (mid + 0.02).toFixed(2));
    }
    if (step % 5 === 4)
      h.take(h.tokens(1)[0], step % 2 === 0 ? "sell" : "buy", step % 2 === 0 ? "0.01" : "0.99", "105");
    if (step === 12) h.venue.setMarketStatus("m2", "PAUSED");
    if (step === 18) h.venue.setMarketStatus("m2", "OPEN");
    if (step === 24) h.engine.onReconnect();
    await h.run(250);
  }
  const stopping = h.engine.stop("test", 5_000);
  await h.run(5_000);
  await stopping;
  const events = h.events.map((e) => `${e.atMs} ${e.type}${"tokenId" in e ? ` ${e.tokenId}` : ""}`);
  return { calls: h.exchange.calls, events };
}

describe("engine determinism on a SimClock", () => {
  for (const [name, strategy] of [
    ["bands", undefined],
    ["avellaneda-stoikov with online σ", AS_ONLINE],
  ] as const) {
    it(`the same events give the same exchange calls, in the same order, at the same times (${name})`, async () => {
      const a = await scenario(strategy);
      const b = await scenario(strategy);
      expect(a.calls.filter((c) => c.op === "place").length).toBeGreaterThan(20);
      expect(a.events.some((e) => e.includes(" fill"))).toBe(true);
      expect(b.calls).toEqual(a.calls);
      expect(b.events).toEqual(a.events);
    });
  }
});
