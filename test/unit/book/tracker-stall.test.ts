import { describe, expect, it } from "vitest";
import { BASE_ASKS, BASE_BIDS, delta, setup, snapshot, TOKEN } from "./helpers.js";

const STALL = {
  k: 20,
  floorMs: 60_000,
  alpha: 0.1,
  minSamples: 20,
  checkEveryMs: 1_000,
  livenessTimeoutMs: 30_000,
};

/** Feeds `n` deltas `everyMs` apart, signalling liveness every `aliveEveryMs` in between. */
function run(
  s: ReturnType<typeof setup>,
  from: number,
  n: number,
  everyMs: number,
  aliveEveryMs = 5_000,
  token = TOKEN,
): number {
  let seq = from;
  let nextAlive = s.clock.now() + aliveEveryMs;
  for (let i = 0; i < n; i++) {
    const at = s.clock.now() + everyMs;
    while (nextAlive <= at) {
      s.clock.advanceTo(nextAlive);
      s.tracker.onConnectionAlive();
      nextAlive += aliveEveryMs;
    }
    s.clock.advanceTo(at);
    s.tracker.onEvent(delta(seq + 1, seq, [["buy", "0.4", String(1 + (i % 7))]], token));
    seq++;
  }
  return seq;
}

/** Advances `ms` with liveness every `everyMs`. */
function alive(s: ReturnType<typeof setup>, ms: number, everyMs = 5_000): void {
  const end = s.clock.now() + ms;
  while (s.clock.now() + everyMs <= end) {
    s.clock.advanceBy(everyMs);
    s.tracker.onConnectionAlive();
  }
  s.clock.advanceTo(end);
}

describe("BookTracker: stall detector", () => {
  it("a quiet market with regular liveness never goes stale", () => {
    const s = setup({ stall: STALL });
    s.tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS));
    s.tracker.onEvent(snapshot(5, BASE_BIDS, BASE_ASKS, "2")); // a second book that never updates at all
    // A day of updates at random (exponential) intervals with a mean of one minute.
    let seed = 42;
    const uniform = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return (seed + 1) / (2 ** 31 + 1);
    };
    let seq = 1;
    const end = s.clock.now() + 24 * 3_600_000;
    while (s.clock.now() < end) {
      const gap = Math.max(1, Math.round(-Math.log(uniform()) * 60_000));
      alive(s, gap);
      s.tracker.onEvent(delta(seq + 1, seq, [["buy", "0.4", String(1 + (seq % 7))]]));
      seq++;
    }
    expect(seq).toBeGreaterThan(1_300);
    expect(s.events.filter((e) => e.status === "stale")).toEqual([]);
    expect(s.port.requests).toEqual([]);
    expect(s.tracker.counters.stalls).toBe(0);
  });

  it("a busy market that goes silent goes stale at max(k × its interval, floor), and is probed", () => {
    const s = setup({ stall: STALL });
    s.tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS));
    const last = run(s, 1, 200, 100); // 10 updates a second
    const silentFrom = s.clock.now();
    alive(s, 59_000);
    expect(s.tracker.state(TOKEN)?.status).toBe("synced");
    alive(s, 2_000);
    expect(s.tracker.state(TOKEN)).toMatchObject({ status: "stale", reason: "book_silent", quotable: false });
    expect(s.port.times).toHaveLength(1);
    // 60 s floor (k × 100 ms = 2 s is below it), seen by the next 1 s check.
    expect((s.port.times[0] as number) - silentFrom).toBeGreaterThan(60_000);
    expect((s.port.times[0] as number) - silentFrom).toBeLessThanOrEqual(61_000);
    // The answer shows nothing was missed: synced again, and this silence widens the yardstick.
    s.tracker.onEvent(
      snapshot(
        last,
        [
          ["0.5", "10"],
          ["0.49", "20"],
          ["0.4", "4"],
        ],
        BASE_ASKS,
      ),
    );
    expect(s.tracker.state(TOKEN)).toMatchObject({ status: "synced", reason: "snapshot" });
    alive(s, 61_000);
    expect(s.tracker.counters.stalls).toBe(1); // the quiet spell now counts: not judged again at 60 s
    // Without that widening the book would be probed every minute; with it, once more in the hour.
    // That probe stays unanswered here, so the book stays stale and the request is retried.
    alive(s, 3_600_000);
    expect(s.tracker.counters.stalls).toBe(2);
    expect(s.tracker.state(TOKEN)?.status).toBe("stale");
    expect(s.tracker.counters.snapshotTimeouts).toBeGreaterThan(10);
  });

  it("a stale book that receives a contiguous delta is synced again", () => {
    const s = setup({ stall: STALL });
    s.tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS));
    const last = run(s, 1, 50, 200);
    alive(s, 70_000);
    expect(s.tracker.state(TOKEN)?.status).toBe("stale");
    s.tracker.onEvent(delta(last + 1, last, [["sell", "0.6", "1"]]));
    expect(s.tracker.state(TOKEN)).toMatchObject({ status: "synced", reason: "update_received" });
  });

  it("without liveness every synced book goes stale (no request), and liveness brings them back", () => {
    const s = setup({ stall: STALL });
    s.tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS));
    s.tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS, "2"));
    s.tracker.onConnectionAlive();
    s.clock.advanceBy(30_000);
    expect(s.tracker.state(TOKEN)?.status).toBe("synced");
    s.clock.advanceBy(1_000);
    expect([s.tracker.state(TOKEN)?.status, s.tracker.state("2")?.reason]).toEqual([
      "stale",
      "connection_silent",
    ]);
    expect(s.port.requests).toEqual([]);
    s.tracker.onConnectionAlive();
    expect(s.tracker.state(TOKEN)).toMatchObject({
      status: "synced",
      reason: "connection_alive",
      quotable: true,
    });
    expect(s.tracker.state("2")?.status).toBe("synced");
  });

  it("close() leaves no timer behind", () => {
    const s = setup({ stall: STALL });
    s.tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS));
    s.tracker.onEvent(delta(3, 2, []));
    expect(s.clock.pending).toBe(2); // the check and the snapshot timeout
    s.tracker.close();
    expect(s.clock.pending).toBe(0);
  });
});
