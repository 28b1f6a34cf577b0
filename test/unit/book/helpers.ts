import type { BookStateEvent } from "../../../src/book/book-state.js";
import type { BookDeltaEvent, BookSnapshotEvent, BookUpdateEvent } from "../../../src/book/events.js";
import { BookTracker } from "../../../src/book/tracker.js";
import type { SnapshotPort, TrackerOptions } from "../../../src/book/tracker-config.js";
import { SimClock } from "../../../src/core/sim-clock.js";

export const TOKEN = "1001";

type Wire = [price: string, size: string];
type WireChange = [side: string, price: string, size: string];

/**
 * A port that records every request it sends with the clock time it was made; while `down` it
 * sends nothing (returns false), like the gateway while the token's subscription is not live.
 */
export class RecordingPort implements SnapshotPort {
  readonly requests: { tokenId: string; at: number }[] = [];
  down = false;
  unsent = 0;
  constructor(private readonly clock: SimClock) {}
  requestSnapshot(tokenId: string): boolean {
    if (this.down) {
      this.unsent++;
      return false;
    }
    this.requests.push({ tokenId, at: this.clock.now() });
    return true;
  }
  get times(): number[] {
    return this.requests.map((r) => r.at);
  }
}

/** A tracker on a SimClock with a recording port and a recorded state-event log. */
export function setup(config: TrackerOptions = {}) {
  const clock = new SimClock(1_000_000);
  const port = new RecordingPort(clock);
  const tracker = new BookTracker({ clock, port, config });
  const events: BookStateEvent[] = [];
  tracker.onState((e) => events.push(e));
  return { clock, port, tracker, events };
}

const levels = (ls: readonly Wire[]) => ls.map(([price, size]) => ({ price, size }));

export function snapshot(
  seq: number | undefined,
  bids: Wire[],
  asks: Wire[],
  tokenId = TOKEN,
): BookSnapshotEvent {
  const e = { type: "book_snapshot" as const, tokenId, bids: levels(bids), asks: levels(asks) };
  return seq === undefined ? e : { ...e, seq };
}

export function update(
  seq: number,
  prevSeq: number,
  bids: Wire[],
  asks: Wire[],
  tokenId = TOKEN,
): BookUpdateEvent {
  return { type: "book_update", tokenId, seq, prevSeq, bids: levels(bids), asks: levels(asks) };
}

export function delta(seq: number, prevSeq: number, changes: WireChange[], tokenId = TOKEN): BookDeltaEvent {
  return {
    type: "book_delta",
    tokenId,
    seq,
    prevSeq,
    changes: changes.map(([side, price, size]) => ({ side, price, size })),
  };
}

/** A two-sided book 0.50/0.52 with one more level each side. */
export const BASE_BIDS: Wire[] = [
  ["0.5", "10"],
  ["0.49", "20"],
];
export const BASE_ASKS: Wire[] = [
  ["0.52", "4"],
  ["0.53", "6"],
];
