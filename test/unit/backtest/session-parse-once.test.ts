import { describe, expect, it } from "vitest";
import { attachMirror } from "../../../src/backtest/replay/attach-mirror.js";
import { oneTokenSession } from "./support/one-token-session.js";

/*
 * A book frame's price and size strings are parsed once, at the exchange: the BookTracker, a feed
 * latency later, is handed those entries (BookTrackerOptions.parsed) and builds the same book. A
 * malformed frame is still parsed, and refused, by the tracker itself.
 */
const TOKEN = "777";
let reads = 0;
// A level whose price and size count their reads.
const level = (price: string, size: string, side?: string) => ({
  ...(side === undefined ? {} : { side }),
  get price() {
    reads++;
    return price;
  },
  get size() {
    reads++;
    return size;
  },
});
const frame = (type: string, seq: number, data: Record<string, unknown>) => ({
  type,
  sid: 1,
  channel: "token_book",
  id: TOKEN,
  data: { tokenId: TOKEN, tsMs: 1, seq, ...(seq > 1 ? { prevSeq: seq - 1 } : {}), ...data },
});

describe("SimSession: a book frame's entries are parsed once", () => {
  it("reads each price and size once, and the tracker's book is the exchange's", async () => {
    const { session, markets } = oneTokenSession(TOKEN, { margin: "0.2", size: "1" });
    attachMirror(session, markets, undefined);
    await session.start();
    reads = 0;
    session.marketFrame(
      frame("book_snapshot", 1, { bids: [level("0.48", "100")], asks: [level("0.52", "20")] }),
    );
    session.marketFrame(
      frame("book_delta", 2, { changes: [level("0.49", "5", "buy"), level("0.52", "0", "sell")] }),
    );
    session.marketFrame(frame("book_delta", 3, { changes: [level("0.53", "7", "sell")] }));
    await session.pump.advanceTo(session.clock.now() + 50);
    expect(reads).toBe(10); // 5 levels, a price and a size each
    const book = session.tracker.book(TOKEN);
    expect(book?.equals(session.books.book(TOKEN))).toBe(true);
    expect(book?.toWire()).toEqual({
      bids: [
        { price: "0.49", size: "5" },
        { price: "0.48", size: "100" },
      ],
      asks: [{ price: "0.53", size: "7" }],
    });
    // A malformed delta: refused at the exchange and, on its own parse, by the tracker.
    session.marketFrame(frame("book_delta", 4, { changes: [{ side: "buy", price: "0.49", size: "lots" }] }));
    await session.pump.advanceTo(session.clock.now() + 50);
    expect(session.books.malformed).toBe(1);
    expect(session.tracker.counters.malformed).toBe(1);
    await session.finish();
  });
});
