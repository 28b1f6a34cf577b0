import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import { DecisionLog } from "../../../src/engine/engine-decisions.js";
import { judgedQuotes } from "../../../src/engine/judged-quotes.js";
import { quoteDecision } from "../../../src/risk/decision.js";
import { collectingStream } from "../../support/collecting-stream.js";

const T = { tokenId: "t1", marketId: "m1" };
const q = (side: "buy" | "sell", level: number): DesiredQuote => ({
  side,
  level,
  priceMicro: side === "buy" ? 470_000 - level * 10_000 : 530_000 + level * 10_000,
  sizeMicro: 10_000_000n,
});
const drop = (d: DesiredQuote) => quoteDecision("soft_cap_reduce_only", "drop", T, d);

/**
 * A standing limit (reduce-only drops every bid) while the strategy's ladder changes size: a band
 * skipped at the price edge, or one side not quoted for a moment. The quotes the strategy did not
 * desire were not judged, so their limit still stands: the smaller set of decisions is not news.
 * A limit that appears on a quote or ends on a quote the strategy desired is news, logged once,
 * naming only what changed.
 */
describe("DecisionLog: a strategy that desires only some of its quotes", () => {
  function setup() {
    const sink = collectingStream();
    const log = new DecisionLog(
      pino({ level: "info" }, sink),
      () => undefined,
      () => true,
    );
    const lines = () => sink.records().map((r) => [r.msg, r.side, r.quoteLevel, r.ended]);
    return { log, lines };
  }

  it("a band skipped at an edge, every other step, logs the limit once and no clearing", () => {
    const { log, lines } = setup();
    const full = [q("buy", 0), q("buy", 1), q("sell", 0), q("sell", 1)];
    const edge = [q("buy", 0), q("sell", 0), q("sell", 1)]; // the second bid is below the tick
    for (let i = 0; i < 10; i++) {
      const desired = i % 2 === 0 ? full : edge;
      const bids = desired.filter((d) => d.side === "buy");
      log.step("t1", bids.map(drop), i, judgedQuotes(desired));
    }
    expect(lines()).toEqual([
      ["risk: soft_cap_reduce_only", "buy", 0, undefined],
      ["risk: soft_cap_reduce_only", "buy", 1, undefined],
    ]);
  });

  it("a side that appears is logged alone; a judged quote whose limit ended is named once", () => {
    const { log, lines } = setup();
    const all = judgedQuotes([q("buy", 0), q("buy", 1), q("sell", 0)]);
    log.step("t1", [drop(q("buy", 0)), drop(q("buy", 1))], 1, all);
    log.step("t1", [drop(q("buy", 0)), drop(q("buy", 1)), drop(q("sell", 0))], 2, all);
    log.step("t1", [drop(q("buy", 0)), drop(q("buy", 1)), drop(q("sell", 0))], 3, all);
    // The ask is desired and allowed again: its limit ended, the bids' still stands.
    log.step("t1", [drop(q("buy", 0)), drop(q("buy", 1))], 4, all);
    log.step("t1", [drop(q("buy", 0)), drop(q("buy", 1))], 5, all);
    log.step("t1", [], 6, all);
    expect(lines()).toEqual([
      ["risk: soft_cap_reduce_only", "buy", 0, undefined],
      ["risk: soft_cap_reduce_only", "buy", 1, undefined],
      ["risk: soft_cap_reduce_only", "sell", 0, undefined],
      ["risk: partly cleared", undefined, undefined, ["soft_cap_reduce_only drop sell L0"]],
      ["risk: cleared", undefined, undefined, undefined],
    ]);
  });
});

/**
 * A price fault (off the grid, through the touch, crossing our own) is a fact about the quote the
 * strategy returned, not a limit: a step that no longer desires the quote ends it, while a limit on
 * an undesired quote keeps standing (README "Risk limits").
 */
describe("DecisionLog: a price fault ends with its quote", () => {
  const fault = (reason: "price_crosses_book" | "price_off_tick" | "own_quotes_crossed", d: DesiredQuote) =>
    quoteDecision(reason, "drop", T, d);

  it("a moment with nothing desired ends the price faults, not the limit", () => {
    const sink = collectingStream();
    const log = new DecisionLog(
      pino({ level: "info" }, sink),
      () => undefined,
      () => true,
    );
    const lines = () => sink.records().map((r) => [r.msg, r.side, r.ended]);
    const desired = [q("buy", 0), q("sell", 0), q("sell", 1)];
    const decisions = [
      drop(q("buy", 0)),
      fault("price_crosses_book", q("sell", 0)),
      fault("price_off_tick", q("sell", 1)),
    ];
    log.step("t1", decisions, 1, judgedQuotes(desired));
    log.step("t1", decisions, 2, judgedQuotes(desired));
    log.step("t1", [], 3, false); // a one-sided book: nothing desired
    log.step("t1", [], 4, false);
    log.step("t1", [drop(q("buy", 0))], 5, judgedQuotes([q("buy", 0)])); // the limit, already standing
    expect(lines()).toEqual([
      ["risk: soft_cap_reduce_only", "buy", undefined],
      ["risk: price_crosses_book", "sell", undefined],
      ["risk: price_off_tick", "sell", undefined],
      ["risk: partly cleared", undefined, ["price_crosses_book drop sell L0", "price_off_tick drop sell L1"]],
    ]);
  });

  it("own quotes crossed, then only the ask desired (it passes): cleared", () => {
    const sink = collectingStream();
    const log = new DecisionLog(
      pino({ level: "info" }, sink),
      () => undefined,
      () => true,
    );
    const [bid, ask] = [q("buy", 0), q("sell", 0)];
    log.step("t1", [fault("own_quotes_crossed", bid), fault("own_quotes_crossed", ask)], 1);
    log.step("t1", [], 2, judgedQuotes([q("sell", 0)]));
    expect(sink.records().map((r) => r.msg)).toEqual([
      "risk: own_quotes_crossed",
      "risk: own_quotes_crossed",
      "risk: cleared",
    ]);
  });
});
