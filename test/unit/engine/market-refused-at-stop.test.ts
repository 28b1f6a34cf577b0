import { describe, expect, it } from "vitest";
import type { MarketRecordStatus } from "../../../src/engine/ports.js";
import { Harness } from "./support/harness.js";

/**
 * A placement on its way when the engine stops may be answered 409 market_not_open after stop()
 * began. That refusal used to start a cool-down and a read of the market's record (whose answer the
 * stopped engine then dropped) and log the gate at warn: work, a request and a line about quoting
 * that will never retry. Once the engine is stopping, a refusal starts nothing.
 */
describe("engine stop: a placement refused market_not_open while stopping", () => {
  it("starts no cool-down, no record read and logs no gate", async () => {
    const h = new Harness({ latencyMs: 50 });
    const [yes] = h.tokens();
    let reads = 0;
    h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => {
      reads++;
      return { status: "PAUSED" };
    };
    h.crowdQuote(yes, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.botQuotes(yes)).toHaveLength(2);

    // The book moves: the requote's placements are on their way (50 ms) when the stop begins.
    h.exchange.scriptPlace(
      { kind: "reject", code: "market_not_open" },
      { kind: "reject", code: "market_not_open" },
    );
    h.crowdQuote(yes, "0.40", "0.44");
    await h.run(10);
    expect(h.exchange.of("place").length).toBeGreaterThan(2);
    const stopping = h.engine.stop("test", 5_000);
    await h.run(5_000);
    await stopping;
    expect(h.eventsOf("place_outcome").some((e) => e.code === "market_not_open")).toBe(true);

    expect(reads, "a record read started after stop").toBe(0);
    expect(h.logs.text()).not.toContain("market refused a placement");
    expect(h.clock.nextDeadline(), "a cool-down timer left running").toBeUndefined();
  });
});
