import { describe, expect, it } from "vitest";
import { latencyLane } from "../../../src/backtest/sim/latency.js";
import { Pump } from "../../../src/backtest/sim/pump.js";
import { VenueExchange } from "../../../src/backtest/sim/venue-exchange.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Address } from "../../../src/core/types.js";
import type { SimVenue } from "../../../src/venue/sim-venue.js";
import { placeRequest } from "../../integration/exchange/helpers.js";

/** Only what VenueExchange.place touches: every placement rejected with `code`. */
function rejectingVenue(code: string): SimVenue {
  return { place: () => ({ status: "REJECTED", code }) } as unknown as SimVenue;
}

/**
 * The spec's error catalogue: insufficient_funds and matcher_error are "200 (envelope)" (the mock
 * answers a placement's 201 with the reject in the body), market_not_open 409, the validation
 * codes 400. A replay reported insufficient_funds with 400 — a status no paper or live run logs for
 * it, and the one the spec gives to "fix the client" rejects.
 */
describe("backtest: a rejected placement carries the status the exchange answers it with", () => {
  it.each([
    ["insufficient_funds", 201],
    ["matcher_error", 201],
    ["market_not_open", 409],
    ["invalid_amounts", 400],
    ["expired", 400],
  ])("%s → %i", async (code, status) => {
    const clock = new SimClock(1_750_000_000_000);
    const pump = new Pump(clock);
    const ex = new VenueExchange(rejectingVenue(code), "0xbot" as Address, clock, {
      entry: latencyLane(0, 1, "entry"),
      response: latencyLane(0, 1, "response"),
    });
    const answer = ex.place(placeRequest());
    await pump.advanceTo(clock.now() + 10);
    const out = await answer;
    expect(out.kind).toBe("rejected");
    expect(out.kind === "rejected" ? { code: out.code, status: out.error.httpStatus } : out).toEqual({
      code,
      status,
    });
  });
});
