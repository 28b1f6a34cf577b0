import { describe, expect, it } from "vitest";
import { BASE_ASKS, BASE_BIDS, delta, setup, snapshot, TOKEN } from "./helpers.js";

const NO_STALL = { enabled: false };

describe("BookTracker: crossed books", () => {
  it('"resync" policy: a delta that crosses the book flags it, resyncs, and ignores deltas until a good snapshot', () => {
    const { tracker, port, events } = setup({ stall: NO_STALL });
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.onEvent(delta(8, 7, [["buy", "0.52", "1"]])); // locked: bid = ask
    expect(tracker.state(TOKEN)).toMatchObject({
      status: "resyncing",
      reason: "crossed",
      crossed: true,
      quotable: false,
    });
    expect(tracker.counters.crossed).toBe(1);
    expect(port.requests).toHaveLength(1);
    tracker.onEvent(delta(9, 8, [["sell", "0.52", "0"]]));
    expect(tracker.counters.droppedWhileResyncing).toBe(1);
    tracker.onEvent(snapshot(9, BASE_BIDS, [["0.53", "6"]]));
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", crossed: false, quotable: true });
    expect(events.map((e) => `${e.status}/${e.reason}/${e.quotable}`)).toEqual([
      "resyncing/awaiting_snapshot/false",
      "synced/snapshot/true",
      "resyncing/crossed/false",
      "synced/uncrossed/true",
    ]);
  });

  it('"resync" policy: crossed snapshots are asked again with growing back-off', () => {
    const { tracker, port, clock } = setup({
      stall: NO_STALL,
      backoff: { baseMs: 100, factor: 2, maxMs: 10_000 },
    });
    const crossedAsks: [string, string][] = [["0.45", "1"]];
    const t0 = clock.now();
    tracker.onEvent(snapshot(7, BASE_BIDS, crossedAsks));
    expect(tracker.state(TOKEN)).toMatchObject({ status: "resyncing", crossed: true });
    expect(port.requests).toHaveLength(0);
    clock.step();
    tracker.onEvent(snapshot(8, BASE_BIDS, crossedAsks));
    clock.step();
    tracker.onEvent(snapshot(9, BASE_BIDS, crossedAsks));
    clock.step();
    const t = port.times;
    // Waits of base × 2^(requests so far − 1): 100 (none yet), 100, 200.
    expect([
      (t[0] as number) - t0,
      (t[1] as number) - (t[0] as number),
      (t[2] as number) - (t[1] as number),
    ]).toEqual([100, 100, 200]);
    expect(tracker.counters.crossed).toBe(1); // one crossing episode
    tracker.onEvent(snapshot(10, BASE_BIDS, BASE_ASKS));
    expect(tracker.state(TOKEN)).toMatchObject({ status: "synced", quotable: true, crossed: false });
  });

  it('"flag" policy (replay without a snapshot source): flagged not quotable, asked once, deltas keep applying', () => {
    const { tracker, port, events } = setup({ stall: NO_STALL, crossed: "flag" });
    tracker.onEvent(snapshot(7, BASE_BIDS, BASE_ASKS));
    tracker.onEvent(delta(8, 7, [["buy", "0.55", "1"]]));
    expect(tracker.state(TOKEN)).toMatchObject({
      status: "synced",
      crossed: true,
      quotable: false,
      reason: "crossed",
    });
    tracker.onEvent(delta(9, 8, [["buy", "0.56", "1"]]));
    tracker.onEvent(delta(10, 9, [["buy", "0.55", "0"]]));
    expect(tracker.book(TOKEN)?.bestBid()?.price).toBe(560_000);
    expect(tracker.state(TOKEN)?.quotable).toBe(false);
    tracker.onEvent(delta(11, 10, [["buy", "0.56", "0"]]));
    expect(tracker.state(TOKEN)).toMatchObject({
      status: "synced",
      crossed: false,
      quotable: true,
      reason: "uncrossed",
    });
    expect(port.requests).toHaveLength(1);
    expect(tracker.counters).toMatchObject({ crossed: 1, deltas: 4 });
    tracker.onEvent(delta(12, 11, [["sell", "0.4", "1"]]));
    expect(port.requests).toHaveLength(2); // a new crossing, a new request
    expect(events.filter((e) => e.previous !== undefined).map((e) => `${e.reason}/${e.quotable}`)).toEqual([
      "snapshot/true",
      "crossed/false",
      "uncrossed/true",
      "crossed/false",
    ]);
  });
});
