import { describe, expect, it } from "vitest";
import { SteppedClock } from "../../support/stepped-clock.js";
import { Harness, T0 } from "./support/harness.js";
import { testSign } from "./support/sign.js";

/*
 * The renewal timer's armed instant was a wall instant: after NTP stepped the host back 2 min, a
 * placement on another token (armed at its wall now + 54 s) looked earlier than the renewal armed
 * for the older quotes, replaced that timer, and on a quiet book those quotes expired on the
 * exchange (order_expired) ~24 s before the new timer came.
 */

const LIFETIME_S = 60;

describe("order renewal timer across a step back of the wall clock", () => {
  it("a placement on another token after the step does not push back the renewal of quotes placed before it", async () => {
    let wall: SteppedClock | undefined;
    const h: Harness = new Harness({
      markets: 2,
      engineClock: (x) => {
        wall = new SteppedClock(x);
        return wall;
      },
      sign: (markets) => async (i) => ({
        ...testSign(i, markets),
        expiry: Math.floor(h.clock.now() / 1000) + LIFETIME_S,
      }),
      options: { orderExpirySeconds: LIFETIME_S, orderRenewLeadMs: 5_000, reconcileIntervalMs: 600_000 },
    });
    const [a] = h.tokens(1);
    const [b] = h.tokens(2);
    h.crowdQuote(a, "0.48", "0.52");
    let expired = 0;
    h.venue.subscribe((e) => {
      if (e.type === "order_expired") expired++;
    });
    await h.engine.start();
    await h.run();
    expect(h.botOrders(a)).toHaveLength(2);
    await h.run(20_000);
    if (wall === undefined) throw new Error("engine clock not built");
    wall.stepMs = -120_000; // NTP steps the host back 2 min; elapsed time and the exchange's clock go on
    await h.run(10_000);
    h.crowdQuote(b, "0.48", "0.52"); // token b is quoted 30 s after a: its renewal armed after the step
    const gaps: number[] = [];
    for (let t = 0; t < 2 * LIFETIME_S * 1_000; t += 100) {
      await h.run(100);
      if (h.botQuotes(a).length !== 2) gaps.push(h.clock.now() - T0);
    }
    expect(h.botQuotes(b)).toHaveLength(2);
    expect({ expired, gaps: gaps.length, first: gaps[0] }).toEqual({ expired: 0, gaps: 0, first: undefined });
  });
});
