import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

/**
 * A desk quoting many tokens on one wallet, place budget saturated (baseline limits: the IP's
 * 1000/60 s binds at 16.7 placements/s). 25 busy markets move 3 ticks every 500 ms; one quiet
 * market's YES token moves 3 ticks once. Its requote is a cancel-replace: the cancel goes at once
 * (the cancel budget is not saturated) and the level is empty, but its replacement sits in the
 * placement lane with the urgency it was given while the old order still rested (3 ticks), behind
 * every busy token's placement for an emptied level (urgency "missing", the highest), which keep
 * coming. The quiet token's level stayed empty for as long as the busy tokens kept moving (over 30 s
 * here; 120 s, the whole run, in a 300-token probe). Once the cancel is done the queue ranks the
 * placement as a missing quote, in its place in line (order-queue-lanes.ts levelEmptied).
 */
describe("queue fairness: a quiet token's requote is not starved by busy tokens", () => {
  it("the quiet token's new quotes rest within ~2 rounds of the place budget", async () => {
    const h = new Harness({ markets: 26 });
    const moving: string[] = [];
    for (let i = 1; i <= 26; i++) {
      for (const t of h.tokens(i)) h.crowdQuote(t, "0.48", "0.52");
      if (i <= 25) moving.push(...h.tokens(i));
    }
    await h.engine.start();
    await h.run(10_000);
    let up = false;
    const step = async () => {
      up = !up; // mid 0.50 ↔ 0.53: every busy quote is cancel-replaced (3 ticks) every 500 ms
      for (const t of moving) h.crowdQuote(t, up ? "0.51" : "0.48", up ? "0.55" : "0.52");
      await h.run(500);
    };
    for (let k = 0; k < 10; k++) await step();
    const quiet = h.tokens(26)[0];
    expect(h.botQuotes(quiet).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    h.crowdQuote(quiet, "0.51", "0.55"); // mid 0.50 → 0.53: both quotes move 3 ticks
    const t0 = h.clock.now();
    let requoted = Number.POSITIVE_INFINITY;
    for (let k = 0; k < 60 && requoted === Number.POSITIVE_INFINITY; k++) {
      await step();
      if (h.botQuotes(quiet).sort().join() === "buy 0.5 10,sell 0.56 10") requoted = h.clock.now() - t0;
    }
    // 52 tokens × 2 quotes at 16.7/s: one round of the place budget is ~6 s.
    expect(requoted).toBeLessThanOrEqual(12_000);
  }, 60_000);
});
