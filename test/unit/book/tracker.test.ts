import { describe, expect, it } from "vitest";
import { BookTracker } from "../../../src/book/tracker.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { BASE_ASKS, BASE_BIDS, delta, setup, snapshot, TOKEN, update } from "./helpers.js";

const NO_STALL = { stall: { enabled: false } };

describe("BookTracker: snapshot and sequence", () => {
  it("is resyncing until the subscription snapshot, then synced", () => {
    const { tracker, events, port } = setup(NO_STALL);
    tracker.track(TOKEN);
    expect(tracker.state(TOKEN)).toMatchObject({
      status: "resyncing",
      reason: "awaiting_snapshot",
      quotable: false,
    });
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    expect(tracker.state(TOKEN)).toMatchObject({
      status: "synced",
      reason: "snapshot",
      quotable: true,
      lastSeq: 7,
    });
    expect(tracker.book(TOKEN)?.toWire()).toEqual({
      bids: [
        { price: "0.5", size: "10" },
        { price: "0.49", size: "20" },
      ],
      asks: [
        { price: "0.52", size: "4" },
        { price: "0.53", size: "6" },
      ],
    });
    expect(events.map((e) => [e.previous, e.status, e.reason])).toEqual([
      [undefined, "resyncing", "awaiting_snapshot"],
      ["resyncing", "synced", "snapshot"],
    ]);
    expect(port.requests).toEqual([]); // the subscription's snapshot is not asked for
    expect(tracker.counters.snapshots).toBe(1);
  });

  it("applies contiguous deltas; size is the new total and 0 removes the level", () => {
    const { tracker } = setup(NO_STALL);
    const changed: number[] = [];
    tracker.onBook((b) => changed.push(b.bids.length));
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.onEvent(delta(8, 7, [["buy", "0.5", "3"]]));
    tracker.onEvent(
      delta(9, 8, [
        ["sell", "0.52", "0"],
        ["buy", "0.51", "1"],
      ]),
    );
    const b = tracker.book(TOKEN);
    expect(b?.bestBid()).toEqual({ price: 510_000, size: 1_000_000n });
    expect(b?.depthAt("bid", 500_000)).toBe(3_000_000n);
    expect(b?.bestAsk()?.price).toBe(530_000);
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", lastSeq: 9 });
    expect(tracker.counters.deltas).toBe(2);
    expect(changed).toEqual([2, 2, 3]);
  });

  it("a gap: resyncing, one snapshot request, deltas ignored until the snapshot, then synced", () => {
    const { tracker, port, events } = setup(NO_STALL);
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.onEvent(delta(9, 8, [["buy", "0.5", "1"]])); // 8 never came
    expect(tracker.state(TOKEN)).toMatchObject({ status: "resyncing", reason: "gap", quotable: false });
    expect(port.requests).toHaveLength(1);
    tracker.onEvent(delta(10, 9, [["buy", "0.5", "2"]]));
    tracker.onEvent(delta(11, 10, [["buy", "0.5", "3"]]));
    expect(port.requests).toHaveLength(1);
    expect(tracker.book(TOKEN)?.depthAt("bid", 500_000)).toBe(10_000_000n); // untouched
    expect(tracker.counters).toMatchObject({ gaps: 1, resyncs: 1, droppedWhileResyncing: 2, deltas: 0 });
    tracker.onEvent(snapshot(11, [["0.5", "3"]], BASE_ASKS));
    tracker.onEvent(delta(12, 11, [["buy", "0.49", "5"]]));
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", lastSeq: 12 });
    expect(
      tracker
        .book(TOKEN)
        ?.top("bid", 5)
        .map((l) => l.size),
    ).toEqual([3_000_000n, 5_000_000n]);
    expect(events.map((e) => e.reason)).toEqual(["awaiting_snapshot", "snapshot", "gap", "snapshot"]);
  });

  it("drops frames lacking seq or prevSeq, and stale or duplicate frames, without effect", () => {
    const { tracker, port } = setup(NO_STALL);
    tracker.onEvent(snapshot(undefined, BASE_BIDS, BASE_ASKS));
    expect(tracker.state(TOKEN)?.status).toBe("resyncing");
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.onEvent({ type: "book_delta", tokenId: TOKEN, seq: 8, changes: [] });
    tracker.onEvent({ type: "book_update", tokenId: TOKEN, prevSeq: 7, bids: [], asks: [] });
    tracker.onEvent(delta(8, 7, [["buy", "0.5", "1"]]));
    tracker.onEvent(delta(8, 7, [["buy", "0.5", "99"]])); // duplicate
    tracker.onEvent(delta(6, 5, [["buy", "0.5", "99"]])); // older
    tracker.onEvent(snapshot(8, [["0.1", "1"]], [])); // not newer than the book
    expect(tracker.counters).toMatchObject({ droppedMissingSeq: 3, droppedStale: 3, gaps: 0, deltas: 1 });
    expect(tracker.book(TOKEN)?.depthAt("bid", 500_000)).toBe(1_000_000n);
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", lastSeq: 8 });
    expect(port.requests).toEqual([]);
  });

  it("book_update replaces the whole book; a newer unsolicited snapshot too", () => {
    const { tracker } = setup(NO_STALL);
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.onEvent(update(8, 7, [["0.3", "1"]], [["0.7", "2"]]));
    expect(tracker.book(TOKEN)?.toWire()).toEqual({
      bids: [{ price: "0.3", size: "1" }],
      asks: [{ price: "0.7", size: "2" }],
    });
    tracker.onEvent(update(10, 9, [], [])); // a gap on an update is a gap too
    expect(tracker.state(TOKEN)?.reason).toBe("gap");
    tracker.onEvent(snapshot(12, [["0.4", "1"]], []));
    tracker.onEvent(snapshot(13, [["0.41", "1"]], []));
    expect(tracker.book(TOKEN)?.bestBid()?.price).toBe(410_000);
    expect(tracker.counters).toMatchObject({ updates: 1, snapshots: 3, gaps: 1 });
  });

  it("a malformed entry is counted and resyncs the book; it never throws", () => {
    const { tracker, port } = setup(NO_STALL);
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    expect(() => tracker.onEvent(delta(8, 7, [["up", "0.5", "1"]]))).not.toThrow();
    expect(tracker.counters.malformed).toBe(1);
    expect(tracker.lastRejection).toEqual({ code: "bad_side", list: "changes", index: 0 });
    expect(tracker.state(TOKEN)).toMatchObject({ status: "resyncing", reason: "malformed" });
    expect(port.requests).toHaveLength(1);
    tracker.onEvent({ type: "book_snapshot", tokenId: TOKEN, seq: 9, bids: "nope", asks: [] });
    expect(tracker.counters.malformed).toBe(2);
    expect(tracker.state(TOKEN)?.status).toBe("resyncing");
    tracker.onEvent({ type: "book_delta", tokenId: TOKEN, seq: 1.5, prevSeq: 0, changes: [] });
    expect(tracker.counters.malformed).toBe(3);
  });

  it("keeps books of different tokens apart; untrack forgets one", () => {
    const { tracker } = setup(NO_STALL);
    tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS, "1"));
    tracker.onEvent(snapshot(50, [["0.2", "1"]], [], "2"));
    tracker.onEvent(delta(2, 1, [["buy", "0.5", "0"]], "1"));
    tracker.onEvent(delta(51, 50, [["buy", "0.2", "0"]], "2"));
    expect(tracker.book("1")?.bestBid()?.price).toBe(490_000);
    expect(tracker.book("2")?.bestBid()).toBeUndefined();
    tracker.untrack("2");
    expect(tracker.tokens()).toEqual(["1"]);
    expect(tracker.state("2")).toBeUndefined();
  });
});

