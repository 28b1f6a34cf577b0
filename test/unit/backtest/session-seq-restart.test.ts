import { describe, expect, it } from "vitest";
import type { SimSession } from "../../../src/backtest/sim/session.js";
import { oneTokenSession } from "./support/one-token-session.js";

/*
 * Every `mm import` starts its token at seq 1, so the second of two consecutive captures in one
 * directory restarts the token's sequence (so does a recording across an exchange restart). The
 * exchange applies whatever the data says; the bot's tracker, which drops a snapshot at or below
 * its last seq as stale, must take such a snapshot as a new subscription's, or it keeps the old
 * book and drops every delta after it.
 */
const TOKEN = "4242";
const level = (price: string, size = "100") => ({ price, size });
const snap = (seq: number, bid: string, ask: string) => ({
  type: "book_snapshot",
  sid: 1,
  channel: "token_book",
  id: TOKEN,
  data: { tokenId: TOKEN, tsMs: 1, seq, bids: [level(bid)], asks: [level(ask)] },
});
const delta = (seq: number, side: "buy" | "sell", price: string, size: string) => ({
  type: "book_delta",
  sid: 1,
  channel: "token_book",
  id: TOKEN,
  data: { tokenId: TOKEN, tsMs: 1, seq, prevSeq: seq - 1, changes: [{ side, price, size }] },
});

// Feeds the frames one ms apart and lets the 5 ms feed latency run out.
async function feed(session: SimSession, frames: Record<string, unknown>[]): Promise<void> {
  for (const f of frames) {
    await session.pump.advanceTo(session.clock.now() + 1);
    session.marketFrame(f);
  }
  await session.pump.advanceTo(session.clock.now() + 10);
}

function expectBotSeesExchange(session: SimSession): void {
  expect(session.tracker.book(TOKEN)?.toWire()).toEqual(session.books.book(TOKEN).toWire());
  expect(session.tracker.state(TOKEN)?.lastSeq).toBe(session.books.lastSeq(TOKEN));
  expect(session.tracker.state(TOKEN)?.status).toBe("synced");
}

async function started(): Promise<SimSession> {
  const { session } = oneTokenSession(TOKEN, { margin: "0.01" });
  await session.start();
  await feed(session, [
    snap(1, "0.40", "0.42"),
    delta(2, "buy", "0.39", "50"),
    delta(3, "sell", "0.43", "50"),
  ]);
  expectBotSeesExchange(session);
  return session;
}

describe("SimSession: a recorded snapshot that restarts its token's seq", () => {
  it("a lower seq: the bot resyncs to it and follows the deltas after it", async () => {
    const session = await started();
    await feed(session, [
      snap(1, "0.70", "0.72"),
      delta(2, "buy", "0.69", "30"),
      delta(3, "sell", "0.73", "30"),
    ]);
    expectBotSeesExchange(session);
    expect(session.tracker.book(TOKEN)?.bestBid()?.price).toBe(700_000);
    expect(session.tracker.counters.droppedStale).toBe(0);
    expect(session.counters.resubscribed).toBe(1);
    expect(session.counters.snapshotsServed).toBe(0); // no resync request: the snapshot is the answer
    await session.finish();
  });

  it("the same seq with another book (a healed gap, a depth-100 probe): no restart, as live", async () => {
    const session = await started();
    await feed(session, [snap(3, "0.70", "0.72")]);
    // Live, a snapshot at the tracker's own seq is dropped as stale; the recorder's answers on the
    // live sequence (gap heal, rotation probe) must not close the book gate and requote the token.
    expect(session.counters.resubscribed).toBe(0);
    expect(session.tracker.state(TOKEN)?.status).toBe("synced");
    expect(session.tracker.state(TOKEN)?.lastSeq).toBe(3);
    expect(session.tracker.book(TOKEN)?.bestBid()?.price).toBe(400_000);
    await session.finish();
  });

  it("the same seq and the same book (a recorder's probe answered 'nothing happened'): no restart", async () => {
    const session = await started();
    const same = {
      ...snap(3, "0.40", "0.42"),
      data: {
        tokenId: TOKEN,
        tsMs: 1,
        seq: 3,
        bids: [level("0.40"), level("0.39", "50")],
        asks: [level("0.42"), level("0.43", "50")],
      },
    };
    await feed(session, [same, delta(4, "buy", "0.38", "10")]);
    expectBotSeesExchange(session);
    expect(session.counters.resubscribed).toBe(0);
    await session.finish();
  });

  it("a higher seq: a newer snapshot, applied as always and no restart", async () => {
    const session = await started();
    await feed(session, [snap(9, "0.50", "0.52"), delta(10, "sell", "0.53", "5")]);
    expectBotSeesExchange(session);
    expect(session.counters.resubscribed).toBe(0);
    await session.finish();
  });
});
