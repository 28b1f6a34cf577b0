import { describe, expect, it } from "vitest";
import { BookTracker } from "../../../src/book/tracker.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { SteppedClock } from "../../support/stepped-clock.js";
import { BASE_ASKS, BASE_BIDS, RecordingPort, snapshot } from "./helpers.js";

/*
 * Books spread over /ws/market links are each judged by the liveness of their own link (linkOf):
 * one link's pongs neither keep another link's books synced nor bring them back.
 */

const STALL = { checkEveryMs: 1_000, livenessTimeoutMs: 10_000, minSamples: 1_000 };
const A = "1001";
const B = "1002";
const C = "1003";

/** A tracker whose books live on the links of `links` (token → link; absent: no link). */
function setup(links: Map<string, number>) {
  const clock = new SimClock(1_000_000);
  const tracker = new BookTracker({
    clock,
    port: new RecordingPort(clock),
    config: { stall: STALL },
    linkOf: (t) => links.get(t),
  });
  for (const t of [A, B, C]) tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS, t));
  return { clock, tracker };
}

/** Advances `ms` with a sign of life of `link` every 2 s. */
function pongs(s: ReturnType<typeof setup>, link: number, ms: number): void {
  for (let t = 0; t < ms; t += 2_000) {
    s.clock.advanceBy(2_000);
    s.tracker.onLinkAlive(link);
  }
}

const status = (s: ReturnType<typeof setup>, t: string) => {
  const st = s.tracker.state(t);
  return `${st?.status}/${st?.reason}`;
};

describe("BookTracker: liveness per link", () => {
  it("a silent link's books go stale while another link's pongs keep theirs synced", () => {
    const s = setup(
      new Map([
        [A, 0],
        [B, 1],
      ]),
    );
    s.tracker.onLinkAlive(0);
    s.tracker.onLinkAlive(1);
    pongs(s, 0, 12_000);
    expect(status(s, A)).toBe("synced/snapshot");
    expect(status(s, B)).toBe("stale/connection_silent");
    // C is on no link: judged by any link's liveness, as with one connection.
    expect(status(s, C)).toBe("synced/snapshot");
  });

  it("a link's sign of life brings back its own connection_silent books only", () => {
    const s = setup(
      new Map([
        [A, 0],
        [B, 1],
      ]),
    );
    s.tracker.onLinkAlive(0);
    s.tracker.onLinkAlive(1);
    s.clock.advanceBy(12_000);
    for (const t of [A, B, C]) expect(status(s, t)).toBe("stale/connection_silent");
    s.tracker.onLinkAlive(0);
    expect(status(s, A)).toBe("synced/connection_alive");
    expect(status(s, C)).toBe("synced/connection_alive");
    expect(status(s, B)).toBe("stale/connection_silent");
    pongs(s, 0, 6_000); // and link 0's pongs do not bring B back either
    expect(status(s, B)).toBe("stale/connection_silent");
    s.tracker.onLinkAlive(1);
    expect(s.tracker.state(B)).toMatchObject({
      status: "synced",
      reason: "connection_alive",
      quotable: true,
    });
  });

  it("a book moved to another link follows it", () => {
    const links = new Map([
      [A, 0],
      [B, 1],
    ]);
    const s = setup(links);
    s.tracker.onLinkAlive(0);
    s.tracker.onLinkAlive(1);
    pongs(s, 0, 12_000);
    expect(status(s, B)).toBe("stale/connection_silent");
    links.set(B, 0); // re-laid out on link 0: its next sign of life counts for B
    s.tracker.onLinkAlive(0);
    expect(status(s, B)).toBe("synced/connection_alive");
    links.set(A, 1); // and A, moved to the silent link 1, goes stale at the next check
    s.clock.advanceBy(1_000);
    expect(status(s, A)).toBe("stale/connection_silent");
    expect(status(s, B)).toBe("synced/connection_alive");
  });

  it("without linkOf every book is on the one connection, told by onConnectionAlive", () => {
    const clock = new SimClock(1_000_000);
    const tracker = new BookTracker({ clock, port: new RecordingPort(clock), config: { stall: STALL } });
    for (const t of [A, B]) tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS, t));
    tracker.onConnectionAlive();
    clock.advanceBy(11_000);
    for (const t of [A, B]) expect(tracker.state(t)?.reason).toBe("connection_silent");
    tracker.onLinkAlive(3); // a named link counts for books on no link too
    for (const t of [A, B]) expect(tracker.state(t)?.reason).toBe("connection_alive");
  });

  it("a link's last sign of life follows a clock step back: a silent link is still told after its timeout", () => {
    const sim = new SimClock(1_000_000);
    const wall = new SteppedClock(sim);
    const links = new Map([
      [A, 0],
      [B, 1],
    ]);
    const tracker = new BookTracker({
      clock: wall,
      port: new RecordingPort(sim),
      config: { stall: STALL },
      linkOf: (t) => links.get(t),
    });
    for (const t of [A, B]) tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS, t));
    sim.advanceBy(5_000); // a few checks first: the watch follows the clock from its readings
    tracker.onLinkAlive(0);
    tracker.onLinkAlive(1);
    wall.stepMs = -600_000; // the wall clock steps back 10 min; link 1 is silent from now on
    for (let t = 0; t < 12_000; t += 2_000) {
      sim.advanceBy(2_000);
      tracker.onLinkAlive(0);
    }
    expect(tracker.state(A)?.status).toBe("synced");
    expect(tracker.state(B)).toMatchObject({ status: "stale", reason: "connection_silent" });
  });
});
