import { afterEach, describe, expect, it } from "vitest";
import type { Address } from "../../../../src/core/types.js";
import type { MarketScenario } from "../../../../src/mock/scenario/types.js";
import { mulberry32 } from "../../../support/mulberry32.js";
import { ReplayedBook, venueLevels } from "./book-replay.js";
import {
  connect,
  type Frame,
  KEYS,
  MM_WALLET,
  type Mock,
  place,
  startMock,
  type TestSocket,
} from "./helpers.js";

const FLOW_WALLET = "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc" as Address;

let mock: Mock;
afterEach(async () => {
  await mock.close();
});

function firstMarket(): MarketScenario {
  const m = mock.scenario.markets[0];
  if (m === undefined) throw new Error("scenario has no market");
  return m;
}

const marketSocket = (): Promise<TestSocket> =>
  connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
const bookFrames = (s: TestSocket, tokenId: string): Frame[] =>
  s.frames.filter((f) => f.channel === "token_book" && f.id === tokenId);

/** A reproducible stream of resting, crossing and cancelled orders on one market. */
function churn(m: MarketScenario, steps: number, seed: number): void {
  const rnd = mulberry32(seed);
  for (let i = 0; i < steps; i++) {
    const wallet = rnd() < 0.5 ? MM_WALLET : FLOW_WALLET;
    const r = rnd();
    if (r < 0.2) {
      const open = mock.ctx.venue.openOrders(wallet, m.id);
      const victim = open[Math.floor(rnd() * open.length)];
      if (victim !== undefined) mock.ctx.venue.cancel(wallet, victim.id);
      continue;
    }
    const side = r < 0.6 ? "buy" : "sell";
    const cents = side === "buy" ? 40 + Math.floor(rnd() * 16) : 45 + Math.floor(rnd() * 16);
    place(mock.ctx, {
      wallet,
      marketId: m.id,
      outcome: rnd() < 0.8 ? "YES" : "NO",
      side,
      price: (cents / 100).toFixed(2),
      qty: String(1 + Math.floor(rnd() * 20)),
    });
  }
}

