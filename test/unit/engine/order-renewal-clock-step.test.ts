import { describe, expect, it } from "vitest";
import { SteppedClock } from "../../support/stepped-clock.js";
import { Harness, T0 } from "./support/harness.js";
import { testSign } from "./support/sign.js";

/*
 * The renewal before on-chain expiry (signing.orderExpirySeconds) used to be timed on the orders'
 * wall stamps: NTP stepping the host clock back by 2 min held every renewal back 2 min, and the
 * quotes expired on the book (order_expired), both sides empty for ~114 s here. Their age is now
 * elapsed time, as their expiry on the exchange's clock is.
 */

const LIFETIME_S = 60;

/**
 * A started engine on a SteppedClock whose signer stamps expiries on the exchange's clock, `markets`
 * markets listed and the first one's YES quoted for `quotedMs` before it returns.
 */
async function started(
  markets = 1,
  quotedMs = 10_000,
): Promise<{ h: Harness; wall: SteppedClock; yes: string; expired: () => number }> {
  let wall: SteppedClock | undefined;
  const h: Harness = new Harness({
    markets,
    engineClock: (x) => {
      wall = new SteppedClock(x);
      return wall;
    },
    // Expiries on the exchange's clock (the SimClock), as withExpiry stamps them from ServerClock.
    sign: (markets) => async (i) => ({
      ...testSign(i, markets),
      expiry: Math.floor(h.clock.now() / 1000) + LIFETIME_S,
    }),
    options: { orderExpirySeconds: LIFETIME_S, orderRenewLeadMs: 5_000, reconcileIntervalMs: 600_000 },
  });
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.48", "0.52");
  let expired = 0;
  h.venue.subscribe((e) => {
    if (e.type === "order_expired") expired++;
  });
  await h.engine.start();
  await h.run();
  expect(h.botOrders(yes)).toHaveLength(2);
  await h.run(quotedMs);
  if (wall === undefined) throw new Error("engine clock not built");
  return { h, wall, yes, expired: () => expired };
}

describe("order renewal across a step of the wall clock", () => {
  it("replaces quotes before their expiry when NTP steps our clock back 2 min after they were placed", async () => {
    const { h, wall, yes, expired } = await started();
    wall.stepMs = -120_000; // the host ran 2 min ahead; the exchange's clock does not move
    const gaps: number[] = [];
    for (let t = 0; t < 3 * LIFETIME_S * 1_000; t += 100) {
      await h.run(100);
      if (h.botQuotes(yes).length !== 2) gaps.push(h.clock.now() - T0);
    }
    expect({ expired: expired(), gaps: gaps.length }).toEqual({ expired: 0, gaps: 0 });
  });

  /*
   * The renewal timer's armed instant was a wall instant: after NTP stepped the host back 2 min, a
   * placement on another token (armed at its wall now + 54 s) looked earlier than the renewal armed
   * for the older quotes, replaced that timer, and on a quiet book those quotes expired on the
   * exchange (order_expired) ~24 s before the new timer came.
   */
  it("a placement on another token after the step does not push back the renewal of quotes placed before it", async () => {
    const { h, wall, yes: a, expired } = await started(2, 20_000);
    const [b] = h.tokens(2);
    wall.stepMs = -120_000; // NTP steps the host back 2 min; elapsed time and the exchange's clock go on
    await h.run(10_000);
    h.crowdQuote(b, "0.48", "0.52"); // token b is quoted 30 s after a: its renewal armed after the step
    const gaps: number[] = [];
    for (let t = 0; t < 2 * LIFETIME_S * 1_000; t += 100) {
      await h.run(100);
      if (h.botQuotes(a).length !== 2) gaps.push(h.clock.now() - T0);
    }
    expect(h.botQuotes(b)).toHaveLength(2);
    expect({ expired: expired(), gaps: gaps.length, first: gaps[0] }).toEqual({
      expired: 0,
      gaps: 0,
      first: undefined,
    });
  });
});
