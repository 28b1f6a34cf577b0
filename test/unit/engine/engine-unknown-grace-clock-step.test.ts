import { describe, expect, it } from "vitest";
import { steppedStarted } from "./support/stepped-harness.js";

const MINUTE = 60_000;

/**
 * An ambiguous placement (its answer lost) that rests at the exchange while the exchange's reads do
 * not list it yet gets `unknownGraceMs` (30 s) before it is taken as never placed. The grace is
 * elapsed time: a forward step of the wall clock (NTP, a VM resume) right after the placement must
 * not end it at once, or the order is dropped from local state while it rests, its level quoted a
 * second time, and the order itself later cancelled as an orphan.
 */
describe("the unknown-order grace across a forward wall-clock step", () => {
  it("a placement the reads do not list yet stays unknown through a 10-min step forward, then is found open", async () => {
    const { h, wall, yes } = await steppedStarted();
    h.exchange.scriptPlace({ kind: "ambiguous_after" });
    const placedBefore = h.exchange.of("place").length;
    const runsBefore = h.eventsOf("reconcile").length;
    h.crowdQuote(yes, "0.50", "0.54");
    await h.run();
    const [first] = h.exchange.of("place").slice(placedBefore);
    if (first === undefined) throw new Error("no placement after the book moved");
    const cid = first.arg.split(" ")[0] as string;
    const level = first.arg.split(" ").slice(1).join(" "); // "buy 0.49 10" or "sell 0.55 10"
    h.exchange.unlisted.add(cid); // it rests at the venue; the reads lag
    wall.stepMs = 10 * MINUTE;
    await h.run(10_000); // the ambiguity's reconcile and its follow-ups, all within the grace
    const runs = h
      .eventsOf("reconcile")
      .slice(runsBefore)
      .map((e) => e.summary);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.every((r) => r.pending === 1)).toBe(true); // still within its grace at every run
    // The level is not quoted a second time while its order's fate is open.
    expect(h.botQuotes(yes).filter((q) => q === level)).toHaveLength(1);
    h.exchange.unlisted.delete(cid); // the reads catch up
    await h.run(5_000);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.49 10", "sell 0.55 10"]);
    expect(h.botOrders(yes).some((o) => o.clientOrderId === cid)).toBe(true);
    expect(h.logs.records().filter((r) => r.msg === "orphan orders: cancelling")).toEqual([]);
  });

  it("without a step the grace still ends after 30 s: a placement never found is taken as never placed", async () => {
    const { h, yes } = await steppedStarted();
    h.exchange.scriptPlace({ kind: "ambiguous_before" });
    h.crowdQuote(yes, "0.50", "0.54");
    await h.run(20_000);
    expect(h.botQuotes(yes)).toHaveLength(1); // its level blocked within the grace
    await h.run(15_000);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.49 10", "sell 0.55 10"]);
  });
});
