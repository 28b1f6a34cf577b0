import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { DecisionLog } from "../../../src/engine/engine-decisions.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { marketDecision, tokenDecision } from "../../../src/risk/decision.js";
import { collectingStream } from "../../support/collecting-stream.js";

/** Each test log's synced books (the engine's TokenSlot.everSynced), for bookState below. */
const syncedOf = new WeakMap<DecisionLog, Set<string>>();

/** A DecisionLog over a debug logger into memory, with a listener counting what it receives. */
function decisionLog() {
  const sink = collectingStream();
  const events: EngineEvent[] = [];
  // The engine's TokenSlot.everSynced, set at a book's first synced state (bookState below).
  const synced = new Set<string>();
  const log = new DecisionLog(
    pino({ level: "debug" }, sink),
    (e) => events.push(e),
    (t) => synced.has(t),
  );
  syncedOf.set(log, synced);
  /** The lines at info or above, as "msg tokenId|marketId". */
  const shown = () =>
    sink
      .records()
      .filter((r) => Number(r.level) >= 30)
      .map((r) => `${String(r.msg)} ${String(r.tokenId ?? r.marketId)}`);
  const debug = () =>
    sink
      .records()
      .filter((r) => Number(r.level) === 20)
      .map((r) => String(r.msg));
  return { log, events, shown, debug };
}

const resyncing = (t: string) => tokenDecision("book_resyncing", t, "m1");

/**
 * What the engine does on a BookTracker state: marks the book synced, enforces the guard's decision on a
 * change (event), then runs the token's quoting step (step).
 */
function bookState(
  log: DecisionLog,
  tokenId: string,
  status: "synced" | "resyncing" | "stale",
  now: number,
  eventToo = true,
): void {
  if (status === "synced") syncedOf.get(log)?.add(tokenId);
  if (status === "synced") {
    log.step(tokenId, [], now);
    return;
  }
  const d = tokenDecision(status === "stale" ? "book_stale" : "book_resyncing", tokenId, "m1");
  if (eventToo) log.event(d, now);
  log.step(tokenId, [d], now);
}

describe("DecisionLog: a book's first wait is routine, a later resync is news (once)", () => {
  it("logs nothing at info while books wait for their first snapshot, nor when it arrives; the listener still gets every decision", () => {
    const { log, events, shown, debug } = decisionLog();
    for (const t of ["a", "b", "c"]) bookState(log, t, "resyncing", 1);
    for (const t of ["a", "b", "c"]) log.step(t, [resyncing(t)], 2); // a pre-start step, replayed
    for (const t of ["a", "b", "c"]) bookState(log, t, "synced", 3);
    expect(shown()).toEqual([]);
    expect(debug()).toContain("risk: book_resyncing");
    expect(events.filter((e) => e.type === "decision")).toHaveLength(9);
  });

  it("a book that resyncs after it had been synced is logged once (not by both the event and the step); its recovery once", () => {
    const { log, events, shown } = decisionLog();
    bookState(log, "a", "resyncing", 1);
    bookState(log, "a", "synced", 2);
    bookState(log, "a", "resyncing", 3);
    log.step("a", [resyncing("a")], 4);
    bookState(log, "a", "synced", 5);
    bookState(log, "a", "stale", 6);
    bookState(log, "a", "synced", 7);
    expect(shown()).toEqual([
      "risk: book_resyncing a",
      "risk: cleared a",
      "risk: book_stale a",
      "risk: cleared a",
    ]);
    expect(events.filter((e) => e.type === "decision")).toHaveLength(2 + 3 + 2);
  });

  it("a market gate held by both of its tokens is logged once, and its end once", () => {
    const { log, events, shown } = decisionLog();
    const gate = (t: string) => tokenDecision("market_not_open", t, "m9");
    for (const t of ["y", "n"]) log.step(t, [gate(t)], 1);
    for (const t of ["y", "n"]) log.step(t, [gate(t)], 2);
    for (const t of ["y", "n"]) log.step(t, [], 3);
    expect(shown()).toEqual(["risk: market_not_open y", "risk: cleared y"]);
    expect(events).toHaveLength(4);
  });

  it("a market gate announced by its event is not logged again by its tokens' steps; its end is logged once", () => {
    const { log, shown } = decisionLog();
    log.event(marketDecision("market_not_open", "m9", { status: "PAUSED" }), 1);
    for (const t of ["y", "n"]) log.step(t, [tokenDecision("market_not_open", t, "m9")], 1);
    for (const t of ["y", "n"]) log.step(t, [], 2);
    // And a second pause of the same market is news again.
    log.event(marketDecision("market_not_open", "m9", { status: "PAUSED" }), 3);
    for (const t of ["y", "n"]) log.step(t, [tokenDecision("market_not_open", t, "m9")], 3);
    expect(shown()).toEqual(["risk: market_not_open m9", "risk: cleared y", "risk: market_not_open m9"]);
  });
});

describe("DecisionLog: a line names its market by slug as well as by id", () => {
  it("a market gate, a token's decision and their ends carry the slug; a market it does not know, the id alone", () => {
    const sink = collectingStream();
    const slugs = new Map([["m9", "arg-vs-fra"]]);
    const log = new DecisionLog(
      pino({ level: "info" }, sink),
      () => {},
      () => true,
      undefined,
      (m) => slugs.get(m),
    );
    log.event(marketDecision("market_not_open", "m9", { status: "PAUSED" }), 1);
    log.step("y", [tokenDecision("market_not_open", "y", "m9")], 1);
    log.step("y", [], 2);
    log.step("z", [tokenDecision("book_stale", "z", "m7")], 3);
    const named = sink.records().map((r) => `${String(r.msg)} ${String(r.marketId)} ${String(r.slug)}`);
    expect(named).toEqual([
      "risk: market_not_open m9 arg-vs-fra",
      "risk: cleared m9 arg-vs-fra",
      "risk: book_stale m7 undefined",
    ]);
  });
});
