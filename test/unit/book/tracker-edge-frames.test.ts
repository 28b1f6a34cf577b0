import { describe, expect, it } from "vitest";
import { BASE_ASKS, BASE_BIDS, delta, setup, snapshot, TOKEN, update } from "./helpers.js";

const NO_STALL = { enabled: false };
const wire = (t: ReturnType<typeof setup>["tracker"]) => t.book(TOKEN)?.toWire();

/** The edge frames a market-data sign-off probes, each through tracker.onEvent as the feed delivers it. */
describe("BookTracker: edge frames", () => {
  it("a delta at the last applied seq (a duplicate) changes nothing and keeps the book synced", () => {
    const { tracker, port } = setup({ stall: NO_STALL });
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.onEvent(delta(8, 7, [["buy", "0.51", "3"]]));
    const before = wire(tracker);
    tracker.onEvent(delta(8, 7, [["buy", "0.51", "3"]]));
    tracker.onEvent(delta(8, 7, [["buy", "0.51", "0"]])); // same seq, other content: still stale
    expect(wire(tracker)).toEqual(before);
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", lastSeq: 8 });
    expect(tracker.counters.droppedStale).toBe(2);
    expect(port.requests).toHaveLength(0);
  });

  it("a newer seq whose prevSeq is not the last seq is a gap, never applied", () => {
    const { tracker, port } = setup({ stall: NO_STALL });
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    const before = wire(tracker);
    tracker.onEvent(delta(9, 6, [["buy", "0.51", "3"]]));
    expect(wire(tracker)).toEqual(before);
    expect(tracker.state(TOKEN)).toMatchObject({ status: "resyncing", reason: "gap", quotable: false });
    expect(port.requests).toHaveLength(1);
  });

  it("an empty snapshot is a synced empty book; an empty update empties a book", () => {
    const { tracker } = setup({ stall: NO_STALL });
    tracker.onEvent(snapshot(1, [], []));
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", crossed: false });
    expect(wire(tracker)).toEqual({ bids: [], asks: [] });
    tracker.onEvent(update(2, 1, BASE_BIDS, BASE_ASKS));
    tracker.onEvent(update(3, 2, [], []));
    expect(wire(tracker)).toEqual({ bids: [], asks: [] });
    expect(tracker.book(TOKEN)?.mid()).toBeUndefined();
  });

  it('size "0" for a level not in the book is a no-op, not an error', () => {
    const { tracker } = setup({ stall: NO_STALL });
    tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS));
    const before = wire(tracker);
    tracker.onEvent(
      delta(2, 1, [
        ["sell", "0.9", "0"],
        ["buy", "0.1", "0"],
      ]),
    );
    expect(wire(tracker)).toEqual(before);
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", lastSeq: 2 });
    expect(tracker.counters.malformed).toBe(0);
  });

  it('"0.50", "0.5" and "0.500000000" are one level', () => {
    const { tracker } = setup({ stall: NO_STALL });
    tracker.onEvent(snapshot(1, [["0.50", "10"]], [["0.520", "4"]]));
    tracker.onEvent(delta(2, 1, [["buy", "0.5", "12"]]));
    expect(wire(tracker)).toEqual({
      bids: [{ price: "0.5", size: "12" }],
      asks: [{ price: "0.52", size: "4" }],
    });
    tracker.onEvent(
      delta(3, 2, [
        ["buy", "0.500000000", "0"],
        ["sell", "0.52", "0.0"],
      ]),
    );
    expect(wire(tracker)).toEqual({ bids: [], asks: [] });
  });

  it("a crossed snapshot is never quotable (default policy: resynced)", () => {
    const { tracker, port, clock } = setup({ stall: NO_STALL });
    tracker.onEvent(snapshot(1, [["0.55", "1"]], [["0.5", "1"]]));
    expect(tracker.state(TOKEN)).toMatchObject({ crossed: true, quotable: false, status: "resyncing" });
    clock.advanceBy(500);
    expect(port.requests).toHaveLength(1);
    tracker.onEvent(snapshot(2, [["0.5", "1"]], [["0.5", "1"]])); // locked counts as crossed
    expect(tracker.state(TOKEN)?.quotable).toBe(false);
  });
});
