import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { SignFailures, signFailureCountEveryMs } from "../../../src/engine/sign-failures.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { Harness, type HarnessOptions } from "./support/harness.js";
import { testSign } from "./support/sign.js";

/*
 * Signing failures count towards the error-rate halt at most one per windowMs / (2 × maxErrors)
 * (1.5 s at the default 10 in 30 s). They spend no rate token, so only the requote rate bounded them:
 * a signer hiccup of about a second while 50 tokens requoted failed ~100 placements at once and
 * tripped the default halt alone, where the same blip at the exchange would have been paced by the
 * place bucket. Paced so, a failure shorter than about half the window cannot trip the halt alone,
 * while a signer that keeps failing (placements still attempted) still trips it within the window:
 * counted failures are less than twice the pace apart, window / maxErrors, whatever maxErrors is.
 */

const DEFAULT_RATE = { maxErrors: 10, windowMs: 30_000, coolDownMs: 60_000, ignoreCodes: [] };
const risk = { errorRate: DEFAULT_RATE };

function breakable(broken: boolean) {
  const state = { broken };
  const sign: NonNullable<HarnessOptions["sign"]> = (markets) => async (i) => {
    if (state.broken) throw new Error("signer unavailable");
    return testSign(i, markets);
  };
  return { state, sign };
}

const halted = (h: Harness) => h.logs.records().some((r) => r.msg === "risk: error_rate_halt");

describe("engine: signing failures and the error-rate halt", () => {
  it("a one-second signer hiccup while 50 tokens requote does not trip the default halt", async () => {
    const { state, sign } = breakable(false);
    const h = new Harness({ risk, sign, markets: 25 });
    const tokens = h.markets.map((m) => m.tokenId);
    expect(tokens).toHaveLength(50);
    for (const t of tokens) h.crowdQuote(t, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(2_000);
    await starting;
    await h.run(2_000);
    state.broken = true;
    // Every book moves while the signer is down: every token requotes its bid and ask.
    for (const t of tokens) h.crowdQuote(t, "0.47", "0.51");
    await h.run(500);
    for (const t of tokens) h.crowdQuote(t, "0.48", "0.52");
    await h.run(500);
    state.broken = false;
    for (const t of tokens) h.crowdQuote(t, "0.47", "0.51");
    await h.run(2_000);
    const failed = h.eventsOf("place_outcome").filter((e) => e.code === "sign_failed").length;
    expect(failed).toBeGreaterThan(50);
    expect(halted(h)).toBe(false);
    expect(h.logs.records().filter((r) => r.msg === "signing works again")).toHaveLength(1);
  });

  it("a signer that keeps failing trips the default halt, within the window", async () => {
    const { sign } = breakable(true);
    const h = new Harness({ risk, sign });
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    const firstAt = h.clock.now();
    // A moving book: every second the token asks for a new bid and ask, and signing fails each time.
    let k = 0;
    for (; k < 30 && !halted(h); k++) {
      h.crowdQuote(a, k % 2 === 0 ? "0.47" : "0.48", k % 2 === 0 ? "0.51" : "0.52");
      await h.run(1_000);
    }
    expect(halted(h)).toBe(true);
    // The 11th counted trips it: at one per 1.5 s at the soonest (15 s); failing once a second, one
    // per 2 s is counted (21 s). Counted ones are never 3 s (window / maxErrors) apart or more.
    expect(h.clock.now() - firstAt).toBeGreaterThanOrEqual(15_000);
    expect(h.clock.now() - firstAt).toBeLessThanOrEqual(DEFAULT_RATE.windowMs);
  });
});

describe("SignFailures: counting towards the halt", () => {
  const f = { tokenId: "t", clientOrderId: "c", err: new Error("x") };
  const make = (everyMs: number) => new SignFailures(pino({ level: "debug" }, collectingStream()), everyMs);

  it("counts the first failure, then one per countEveryMs, across episodes", () => {
    const sf = make(1_500);
    const counted = [0, 10, 1_499, 1_500, 1_600].map((t) => sf.failed(100_000 + t, f));
    expect(counted).toEqual([true, false, false, true, false]);
    sf.signed(101_700, 101_800); // the episode ends; a signer failing on and off is paced all the same
    expect(sf.failed(101_900, f)).toBe(false);
    expect(sf.failed(103_000, f)).toBe(true);
  });

  it("counts every failure with countEveryMs 0", () => {
    const sf = make(0);
    expect([sf.failed(5, f), sf.failed(5, f), sf.failed(4, f)]).toEqual([true, true, true]);
  });

  it("a clock stepped back moves the last count's time with it", () => {
    const sf = make(1_500);
    expect(sf.failed(1_000_000, f)).toBe(true);
    expect(sf.failed(400_000, f)).toBe(false); // 10 minutes back: the same instant, elapsed-wise
    expect(sf.failed(401_500, f)).toBe(true);
  });

  it("derives the pace from the halt's settings: 2 × maxErrors per window", () => {
    expect(signFailureCountEveryMs(DEFAULT_RATE)).toBe(1_500);
    expect(signFailureCountEveryMs({ maxErrors: 1, windowMs: 30_000 })).toBe(15_000);
  });
});
