import { describe, expect, it } from "vitest";
import { BASE_ASKS, BASE_BIDS, delta, setup, snapshot, TOKEN } from "./helpers.js";

const NO_STALL = { enabled: false };

/*
 * A snapshot whose seq is below a seq the stream has already shown is a picture of the exchange's
 * book from before changes the tracker has seen go by: taking it as `synced` quotes from a book
 * known to be behind (a slow snapshot answer, or one duplicated or held back on the way).
 */
describe("BookTracker: a snapshot older than the stream already seen", () => {
  it("after a gap, a snapshot below the gap's seq is not synced: it is dropped and asked again", () => {
    const { tracker, port, clock } = setup({ stall: NO_STALL });
    tracker.onEvent(snapshot(10, BASE_BIDS, BASE_ASKS));
    tracker.onEvent(delta(12, 11, [["buy", "0.51", "5"]])); // a gap: the exchange is at 12
    tracker.onEvent(delta(13, 12, [["buy", "0.51", "0"]])); // dropped while resyncing
    expect(port.requests).toHaveLength(1);
    tracker.onEvent(snapshot(11, BASE_BIDS, BASE_ASKS)); // behind seq 13, seen already
    expect(tracker.state(TOKEN)).toMatchObject({ status: "resyncing", quotable: false, lastSeq: 10 });
    expect(tracker.counters.droppedStale).toBe(1);
    clock.advanceBy(500); // the back-off base: asked again, not left to the 10 s timeout
    expect(port.requests).toHaveLength(2);
    tracker.onEvent(snapshot(13, BASE_BIDS, BASE_ASKS));
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", quotable: true, lastSeq: 13 });
    tracker.onEvent(delta(14, 13, [["sell", "0.52", "0"]]));
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", lastSeq: 14 });
  });

  it("a subscribe's snapshot slower than the deltas that followed it is not synced", () => {
    const { tracker } = setup({ stall: NO_STALL });
    tracker.track(TOKEN);
    tracker.onEvent(delta(6, 5, [["buy", "0.51", "5"]]));
    tracker.onEvent(snapshot(4, BASE_BIDS, BASE_ASKS));
    expect(tracker.state(TOKEN)?.quotable).toBe(false);
    tracker.onEvent(snapshot(6, BASE_BIDS, BASE_ASKS));
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", lastSeq: 6 });
  });

  it("a resubscribe starts a new stream: its snapshot is taken whatever the old stream's seqs", () => {
    const { tracker } = setup({ stall: NO_STALL });
    tracker.onEvent(snapshot(100, BASE_BIDS, BASE_ASKS));
    tracker.onEvent(delta(102, 101, [])); // a gap, then the link drops
    tracker.subscriptionLost(TOKEN);
    tracker.expectSnapshot(TOKEN);
    tracker.onEvent(snapshot(3, BASE_BIDS, BASE_ASKS)); // an exchange restarted its seqs
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", lastSeq: 3 });
  });
});
