import { describe, expect, it } from "vitest";
import { PAPER_RATE_MARGIN_MS } from "../../../src/app/paper-daemon.js";
import { place, rig, runUntil } from "./order-queue.helpers.js";

/**
 * Paper's mock counts a request when its handler runs in mm's own event loop. Under CPU load the
 * start burst's placements were counted 300–900 ms after mm sent them (answered that late), so the
 * mock's 50-per-second window took them and the next second's sends too, and answered 18–22 of them
 * 429. Modelled here: the exchange counts what is sent in the first half second 900 ms late (the
 * loop busy with the start), later sends at once, its windows beginning at 500 ms, 1500 ms…
 */
describe("OrderQueue: a start burst counted late by the exchange (paper's in-process mock under load)", () => {
  async function startBurst(marginMs: number): Promise<{ sent: number; limited: number }> {
    let lagMs = 900;
    const r = rig({
      budget: { marginMs },
      queue: { concurrency: 100, stillDesired: () => true },
      port: { phaseMs: 500, latency: () => ({ inMs: lagMs, outMs: 5 }) },
    });
    // 72 quotes (the paper scenario's 18 tokens, two bands a side), all wanted at once.
    for (let t = 0; t < 18; t++) {
      for (const side of ["buy", "sell"] as const) {
        for (const level of [0, 1]) {
          r.queue.enqueue(place(`p-${t}-${side}-${level}`, { token: `t${t}`, side, level, urgency: 9 }));
        }
      }
    }
    await runUntil(r.clock, 500);
    lagMs = 0;
    await runUntil(r.clock, 10_000);
    return { sent: r.port.of("place").length, limited: r.port.of("place").filter((c) => c.limited).length };
  }

  it("with the live margin (50 ms) the burst's next second is answered 429", async () => {
    const { limited } = await startBurst(50);
    expect(limited).toBeGreaterThan(10);
  });

  it("with paper's margin every placement is taken at its first send", async () => {
    expect(PAPER_RATE_MARGIN_MS).toBeGreaterThanOrEqual(900);
    expect(await startBurst(PAPER_RATE_MARGIN_MS)).toEqual({ sent: 72, limited: 0 });
  });
});
