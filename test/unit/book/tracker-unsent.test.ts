import { describe, expect, it } from "vitest";
import { BASE_ASKS, BASE_BIDS, delta, setup, snapshot, TOKEN } from "./helpers.js";

/*
 * A snapshot request the port could not send (SnapshotPort.requestSnapshot returned false: the
 * token's subscription is not live, its connection down) is neither counted as a request
 * (counters.resyncs, mm_book_snapshot_requests_total) nor timed out (snapshotTimeouts): nothing
 * reached the exchange, and asking again in a loop could send nothing either. The book stays
 * `resyncing` and waits for the subscription to be back: expectSnapshot (the resubscribe after a
 * reconnect) or resume (a subscribe accepted) re-arms it, and then it times out and asks as usual;
 * on resume, a book that lost frames after its snapshot asks at once (no other snapshot follows).
 * subscriptionLost (the connection dropped) parks a book the same way, before anything is asked.
 */

const NO_STALL = { stall: { enabled: false }, snapshotTimeoutMs: 10_000 };

describe("BookTracker: snapshot requests that could not be sent", () => {
  it("an unsent request is not counted, parks the book (no timeout, no retry loop) until expectSnapshot", () => {
    const { tracker, clock, port } = setup(NO_STALL);
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    port.down = true;
    tracker.onEvent(delta(9, 8, [])); // a gap: resync, but the request cannot go out
    expect(port.unsent).toBe(1);
    expect(tracker.state(TOKEN)).toMatchObject({ status: "resyncing", reason: "gap", quotable: false });
    clock.advanceBy(300_000);
    expect(port.unsent).toBe(1); // not asked again in a loop
    expect(tracker.counters).toMatchObject({ resyncs: 0, snapshotTimeouts: 0 });

    port.down = false;
    tracker.expectSnapshot(TOKEN); // reconnected: the resubscribe's snapshot is coming
    clock.advanceBy(10_000); // … but it does not come: timed out, asked after back-off
    expect(tracker.counters.snapshotTimeouts).toBe(1);
    clock.advanceBy(500);
    expect(port.requests.map((r) => r.at)).toEqual([1_310_500]);
    expect(tracker.counters.resyncs).toBe(1);
    tracker.onEvent(snapshot(12, BASE_BIDS, BASE_ASKS));
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", quotable: true, lastSeq: 12 });
  });

  it("subscriptionLost: resyncing at once, nothing asked or timed out; resume re-arms only a parked book", () => {
    const { tracker, clock, port, events } = setup(NO_STALL);
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.subscriptionLost(TOKEN);
    expect(tracker.state(TOKEN)).toMatchObject({
      status: "resyncing",
      reason: "resubscribed",
      quotable: false,
    });
    clock.advanceBy(120_000);
    expect(port.requests).toEqual([]);
    expect(tracker.counters).toMatchObject({ resyncs: 0, snapshotTimeouts: 0 });

    tracker.resume(TOKEN); // the subscription is live again: its snapshot follows …
    clock.advanceBy(10_500); // … or, missing, is asked for after the timeout and back-off
    expect(tracker.counters).toMatchObject({ resyncs: 1, snapshotTimeouts: 1 });
    tracker.resume(TOKEN); // a book whose request is timed is left alone (no second request)
    clock.advanceBy(9_999);
    expect(port.requests).toHaveLength(1);
    tracker.onEvent(snapshot(8, BASE_BIDS, BASE_ASKS));
    expect(events.map((e) => `${e.status}:${e.reason}`)).toEqual([
      "resyncing:awaiting_snapshot",
      "synced:snapshot",
      "resyncing:resubscribed",
      "synced:snapshot",
    ]);
  });

  it("resume asks at once for a book that lost frames after its snapshot and could not ask", () => {
    const { tracker, clock, port } = setup(NO_STALL);
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS)); // the subscribe's snapshot, before its ack
    port.down = true;
    tracker.onEvent(delta(9, 8, [])); // a gap: the request cannot go out yet (not live)
    clock.advanceBy(2_000);
    port.down = false;
    tracker.resume(TOKEN); // the slow ack: no other snapshot follows, so it asks now
    expect(port.requests.map((r) => r.at)).toEqual([1_002_000]);
    clock.advanceBy(9_999);
    expect(tracker.counters).toMatchObject({ resyncs: 1, snapshotTimeouts: 0 });
    tracker.onEvent(snapshot(12, BASE_BIDS, BASE_ASKS));
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", quotable: true, lastSeq: 12 });
  });

  it("a synced book's resume is a no-op; a retired token's subscriptionLost is ignored", () => {
    const { tracker, clock, port } = setup(NO_STALL);
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.resume(TOKEN);
    expect(tracker.state(TOKEN)?.status).toBe("synced");
    tracker.retire(TOKEN);
    tracker.subscriptionLost(TOKEN);
    clock.advanceBy(60_000);
    expect(tracker.state(TOKEN)).toBeUndefined();
    expect(port.requests).toEqual([]);
  });
  it("a never-synced book whose subscribe was answered book_snapshot_failed asks at once on resume; once resubscribed, it waits again", () => {
    const { tracker, clock, port } = setup(NO_STALL);
    port.down = true; // the subscribe not yet accepted
    tracker.track(TOKEN);
    const failed = { type: "book_snapshot_failed", tokenId: TOKEN, reason: "unavailable", tsMs: 1 } as const;
    tracker.onEvent(failed); // the subscribe's one snapshot, a failure, ahead of the reply
    clock.advanceBy(500); // its retry cannot go out: parked
    expect(port.unsent).toBe(1);
    port.down = false;
    tracker.resume(TOKEN); // accepted: no snapshot is left to come
    expect(port.requests).toHaveLength(1);
    expect(tracker.counters.snapshotTimeouts).toBe(0);

    // A new subscribe (the connection dropped and came back) brings a snapshot of its own.
    tracker.subscriptionLost(TOKEN);
    tracker.resume(TOKEN);
    expect(port.requests).toHaveLength(1);
    clock.advanceBy(9_999);
    expect(port.requests).toHaveLength(1);
  });
});