describe("BookTracker: snapshot requests and back-off", () => {
  it("retries book_snapshot_failed with exponential back-off on the Clock", () => {
    const { tracker, port, clock } = setup({
      ...NO_STALL,
      backoff: { baseMs: 500, factor: 2, maxMs: 4_000 },
    });
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    const t0 = clock.now();
    tracker.onEvent(delta(9, 8, []));
    for (let i = 0; i < 6; i++) {
      clock.advanceBy(10);
      tracker.onEvent({ type: "book_snapshot_failed", tokenId: TOKEN, reason: "busy" });
      clock.advanceTo(clock.nextDeadline() ?? clock.now());
    }
    // Each failure 10 ms after its request; then 500, 1000, 2000, 4000, 4000, 4000 ms of back-off.
    const gaps = port.times.slice(1).map((t, i) => t - (port.times[i] as number) - 10);
    expect(port.times[0]).toBe(t0);
    expect(gaps).toEqual([500, 1000, 2000, 4000, 4000, 4000]);
    expect(tracker.counters.snapshotFailures).toBe(6);
    tracker.onEvent(snapshot(20, BASE_BIDS, BASE_ASKS));
    expect(tracker.state(TOKEN)?.status).toBe("synced");
    expect(clock.pending).toBe(0); // nothing left scheduled
    tracker.onEvent(delta(22, 21, [])); // the next cycle starts from the base delay again
    tracker.onEvent({ type: "book_snapshot_failed", tokenId: TOKEN, reason: "busy" });
    clock.step();
    expect((port.times.at(-1) as number) - (port.times.at(-2) as number)).toBe(500);
  });

  it("an unanswered request times out and is asked again; so does a missing subscription snapshot", () => {
    const { tracker, port, clock } = setup({
      ...NO_STALL,
      snapshotTimeoutMs: 5_000,
      backoff: { baseMs: 1_000, factor: 2, maxMs: 60_000 },
    });
    const t0 = clock.now();
    tracker.track(TOKEN);
    clock.advanceBy(5_000);
    expect(port.requests).toEqual([]); // timed out: back-off first (attempt 0 → base delay)
    clock.advanceBy(1_000);
    expect(port.times).toEqual([t0 + 6_000]);
    clock.advanceBy(5_000 + 1_000);
    expect(port.times).toEqual([t0 + 6_000, t0 + 12_000]);
    expect(tracker.counters.snapshotTimeouts).toBe(2);
  });

  it("a throwing port is counted and the request retried", () => {
    const clock = new SimClock(0);
    let calls = 0;
    const port = {
      requestSnapshot: () => {
        calls++;
        throw new Error("socket closed");
      },
    };
    const tracker = new BookTracker({ clock, port, config: { ...NO_STALL, snapshotTimeoutMs: 100 } });
    tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS));
    expect(() => tracker.onEvent(delta(3, 2, []))).not.toThrow();
    clock.advanceBy(100 + 500);
    expect(calls).toBe(2);
    expect(tracker.counters.portErrors).toBe(2);
  });

  it("expectSnapshot after a resubscribe waits for the pushed snapshot instead of asking", () => {
    const { tracker, port } = setup(NO_STALL);
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.expectSnapshot(TOKEN);
    expect(tracker.state(TOKEN)).toMatchObject({ status: "resyncing", reason: "resubscribed" });
    tracker.onEvent(snapshot(3, BASE_BIDS, BASE_ASKS)); // a restarted sequence is accepted while resyncing
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", lastSeq: 3 });
    expect(port.requests).toEqual([]);
  });
});
