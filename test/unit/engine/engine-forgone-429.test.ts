import { describe, expect, it } from "vitest";
import type { PlaceOrderRequest } from "../../../src/core/types.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import { Harness } from "./support/harness.js";

/**
 * The error-rate halt and placements answered 429. A paper start (load average ~6 on 2 cores) had
 * 18–22 placements of its first burst answered 429 by the in-process mock; each was re-queued, then
 * superseded by a newer quote during the 1 s hold, so its last answer was the 429, and counted, they
 * tripped `risk: error_rate_halt` 2 s after start: quoting stopped for 60 s over requests that
 * failed no order. Such a 429 no longer counts; an exchange answering every placement 429 still halts.
 */

/** Trips on the second counted error. */
const risk = { errorRate: { maxErrors: 1, windowMs: 30_000, coolDownMs: 60_000, ignoreCodes: [] } };

const halted = (h: Harness) => h.logs.records().some((r) => r.msg === "risk: error_rate_halt");

/** Answers the harness's placements 429 (Retry-After 1 s) while `limited()` says so. */
function limitPlacements(h: Harness, limited: () => boolean): () => number {
  const inner = h.exchange.place.bind(h.exchange);
  let answered = 0;
  h.exchange.place = (req: PlaceOrderRequest): Promise<PlaceOrderOutcome> => {
    if (!limited()) return inner(req);
    answered++;
    const error = new ExchangeError({
      code: "rate_limited",
      message: "rate limit exceeded",
      outcome: "retryable",
      endpoint: "POST /api/orders/place",
      httpStatus: 429,
      retryAfterMs: 1_000,
    });
    return Promise.resolve({ kind: "rejected", code: "rate_limited", retryable: true, error });
  };
  return () => answered;
}

describe("engine: 429s and the error-rate halt", () => {
  it("placements answered 429, then superseded during the hold, do not trip the halt", async () => {
    const h = new Harness({ risk });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    let limiting = true;
    const answered = limitPlacements(h, () => limiting);
    h.crowdQuote(yes, "0.52", "0.56"); // both levels requoted: both answered 429, re-queued
    await h.run(100);
    expect(answered()).toBe(2);
    limiting = false;
    h.crowdQuote(yes, "0.53", "0.57"); // the book moves during the hold: both superseded
    await h.run(3_000);
    expect(halted(h)).toBe(false);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.52 10", "sell 0.58 10"]);
    const rejected = h.eventsOf("place_outcome").filter((e) => e.outcome === "rejected");
    expect(rejected.map((e) => e.code)).toEqual(["rate_limited", "rate_limited"]);
  });

  it("an exchange answering every placement 429 still trips it, however fast the book moves", async () => {
    const h = new Harness({ risk });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    limitPlacements(h, () => true);
    // Mid 0.50 → 0.54 → 0.50 … every 300 ms: each quote is superseded within its 1 s hold.
    for (let i = 0; i < 40 && !halted(h); i++) {
      if (i % 2 === 0) h.crowdQuote(yes, "0.52", "0.56");
      else h.crowdQuote(yes, "0.48", "0.52");
      await h.run(300);
    }
    expect(halted(h)).toBe(true);
  });
});
