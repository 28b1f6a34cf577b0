import { describe, expect, it } from "vitest";
import { withExpiry } from "../../../src/app/order-expiry.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { ServerClock } from "../../../src/exchange/server-clock.js";
import type { OrderBuilder, OrderRequest } from "../../../src/signing/order-builder.js";
import { SteppedClock } from "../../support/stepped-clock.js";
import { serverAnswer } from "./server-answer.js";

const request = { side: "buy", price: "0.5", quantity: "1", expiry: 0 } as unknown as OrderRequest;

describe("ServerClock across a step of our wall clock", () => {
  it("keeps the exchange's time when NTP steps our clock back: orders are not signed already expired", async () => {
    // The exchange's clock is the SimClock's time; ours runs 5 min ahead of it (a VM resumed).
    const sim = new SimClock(1_700_000_000_000);
    const wall = new SteppedClock(sim);
    wall.stepMs = 300_000;
    const server = new ServerClock(wall);
    for (let i = 0; i < 20; i++) serverAnswer(sim, wall, server);
    expect(server.serverNow()).toBe(sim.now());
    // NTP corrects our clock: it steps back 5 min and now agrees with the exchange's.
    wall.stepMs = 0;
    const expiries: number[] = [];
    const builder = {
      build: async (r: OrderRequest) => {
        expiries.push(r.expiry ?? 0);
        return {};
      },
    } as unknown as OrderBuilder;
    await withExpiry(builder, 60, () => server.serverNow()).build(request);
    // The exchange refuses `expired` an expiration at or before its now: this one must lie 60 s ahead.
    expect(expiries[0]).toBe(Math.floor(sim.now() / 1000) + 60);
    expect(server.offsetMs).toBe(0);
  });
});
