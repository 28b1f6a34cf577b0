import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { DecisionLog } from "../../../src/engine/engine-decisions.js";
import { quoteDecision } from "../../../src/risk/decision.js";
import { collectingStream } from "../../support/collecting-stream.js";

/**
 * DecisionLog#write spreads the decision into the log fields, including `level: d.level` (the
 * quote's ladder level, 0 for the first band). pino writes its own numeric `level` first and the
 * merged object after it, so a quote-scope decision's JSON line holds `"level":30,…,"level":0`, and
 * every JSON reader keeps the last key: the line reads as level 0 (below trace). The info/debug choice
 * this session's DecisionLog makes is then lost for every quote-scope line (soft_cap_reduce_only,
 * insufficient_shares, hard_cap_*, in_flight_*): `jq 'select(.level >= 30)'`, a log shipper's level
 * filter, or pino-pretty see neither their level nor an info line.
 */
describe("a quote-scope decision's log line keeps its log level", () => {
  it("an info decision on quote level 0 parses as level 30", () => {
    const sink = collectingStream();
    const log = new DecisionLog(
      pino({ level: "debug" }, sink),
      () => undefined,
      () => true,
    );
    const ask = { side: "sell" as const, level: 0, priceMicro: 520_000, sizeMicro: 10_000_000n };
    log.step("t1", [quoteDecision("insufficient_shares", "drop", { tokenId: "t1", marketId: "m1" }, ask)], 1);
    const line = sink.records().find((r) => r.msg === "risk: insufficient_shares");
    expect(line?.level).toBe(30);
  });

  it("an in-flight decision (debug) on quote level 1 parses as level 20", () => {
    const sink = collectingStream();
    const log = new DecisionLog(
      pino({ level: "debug" }, sink),
      () => undefined,
      () => true,
    );
    const bid = { side: "buy" as const, level: 1, priceMicro: 470_000, sizeMicro: 10_000_000n };
    log.inFlight("t1", [quoteDecision("in_flight_held", "drop", { tokenId: "t1", marketId: "m1" }, bid)], 1);
    const line = sink.records().find((r) => r.msg === "risk: in_flight_held");
    expect(line?.level).toBe(20);
  });
});
