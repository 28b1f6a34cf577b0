import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { BookState, BookStateReason, BookStatus } from "../../../src/book/book-state.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { DesiredQuote } from "../../../src/core/trading.js";
import { DecisionLog } from "../../../src/engine/engine-decisions.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { ResyncGroup } from "../../../src/engine/resync-group.js";
import { quoteDecision, type RiskDecision, tokenDecision } from "../../../src/risk/decision.js";
import { collectingStream } from "../../support/collecting-stream.js";

const M = { tokenId: "a", marketId: "m1" };
const q = (side: "buy" | "sell", level: number): DesiredQuote => ({
  side,
  level,
  priceMicro: side === "buy" ? 470_000 : 530_000,
  sizeMicro: 10_000_000n,
});
const reduceOnly = (side: "buy" | "sell", level = 0) =>
  quoteDecision("soft_cap_reduce_only", "drop", M, q(side, level));
const clipped = (side: "buy" | "sell") => quoteDecision("hard_cap_size_clipped", "clip", M, q(side, 0));

function state(tokenId: string, status: BookStatus, reason: BookStateReason, crossed = false): BookState {
  const quotable = status === "synced" && !crossed;
  return { tokenId, status, reason, crossed, quotable, since: 0, lastSeq: 1, lastUpdateTs: 0 };
}

/**
 * DecisionLog with the engine's ResyncGroup: a token holding limits goes through a book gate and
 * comes back with `after`. The gate is a reconnect's (resubscribed, with a second token, so the
 * group tells it) or one book's own (a gap). Returns the info lines about token "a" after its
 * limits were first logged, as [msg, side, ended].
 */
async function through(
  before: RiskDecision[],
  after: RiskDecision[],
  reason: BookStateReason,
): Promise<{ lines: unknown[][]; events: EngineEvent[] }> {
  const sink = collectingStream();
  const events: EngineEvent[] = [];
  const log = pino({ level: "debug" }, sink);
  const decisions = new DecisionLog(
    log,
    (e) => events.push(e),
    () => true,
    new ResyncGroup(new SimClock(0), log),
  );
  decisions.step("a", before, 1);
  const from = sink.lines.length;
  const tokens = reason === "resubscribed" ? ["a", "b"] : ["a"];
  for (const t of tokens) decisions.bookState(state(t, "resyncing", reason));
  const gate = tokenDecision("book_resyncing", "a", "m1");
  decisions.event(gate, 2);
  decisions.step("a", [gate], 2);
  decisions.step("a", [gate], 3);
  await Promise.resolve();
  for (const t of tokens) decisions.bookState(state(t, "synced", "snapshot"));
  decisions.step("a", after, 4);
  decisions.step("a", after, 5);
  decisions.stop();
  const lines = sink
    .records()
    .slice(from)
    .filter((r) => Number(r.level) >= 30 && r.tokenId === "a")
    .map((r) => [r.msg, r.side, r.ended]);
  return { lines, events };
}

describe("DecisionLog: limits held through a book gate the resync group tells", () => {
  it("the same limits after the reconnect are not logged again; metrics still get them", async () => {
    const { lines, events } = await through([reduceOnly("buy")], [reduceOnly("buy")], "resubscribed");
    expect(lines).toEqual([]);
    const reasons = events.map((e) => (e.type === "decision" ? e.decision.reason : e.type));
    expect(reasons.filter((r) => r === "soft_cap_reduce_only")).toHaveLength(3);
    expect(reasons.filter((r) => r === "book_resyncing")).toHaveLength(3);
  });

  it("a limit new after the reconnect is logged, alone", async () => {
    const { lines } = await through(
      [reduceOnly("buy")],
      [reduceOnly("buy"), reduceOnly("sell")],
      "resubscribed",
    );
    expect(lines).toEqual([["risk: soft_cap_reduce_only", "sell", undefined]]);
  });

  it("a limit that changed (another reason on the same quote) is logged", async () => {
    const { lines } = await through([reduceOnly("buy")], [clipped("buy")], "resubscribed");
    expect(lines).toEqual([["risk: hard_cap_size_clipped", "buy", undefined]]);
  });

  it("limits that ended are told as ended: all of them, or some", async () => {
    const all = await through([reduceOnly("buy")], [], "resubscribed");
    expect(all.lines).toEqual([["risk: cleared", undefined, undefined]]);
    const some = await through(
      [reduceOnly("buy", 0), reduceOnly("buy", 1)],
      [reduceOnly("buy", 0)],
      "resubscribed",
    );
    expect(some.lines).toEqual([["risk: partly cleared", undefined, ["soft_cap_reduce_only drop buy L1"]]]);
  });

  it("held through a member's resyncing then stale book; a step that judged no quote keeps them", async () => {
    const sink = collectingStream();
    const log = pino({ level: "debug" }, sink);
    const decisions = new DecisionLog(
      log,
      () => undefined,
      () => true,
      new ResyncGroup(new SimClock(0), log),
    );
    decisions.step("a", [reduceOnly("buy")], 1);
    for (const t of ["a", "b"]) decisions.bookState(state(t, "resyncing", "resubscribed"));
    decisions.step("a", [tokenDecision("book_resyncing", "a", "m1")], 2);
    await Promise.resolve();
    decisions.bookState(state("a", "stale", "resubscribed"));
    decisions.step("a", [tokenDecision("book_stale", "a", "m1")], 3);
    decisions.bookState(state("a", "synced", "snapshot"));
    decisions.step("a", [], 4, false); // a one-sided moment: nothing desired, nothing judged
    decisions.step("a", [reduceOnly("buy")], 5);
    decisions.stop();
    const risk = sink.records().filter((r) => Number(r.level) >= 30 && String(r.msg).startsWith("risk: "));
    expect(risk.map((r) => r.msg)).toEqual(["risk: soft_cap_reduce_only"]);
  });

  it("one book's own gap keeps today's lines: the gate, then what stands once it is back", async () => {
    const { lines } = await through([reduceOnly("buy")], [reduceOnly("buy")], "gap");
    expect(lines).toEqual([
      ["risk: book_resyncing", undefined, undefined],
      ["risk: soft_cap_reduce_only", "buy", undefined],
    ]);
  });
});
