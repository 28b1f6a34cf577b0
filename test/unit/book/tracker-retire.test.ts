import { describe, expect, it } from "vitest";
import { BASE_ASKS, BASE_BIDS, delta, setup, snapshot, TOKEN } from "./helpers.js";

/** A book of the same market's other outcome, and one of another market that stays live. */
const SIBLING = "1002";
const OTHER = "2001";

const STALL = { k: 5, floorMs: 600, alpha: 0.1, minSamples: 5, checkEveryMs: 50, livenessTimeoutMs: 30_000 };

/**
 * A settled market's books are retired (BookTracker.retire): the exchange sends a resolved market's
 * book no more, and a live watch judged it silent, asked for snapshots and retried them for ever,
 * each a stale/resyncing state the metrics (MmBookStale) and logs showed as an incident.
 */
describe("BookTracker: a retired book", () => {
  it("gets no stall verdict, snapshot request or state event, while a live book still does", () => {
    const s = setup({ stall: STALL });
    const seqs = new Map<string, number>();
    for (const t of [TOKEN, SIBLING, OTHER]) {
      s.tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS, t));
      seqs.set(t, 1);
    }
    // Every book ticks every 100 ms for 2 s: each learns its own rate (5 × 100 ms → judged at 600 ms).
    for (let i = 0; i < 20; i++) {
      s.clock.advanceBy(100);
      s.tracker.onConnectionAlive();
      for (const t of [TOKEN, SIBLING, OTHER]) {
        const seq = seqs.get(t) ?? 0;
        s.tracker.onEvent(delta(seq + 1, seq, [["buy", "0.4", String(1 + (i % 7))]], t));
        seqs.set(t, seq + 1);
      }
    }
    s.tracker.retire(TOKEN);
    s.tracker.retire(SIBLING);
    const eventsAt = s.events.length;
    // Every book falls silent (the exchange stops sending a resolved market's book) for 10 s.
    for (let i = 0; i < 100; i++) {
      s.clock.advanceBy(100);
      s.tracker.onConnectionAlive();
    }
    const after = s.events.slice(eventsAt);
    expect(after.filter((e) => e.tokenId !== OTHER)).toEqual([]);
    expect(s.port.requests.filter((r) => r.tokenId !== OTHER)).toEqual([]);
    // The live book of the other market is still watched: judged silent once, and probed.
    expect(after.map((e) => [e.tokenId, e.status, e.reason])).toContainEqual([OTHER, "stale", "book_silent"]);
    expect(s.tracker.counters.stalls).toBe(1);
    expect(s.port.requests.some((r) => r.tokenId === OTHER)).toBe(true);
    expect(s.tracker.tokens()).toEqual([OTHER]);
    expect(s.tracker.state(TOKEN)).toBeUndefined();
  });

  it("is not tracked again by its frames still on their way, a resubscribe or a lost frame", () => {
    const s = setup({ stall: STALL });
    s.tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS));
    s.tracker.retire(TOKEN);
    const eventsAt = s.events.length;
    s.tracker.onEvent(delta(3, 2, [["buy", "0.4", "1"]])); // a gap, had it been tracked
    s.tracker.onEvent(snapshot(4, BASE_BIDS, BASE_ASKS));
    s.tracker.expectSnapshot(TOKEN);
    s.tracker.track(TOKEN);
    s.tracker.frameLost(TOKEN, "book_delta");
    s.clock.advanceBy(120_000);
    expect(s.tracker.tokens()).toEqual([]);
    expect(s.events.slice(eventsAt)).toEqual([]);
    expect(s.port.requests).toEqual([]);
    expect(s.tracker.counters.gaps).toBe(0);
    expect(s.tracker.counters.snapshots).toBe(1);
  });

  it("cancels a snapshot request it was waiting for: no retry, no time-out", () => {
    const s = setup({ stall: STALL, snapshotTimeoutMs: 1_000 });
    s.tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS));
    s.tracker.onEvent(delta(3, 2, [["buy", "0.4", "1"]])); // a gap: resyncing, one request
    expect(s.port.requests).toHaveLength(1);
    s.tracker.retire(TOKEN);
    s.clock.advanceBy(120_000);
    expect(s.port.requests).toHaveLength(1);
    expect(s.tracker.counters.snapshotTimeouts).toBe(0);
  });
});
