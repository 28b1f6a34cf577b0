import { describe, expect, it } from "vitest";
import type { SimSession } from "../../../src/backtest/sim/session.js";
import { oneTokenSession } from "./support/one-token-session.js";

/*
 * A recorded book_snapshot at the token's last seq with another book is not a "restart" of the
 * token's sequence (data.resubscribed, tracker.expectSnapshot): that is exactly what every gap heal in an `mm record` recording looks like: the recorder's tracker saw
 * a gap (a lost delta), asked get_book_snapshot, and the answer carries the seq of the last delta
 * it received (FIFO on one socket), with the true book — which differs from the replay exchange's
 * book precisely because the lost delta never reached it. No sequence restarted: data.resubscribed
 * must stay absent (0), or a recording with ordinary gaps reports imports/exchange restarts it
 * does not have (README: "a recording across an exchange restart").
 */
const TOKEN = "4242";
const level = (price: string, size = "100") => ({ price, size });
const snap = (
  seq: number,
  bids: { price: string; size: string }[],
  asks: { price: string; size: string }[],
) => ({
  type: "book_snapshot",
  sid: 1,
  channel: "token_book",
  id: TOKEN,
  data: { tokenId: TOKEN, tsMs: 1, seq, bids, asks },
});
const delta = (seq: number, prevSeq: number, side: "buy" | "sell", price: string, size: string) => ({
  type: "book_delta",
  sid: 1,
  channel: "token_book",
  id: TOKEN,
  data: { tokenId: TOKEN, tsMs: 1, seq, prevSeq, changes: [{ side, price, size }] },
});

async function feed(session: SimSession, frames: Record<string, unknown>[]): Promise<void> {
  for (const f of frames) {
    await session.pump.advanceTo(session.clock.now() + 1);
    session.marketFrame(f);
  }
  await session.pump.advanceTo(session.clock.now() + 10);
}

describe("review17 r2rest: a gap heal in an mm record recording is not a seq restart", () => {
  it("the recorder's gap-heal snapshot (same seq as the delta after the gap, true book) is not counted as resubscribed", async () => {
    const { session } = oneTokenSession(TOKEN, { margin: "0.01" });
    await session.start();
    await feed(session, [
      snap(1, [level("0.40")], [level("0.42")]),
      delta(2, 1, "buy", "0.39", "50"),
      // seq 3 (the 0.39 bid leaving) was lost on the recorder's link: delta 4 says prevSeq 3.
      delta(4, 3, "sell", "0.43", "50"),
      // The recorder's tracker asked for a snapshot; the exchange answers at seq 4, the true book.
      snap(4, [level("0.40")], [level("0.42"), level("0.43", "50")]),
      delta(5, 4, "buy", "0.38", "10"),
    ]);
    // The bot follows the data to the end either way.
    expect(session.tracker.book(TOKEN)?.toWire()).toEqual(session.books.book(TOKEN).toWire());
    // No sequence restarted: a gap was healed.
    expect(session.counters.resubscribed).toBe(0);
    await session.finish();
  });

  it("a rotation's fresh snapshot of a book deeper than the snapshot depth (100) is not a restart", async () => {
    // mm record asks every book again when a file rotates (onRotated): same seq, nothing happened,
    // but the answer lists 100 levels a side while the exchange's book in the replay also holds the
    // deeper levels deltas gave it. That 'other book' is not a restart either.
    const { session } = oneTokenSession(TOKEN, { margin: "0.01" });
    await session.start();
    const top100 = Array.from({ length: 100 }, (_, i) => level((0.4 - i * 0.001).toFixed(3)));
    await feed(session, [
      snap(1, top100, [level("0.42")]),
      delta(2, 1, "buy", "0.300", "100"), // the 101st bid level
      snap(2, top100, [level("0.42")]), // the rotation's snapshot at depth 100
    ]);
    expect(session.counters.resubscribed).toBe(0);
    await session.finish();
  });

  it("the rotation's snapshot of a deep book does not pull the bot's resting quotes", async () => {
    // The 'restart' hands the tracker expectSnapshot: the book goes resyncing ("resubscribed")
    // and the engine's book gate cancels the token's quotes, then requotes them at the back of the
    // queue. Live, the same rotation snapshot (an answer at the bot's own seq) changes nothing.
    const { session } = oneTokenSession(TOKEN, { margin: "0.01" });
    await session.start();
    const top100 = Array.from({ length: 100 }, (_, i) => level((0.4 - i * 0.001).toFixed(3)));
    await feed(session, [snap(1, top100, [level("0.44")]), delta(2, 1, "buy", "0.300", "100")]);
    await session.pump.advanceTo(session.clock.now() + 1_000); // the bot quotes
    const cancels: string[] = [];
    const placed: string[] = [];
    session.venueEvents.push((e) => {
      if (e.type === "order_cancelled") cancels.push(e.type);
      if (e.type === "order_placed") placed.push(e.type);
    });
    await feed(session, [snap(2, top100, [level("0.44")])]);
    await session.pump.advanceTo(session.clock.now() + 1_000);
    expect({ cancels: cancels.length, placed: placed.length }).toEqual({ cancels: 0, placed: 0 });
    await session.finish();
  });
});
