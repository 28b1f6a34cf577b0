import { describe, expect, it } from "vitest";
import { parseBookInto, parseChangesInto } from "../../../src/book/entries.js";
import type { BookEvent } from "../../../src/book/events.js";
import { LevelBuffer } from "../../../src/book/level-buffer.js";
import { BookTracker } from "../../../src/book/tracker.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { BASE_ASKS, BASE_BIDS, delta, RecordingPort, snapshot, TOKEN, update } from "./helpers.js";

/*
 * BookTrackerOptions.parsed: a frame's entries handed over already parsed (a backtest's exchange
 * parsed them a feed latency earlier) are used as they are; a frame the caller holds nothing for
 * is parsed, and refused when malformed, by the tracker as before.
 */
function setup(held: Map<BookEvent, LevelBuffer>) {
  const clock = new SimClock(1_000_000);
  const tracker = new BookTracker({ clock, port: new RecordingPort(clock), parsed: (e) => held.get(e) });
  return { tracker };
}

// The entries as entries.ts makes them: what a caller may hand over.
function parsedOf(e: BookEvent): LevelBuffer {
  const buf = new LevelBuffer();
  const bad =
    e.type === "book_delta"
      ? parseChangesInto(e.changes, buf)
      : e.type === "book_snapshot_failed"
        ? undefined
        : parseBookInto(e.bids, e.asks, buf);
  if (bad !== undefined) throw new Error(`malformed: ${bad.code}`);
  return buf;
}

describe("BookTracker: entries handed over already parsed", () => {
  it("applies the handed-over entries of snapshots, updates and deltas without reading the frame's lists", () => {
    const held = new Map<BookEvent, LevelBuffer>();
    const { tracker } = setup(held);
    tracker.track(TOKEN);
    const frames = [
      snapshot(1, BASE_BIDS, BASE_ASKS),
      delta(2, 1, [
        ["buy", "0.51", "3"],
        ["sell", "0.52", "0"],
      ]),
      update(3, 2, [["0.5", "7"]], [["0.55", "1"]]),
      delta(4, 3, [["sell", "0.54", "2"]]),
    ];
    for (const e of frames) {
      // The frame's own lists are unreadable: only the handed-over entries can build the book.
      const gone = { ...e, changes: "gone", bids: "gone", asks: "gone" } as unknown as BookEvent;
      held.set(gone, parsedOf(e));
      tracker.onEvent(gone);
    }
    expect(tracker.counters).toMatchObject({ snapshots: 1, deltas: 2, updates: 1, malformed: 0 });
    expect(tracker.book(TOKEN)?.toWire()).toEqual({
      bids: [{ price: "0.5", size: "7" }],
      asks: [
        { price: "0.54", size: "2" },
        { price: "0.55", size: "1" },
      ],
    });
  });

  it("parses a frame it is handed nothing for, and refuses it when malformed", () => {
    const { tracker } = setup(new Map());
    tracker.track(TOKEN);
    tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS));
    tracker.onEvent(delta(2, 1, [["buy", "0.51", "3"]]));
    expect(tracker.book(TOKEN)?.bestBid()).toEqual({ price: 510_000, size: 3_000_000n });
    tracker.onEvent(delta(3, 2, [["buy", "0.51", "lots"]]));
    expect(tracker.counters.malformed).toBe(1);
    expect(tracker.lastRejection).toEqual({ code: "bad_size", list: "changes", index: 0 });
    expect(tracker.state(TOKEN)).toMatchObject({ status: "resyncing", reason: "malformed" });
  });
});
