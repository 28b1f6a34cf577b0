import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import { CROWD, Harness, TAKER } from "./support/harness.js";

/**
 * The exchange has no naked shorts (src/core/trading.ts, Position): a SELL needs the shares, and a
 * resting ask keeps them reserved. The engine knows the wallet's absolute holding of each token
 * (baseline + position relative to it): asks never sum past it, counting the asks still live while
 * a cancel-replace is in flight.
 */
describe("engine asks are bounded by the shares the wallet holds", () => {
  it("a USDC-only wallet sends no SELL it cannot deliver, and is not halted by their rejects", async () => {
    const h = holding("0.000001"); // (the harness cannot credit 0)
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    // The mid wanders: a requote each time.
    for (let i = 0; i < 12; i++) {
      h.crowdQuote(yes, i % 2 === 0 ? "0.49" : "0.48", i % 2 === 0 ? "0.53" : "0.52");
      await h.run(100);
    }
    const sells = h.exchange.of("place").filter((c) => c.arg.split(" ")[1] === "sell");
    expect(sells).toEqual([]);
    expect(h.eventsOf("decision").filter((e) => e.decision.reason === "error_rate_halt")).toEqual([]);
    expect(h.botQuotes(yes).some((q) => q.startsWith("buy"))).toBe(true); // the bid keeps quoting
    // The dropped ask is a risk decision, logged once however many steps repeat it.
    const logged = h.logs.records().filter((r) => r.msg === "risk: insufficient_shares");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ action: "drop", side: "sell", tokenId: yes, cap: "0" });
  });

  it("once the bot buys shares it offers them, and no more", async () => {
    const h = holding("0.000001");
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.take(yes, "sell", "0.47", "104"); // our bid sells us 4: less than the 10-share band
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run();
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 4.000001"]);
    expect(h.eventsOf("place_outcome").filter((e) => e.outcome === "rejected")).toEqual([]);
  });

  it("a cancel-replace of an ask waits for the shares its predecessor still reserves", async () => {
    const h = holding("10", 50);
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    h.crowdQuote(yes, "0.49", "0.53"); // mid 0.51: the ask moves to 0.54, the bid to 0.48
    await h.run(500);

    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.48 10", "sell 0.54 10"]);
    // The old ask's 10 shares stayed reserved until its cancel landed: the new one waited.
    expect(h.eventsOf("place_outcome").filter((e) => e.outcome === "rejected")).toEqual([]);
    const held = h.eventsOf("decision").filter((e) => e.decision.reason === "in_flight_held");
    expect(new Set(held.map((e) => e.decision.side))).toEqual(new Set(["sell"]));
    // Logged (at debug) when it starts and when it clears, not on every step meanwhile.
    const logged = h.logs.records().filter((r) => /^risk: in[-_]flight/.test(String(r.msg)));
    expect(logged.map((r) => r.msg)).toEqual(["risk: in_flight_held", "risk: in-flight cleared"]);
    const asks = h.exchange.of("place").filter((c) => c.arg.split(" ")[1] === "sell");
    const cancels = h.exchange.of("cancel");
    expect(asks).toHaveLength(2);
    expect(cancels.length).toBeGreaterThan(0);
    // The replacement left only after the exchange had the cancel of the old ask.
    expect((asks[1]?.atMs ?? 0) >= (cancels[0]?.atMs ?? Number.POSITIVE_INFINITY)).toBe(true);
  });

  it("with room for part of it, the replacement ask is clipped, then topped up", async () => {
    const h = holding("15", 50);
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    h.crowdQuote(yes, "0.49", "0.53");
    await h.run(1_000);

    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.48 10", "sell 0.54 10"]);
    expect(h.eventsOf("place_outcome").filter((e) => e.outcome === "rejected")).toEqual([]);
    const clipped = h.eventsOf("decision").filter((e) => e.decision.reason === "in_flight_clipped");
    expect(clipped.map((e) => [e.decision.side, e.decision.detail.to])).toEqual([["sell", "5"]]);
  });
});

/** A harness whose bot holds `shares` of each token (the other wallets hold plenty). */
function holding(shares: string, latencyMs = 0): Harness {
  const h = new Harness({ botShares: shares, latencyMs });
  for (const w of [CROWD, TAKER]) {
    for (const m of h.markets) h.venue.credit(w, m.tokenId, toWei("5000", "shares"));
  }
  return h;
}
