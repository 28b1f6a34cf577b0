import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

/*
 * The daemon's reporter writes the operator's line of each fill from the engine's fill event
 * (src/app/daemon-log.ts). The engine's own structured line is debug: at info as well, an operator
 * saw every fill twice (found by an operator-acceptance review).
 */
describe("engine: its own fill log line", () => {
  it("is debug, once per fill", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.take(yes, "buy", "0.53", "105"); // 100 from the crowd, 5 from our ask at 0.53
    await h.run();
    expect(h.eventsOf("fill")).toHaveLength(1);
    const lines = h.logs.records().filter((r) => r.msg === "fill");
    expect(lines.map((r) => r.level)).toEqual([20]);
  });
});
