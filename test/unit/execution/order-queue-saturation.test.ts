import { describe, expect, it } from "vitest";
import { SaturationSim } from "./order-queue.saturation.js";

/*
 * 500 tokens, each requoting both sides every 200 ms (5,000 placement intents/s), against a fake port
 * that enforces the spec's fixed windows at a random phase. Goal: ≥ 90% of the binding place budget
 * used, zero 429s.
 */
describe("OrderQueue saturation (500 tokens, SimClock)", () => {
  it("baseline limits: the per-IP 1000/60 s bucket binds; ≥ 90% of it used, zero 429s", async () => {
    const sim = new SaturationSim({
      tokens: 500,
      requoteEveryMs: 200,
      rateLimitPerMin: 600,
      ipLimitFactor: 1,
      seed: 1,
    });
    await sim.advance(60); // warm-up spends the initial bursts
    sim.markStart();
    await sim.advance(60);
    const res = sim.result();
    expect(res.bindingPerSecond).toBeCloseTo(1000 / 60, 6);
    expect(res.responses429).toBe(0);
    expect(res.utilisation).toBeGreaterThanOrEqual(0.9);
    expect(res.utilisation).toBeLessThanOrEqual(1);
    // Calm requotes were shed and stale ones superseded rather than sent late.
    expect(res.shed).toBeGreaterThan(0);
    expect(res.superseded).toBeGreaterThan(0);
  }, 120_000);

  it("whitelisted IP (×10): the per-wallet 50/s bucket binds; ≥ 90% of it used, zero 429s", async () => {
    const sim = new SaturationSim({
      tokens: 500,
      requoteEveryMs: 200,
      rateLimitPerMin: 600,
      ipLimitFactor: 10,
      seed: 2,
    });
    await sim.advance(60);
    sim.markStart();
    await sim.advance(60);
    const res = sim.result();
    expect(res.bindingPerSecond).toBe(50);
    expect(res.responses429).toBe(0);
    expect(res.utilisation).toBeGreaterThanOrEqual(0.9);
    expect(res.utilisation).toBeLessThanOrEqual(1);
  }, 120_000);
});
