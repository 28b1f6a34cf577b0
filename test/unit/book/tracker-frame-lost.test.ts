import { describe, expect, it } from "vitest";
import { BASE_ASKS, BASE_BIDS, delta, setup, snapshot, TOKEN } from "./helpers.js";

/*
 * BookTracker.frameLost: a token_book frame the gateway's parser refused (bad seq, bad tsMs…) is a
 * frame the book missed. The exchange's book moved on by it, so a book following the stream must
 * resync at once (like after a malformed entry), never stay synced on levels that may be gone.
 */

const NO_STALL = { stall: { enabled: false } };

describe("BookTracker.frameLost", () => {
  it("a synced book: counted as malformed, resyncing, one snapshot request; the snapshot cures it", () => {
    const { tracker, port, events } = setup(NO_STALL);
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.frameLost(TOKEN, "book_delta");
    expect(tracker.state(TOKEN)).toMatchObject({ status: "resyncing", reason: "malformed", quotable: false });
    expect(tracker.counters).toMatchObject({ malformed: 1, resyncs: 1 });
    expect(port.requests.map((r) => r.tokenId)).toEqual([TOKEN]);
    // Deltas after the lost one are not applied on top of a book missing a frame.
    tracker.onEvent(delta(9, 8, [["buy", "0.51", "1"]]));
    expect(tracker.book(TOKEN)?.bestBid()?.price).toBe(500_000);
    expect(tracker.counters.droppedWhileResyncing).toBe(1);
    tracker.onEvent(snapshot(9, [["0.51", "1"]], BASE_ASKS));
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", quotable: true, lastSeq: 9 });
    expect(events.map((e) => `${e.status}:${e.reason}`)).toEqual([
      "resyncing:awaiting_snapshot",
      "synced:snapshot",
      "resyncing:malformed",
      "synced:snapshot",
    ]);
  });

  it("a stale book resyncs too (stale means contiguous, and it no longer is)", () => {
    const { tracker, clock, port } = setup({ stall: { livenessTimeoutMs: 1_000, checkEveryMs: 100 } });
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.onConnectionAlive();
    clock.advanceBy(1_500); // no liveness since: every book stale, nothing requested
    expect(tracker.state(TOKEN)?.status).toBe("stale");
    expect(port.requests).toEqual([]);
    tracker.frameLost(TOKEN, "book_update");
    expect(tracker.state(TOKEN)).toMatchObject({ status: "resyncing", reason: "malformed" });
    expect(port.requests).toHaveLength(1);
    tracker.close();
  });

  it("a resyncing book: a lost update or delta changes nothing but the count", () => {
    const { tracker, port, clock } = setup(NO_STALL);
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.onEvent(delta(9, 8, [])); // a gap: resyncing, one request
    tracker.frameLost(TOKEN, "book_delta");
    tracker.frameLost(TOKEN, "book_update");
    expect(tracker.counters).toMatchObject({ gaps: 1, malformed: 2, resyncs: 1 });
    expect(port.requests).toHaveLength(1);
    clock.advanceBy(9_999); // within the request's timeout: still waiting for its answer
    expect(port.requests).toHaveLength(1);
  });

  it("a resyncing book losing a snapshot (its answer) asks again after back-off, not the full timeout", () => {
    const { tracker, port, clock } = setup({
      ...NO_STALL,
      backoff: { baseMs: 500 },
      snapshotTimeoutMs: 10_000,
    });
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.onEvent(delta(9, 8, [])); // a gap: request 1
    const t0 = clock.now();
    tracker.frameLost(TOKEN, "book_snapshot");
    clock.advanceBy(500);
    expect(port.times).toEqual([t0, t0 + 500]);
    tracker.frameLost(TOKEN, "book_snapshot_failed"); // the second answer lost too: back-off doubles
    clock.advanceBy(999);
    expect(port.requests).toHaveLength(2);
    clock.advanceBy(1);
    expect(port.times).toEqual([t0, t0 + 500, t0 + 1_500]);
    expect(tracker.counters.malformed).toBe(2);
  });

  it("a lost subscription snapshot (tracked, never synced) is asked for after back-off", () => {
    const { tracker, port, clock } = setup({ ...NO_STALL, backoff: { baseMs: 500 } });
    tracker.track(TOKEN);
    tracker.frameLost(TOKEN, "book_snapshot");
    expect(tracker.state(TOKEN)?.status).toBe("resyncing");
    clock.advanceBy(500);
    expect(port.requests).toHaveLength(1);
  });

  it("an untracked token is ignored: nothing is counted, nothing starts tracking", () => {
    const { tracker, port } = setup(NO_STALL);
    tracker.frameLost("999", "book_delta");
    expect(tracker.tokens()).toEqual([]);
    expect(tracker.counters.malformed).toBe(0);
    expect(port.requests).toEqual([]);
  });
});
