import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

/**
 * inventory-caps.ts documents the hard cap as "the ceiling no combination of fills can cross". A
 * requote is a cancel-replace: until the cancel lands the old order can fill as well as its
 * replacement, and so can placements sent but unanswered and `unknown` orders. New placements are
 * sized against the side's limit net of all of them (engine-in-flight.ts).
 */
describe("engine: the inventory caps hold through a cancel-replace in flight", () => {
  it("no sequence of fills takes the position past inventory.perMarket.hard", async () => {
    const risk = { inventory: { perMarket: { soft: "15", hard: "15" } } };
    const h = new Harness({ risk, latencyMs: 50 });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    // The mid moves to 0.51: the bid 0.47 is cancel-replaced by a bid 0.48 — of 5, the room the
    // old bid's 10 leave under the cap of 15 while its cancel is on its way.
    h.crowdQuote(yes, "0.49", "0.53");
    await h.run(10);
    // A taker sweeps the bids before that cancel lands: we buy the old bid's 10.
    h.take(yes, "sell", "0.47", "110");
    h.crowdQuote(yes, "0.49", "0.53");
    await h.run(60);
    // Another sweep, whatever is resting or in flight.
    h.take(yes, "sell", "0.01", "1000");
    await h.run(500);

    expect(h.engine.positionOf(yes)).toBeLessThanOrEqual(15_000_000n); // 20 without the fit
    const clipped = h.eventsOf("decision").filter((e) => e.decision.reason === "in_flight_clipped");
    expect(clipped[0]?.decision).toMatchObject({ side: "buy", detail: { committed: "10", to: "5" } });
  });

  it("a replacement with no room waits for the cancel and a reconcile's trade read, then goes out", async () => {
    const risk = { inventory: { perMarket: { soft: "10", hard: "10" } } };
    const h = new Harness({ risk, latencyMs: 50 });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    h.crowdQuote(yes, "0.49", "0.53"); // both sides move; each old order takes the whole cap
    await h.run(20);
    // The cancels are on their way, nothing new is: a sweep now can fill at most the old 10.
    expect(h.exchange.of("place")).toHaveLength(2);
    const held = h.eventsOf("decision").filter((e) => e.decision.reason === "in_flight_held");
    expect(new Set(held.map((e) => e.decision.side))).toEqual(new Set(["buy", "sell"]));

    // The cancels are answered, but the old orders may have filled before them, the fills still on
    // their way (order-store-cancelled.ts): nothing is placed until a reconcile's trade read.
    await h.run(200);
    expect(h.exchange.of("cancel")).toHaveLength(2);
    expect(h.botQuotes(yes)).toEqual([]);
    expect(h.exchange.of("place")).toHaveLength(2);
    // No book update, fill or timer of the test needed: the reconcile the fit asked for requotes.
    await h.run(800);
    expect(h.eventsOf("reconcile").map((e) => e.summary.reason)).toContain("unresolved");
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.48 10", "sell 0.54 10"]);
    expect(h.exchange.of("place")).toHaveLength(4);
  });

  it("keeps the guard's standing decision logged once while placements wait and go", async () => {
    const risk = { inventory: { perMarket: { soft: "10", hard: "40" } } };
    const h = new Harness({ risk, latencyMs: 50 });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    h.take(yes, "sell", "0.47", "110"); // we buy 10: reduce-only, the ask may sell the 10
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run(500);
    for (const [bid, ask] of [
      ["0.48", "0.53"],
      ["0.49", "0.54"],
      ["0.48", "0.52"],
    ] as const) {
      h.crowdQuote(yes, bid, ask); // each move cancel-replaces the ask: it waits for the cancel
      await h.run(500);
    }
    expect(h.engine.positionOf(yes)).toBe(10_000_000n);
    expect(h.botQuotes(yes)).toEqual(["sell 0.53 10"]);
    const msgs = h.logs.records().map((r) => String(r.msg));
    expect(msgs.filter((m) => m === "risk: soft_cap_reduce_only")).toHaveLength(1);
    expect(msgs.filter((m) => m === "risk: cleared")).toHaveLength(0);
    // The in-flight waits were logged (debug) as they came and went.
    expect(msgs.filter((m) => m === "risk: in_flight_held").length).toBeGreaterThanOrEqual(3);
    expect(h.eventsOf("place_outcome").filter((e) => e.outcome === "rejected")).toEqual([]);
  });
});