describe("token_book", () => {
  it("one book_snapshot after subscribe, then contiguous book_delta frames that replay to the venue's book", async () => {
    mock = await startMock();
    const m = firstMarket();
    churn(m, 40, 1); // a book that already has history before the subscription
    const s = await marketSocket();
    await s.command("subscribe", {
      subscriptions: [{ channel: "token_book", ids: [m.yesTokenId, m.noTokenId] }],
    });
    churn(m, 300, 2);
    await s.barrier();
    for (const tokenId of [m.yesTokenId, m.noTokenId]) {
      const frames = bookFrames(s, tokenId);
      expect(frames[0]?.type).toBe("book_snapshot");
      expect(frames.filter((f) => f.type === "book_snapshot")).toHaveLength(1);
      expect(frames.length).toBeGreaterThan(20);
      const book = new ReplayedBook();
      for (const f of frames) {
        const before = book.seq;
        expect(book.apply(f)).toBe(true);
        if (before !== undefined) expect(f.data).toMatchObject({ prevSeq: before, seq: before + 1 });
        expect(f.data.tsMs).toBe(mock.clock.now());
      }
      expect(book.levels()).toEqual(venueLevels(mock.ctx, tokenId));
    }
    s.close();
  });

  it("book_delta payload: the spec's fields, changes as {side, price, size} with the level total and 0 removing", async () => {
    mock = await startMock();
    const m = firstMarket();
    const s = await marketSocket();
    await s.subscribe("token_book", [m.yesTokenId]);
    const a = place(mock.ctx, { wallet: MM_WALLET, marketId: m.id, side: "buy", price: "0.45", qty: "10" });
    place(mock.ctx, { wallet: FLOW_WALLET, marketId: m.id, side: "buy", price: "0.45", qty: "2.5" });
    mock.ctx.venue.cancel(MM_WALLET, a.orderId);
    place(mock.ctx, { wallet: MM_WALLET, marketId: m.id, side: "sell", price: "0.45", qty: "2.5" });
    await s.barrier();
    const deltas = bookFrames(s, m.yesTokenId).filter((f) => f.type === "book_delta");
    expect(deltas.map((f) => f.data.changes)).toEqual([
      [{ side: "buy", price: "0.45", size: "10" }],
      [{ side: "buy", price: "0.45", size: "12.5" }],
      [{ side: "buy", price: "0.45", size: "2.5" }],
      [{ side: "buy", price: "0.45", size: "0" }],
    ]);
    expect(Object.keys(deltas[0]?.data ?? {})).toEqual([
      "tokenId",
      "conditionId",
      "outcomeIndex",
      "seq",
      "prevSeq",
      "changes",
      "tsMs",
    ]);
    expect(deltas[0]).toMatchObject({ type: "book_delta", sid: 1, channel: "token_book", id: m.yesTokenId });
    expect(deltas[0]?.data).toMatchObject({
      tokenId: m.yesTokenId,
      conditionId: m.conditionId,
      outcomeIndex: 0,
    });
    s.close();
  });

  it("book_snapshot: the spec's fields, depth 100, best first", async () => {
    mock = await startMock();
    const fine = mock.scenario.markets.find((x) => x.tickSize === "0.001");
    if (fine === undefined) throw new Error("scenario has no 0.001-tick market");
    for (let i = 0; i < 120; i++) {
      place(mock.ctx, {
        wallet: MM_WALLET,
        marketId: fine.id,
        side: "buy",
        price: (0.1 + i / 1000).toFixed(3),
        qty: "1",
      });
    }
    const s = await marketSocket();
    await s.subscribe("token_book", [fine.yesTokenId]);
    const snap = await s.take((f) => f.type === "book_snapshot");
    expect(Object.keys(snap.data)).toEqual([
      "tokenId",
      "conditionId",
      "outcomeIndex",
      "bids",
      "asks",
      "seq",
      "tsMs",
    ]);
    expect(snap.data.bids).toHaveLength(100);
    expect(snap.data.bids[0]).toEqual({ price: "0.219", size: "1" });
    expect(snap.data.bids[99]).toEqual({ price: "0.12", size: "1" });
    expect(snap.data.asks).toEqual([]);
    expect(snap.data.seq).toBe(120);
    s.close();
  });

  it("each subscription gets its own snapshot; a late subscriber continues from the same seq", async () => {
    mock = await startMock();
    const m = firstMarket();
    const early = await marketSocket();
    await early.command("subscribe", {
      subscriptions: [
        { channel: "token_book", ids: [m.yesTokenId] },
        { channel: "token_book", ids: [m.yesTokenId] },
      ],
    });
    churn(m, 50, 3);
    const late = await marketSocket();
    await late.subscribe("token_book", [m.yesTokenId]);
    churn(m, 50, 4);
    await early.barrier();
    await late.barrier();
    const snaps = early.frames.filter((f) => f.type === "book_snapshot");
    expect(snaps.map((f) => f.sid)).toEqual([1, 2]);
    const lateFrames = bookFrames(late, m.yesTokenId);
    const earlyDeltas = bookFrames(early, m.yesTokenId).filter((f) => f.sid === 1 && f.type === "book_delta");
    const lateSnap = lateFrames[0];
    expect(lateSnap?.type).toBe("book_snapshot");
    const following = earlyDeltas.filter((f) => f.data.seq > (lateSnap?.data.seq ?? 0));
    expect(lateFrames.slice(1).map((f) => f.data)).toEqual(following.map((f) => f.data));
    expect(following[0]?.data.prevSeq).toBe(lateSnap?.data.seq);
    early.close();
    late.close();
  });

  it("a periodic full book_update (timing.bookUpdateIntervalMs) takes the next seq; deltas continue after it", async () => {
    mock = await startMock({ timing: { bookUpdateIntervalMs: 1_000 } });
    const m = firstMarket();
    const s = await marketSocket();
    await s.subscribe("token_book", [m.yesTokenId]);
    place(mock.ctx, { wallet: MM_WALLET, marketId: m.id, side: "buy", price: "0.41", qty: "3" });
    place(mock.ctx, { wallet: MM_WALLET, marketId: m.id, side: "sell", price: "0.61", qty: "4" });
    mock.clock.advanceBy(999);
    await s.barrier();
    expect(s.ofType("book_update")).toEqual([]);
    mock.clock.advanceBy(1);
    const update = await s.take((f) => f.type === "book_update");
    expect(update.data).toEqual({
      tokenId: m.yesTokenId,
      conditionId: m.conditionId,
      outcomeIndex: 0,
      seq: 3,
      prevSeq: 2,
      bids: [{ price: "0.41", size: "3" }],
      asks: [{ price: "0.61", size: "4" }],
      tsMs: mock.clock.now(),
    });
    place(mock.ctx, { wallet: MM_WALLET, marketId: m.id, side: "buy", price: "0.42", qty: "1" });
    mock.clock.advanceBy(1_000);
    await s.barrier();
    const frames = bookFrames(s, m.yesTokenId);
    expect(frames.map((f) => [f.type, f.data.seq, f.data.prevSeq])).toEqual([
      ["book_snapshot", 0, undefined],
      ["book_delta", 1, 0],
      ["book_delta", 2, 1],
      ["book_update", 3, 2],
      ["book_delta", 4, 3],
      ["book_update", 5, 4],
    ]);
    const book = new ReplayedBook();
    for (const f of frames) expect(book.apply(f)).toBe(true);
    expect(book.levels()).toEqual(venueLevels(mock.ctx, m.yesTokenId));
    // A new subscriber's snapshot carries the feed's seq (venue seq + updates), not the venue's.
    const late = await marketSocket();
    await late.subscribe("token_book", [m.yesTokenId]);
    expect((await late.take((f) => f.type === "book_snapshot")).data.seq).toBe(5);
    s.close();
    late.close();
  });

  it("no book_update once nobody subscribes to token_book", async () => {
    mock = await startMock({ timing: { bookUpdateIntervalMs: 1_000 } });
    const m = firstMarket();
    const s = await marketSocket();
    const sid = (await s.subscribe("token_book", [m.yesTokenId])).accepted[0].sid;
    await s.command("unsubscribe", { sid });
    mock.clock.advanceBy(5_000);
    await s.barrier();
    expect(s.ofType("book_update")).toEqual([]);
    expect(mock.clock.pending).toBe(0);
    s.close();
  });
});
