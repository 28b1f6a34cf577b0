import { describe, expect, it } from "vitest";
import { BOT, Harness } from "./support/harness.js";

describe("engine inventory baseline and the position check", () => {
  it("positions at start are the baseline: 5,000 shares held, both sides quoted, no drift", async () => {
    const h = new Harness({ botShares: "5000" }); // default risk: per-market soft cap 1,000 shares
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run(61_000); // two periodic reconciles
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    expect(h.engine.positionOf(yes)).toBe(0n);
    const checks = h.eventsOf("reconcile").map((e) => e.summary);
    expect(checks.length).toBeGreaterThanOrEqual(3);
    expect(checks.every((s) => s.drifts.length === 0)).toBe(true);
  });

  it("baseline `zero`: the check brings inventory to the holdings, and the caps see all of it", async () => {
    const h = new Harness({ botShares: "5000", options: { inventoryBaseline: "zero" } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run(31_000); // startup check + one periodic: the same drift twice → corrected
    expect(h.engine.positionOf(yes)).toBe(5_000_000_000n);
    const last = h.eventsOf("reconcile").at(-1)?.summary;
    expect(last?.corrections.map((c) => c.tokenId).sort()).toEqual(h.tokens().sort());
    await h.run();
    expect(h.botQuotes(yes)).toEqual(["sell 0.53 10"]); // long 5,000 ≥ soft cap 1,000: reduce-only
  });

  it("a drift seen twice, a settlement window apart, is corrected relative to the baseline and reported", async () => {
    const h = new Harness({ botShares: "5000" });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.venue.credit(BOT, yes, 7_000_000n); // 7 shares appear that no fill explains
    await h.run(30_000);
    const first = h.eventsOf("reconcile").at(-1);
    expect(first?.summary.drifts).toEqual([
      {
        tokenId: yes,
        localMicro: 5_000_000_000n,
        remoteMicro: 5_007_000_000n,
        driftMicro: 7_000_000n,
        sinceMs: first?.atMs,
        runSinceMs: first?.atMs,
        runMs: 0,
      },
    ]);
    expect(h.engine.positionOf(yes)).toBe(0n);
    await h.run(30_000);
    expect(h.eventsOf("reconcile").at(-1)?.summary.corrections).toHaveLength(1);
    expect(h.engine.positionOf(yes)).toBe(7_000_000n);
  });
});
