import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MarketScenario } from "../../../../src/mock/scenario/types.js";
import { ReplayedBook, venueLevels } from "./book-replay.js";
import {
  connect,
  type Frame,
  KEYS,
  MM_WALLET,
  type Mock,
  OTHER_WALLET,
  place,
  startMock,
  type TestSocket,
} from "./helpers.js";

let mock: Mock;
let m: MarketScenario;
let s: TestSocket;
beforeEach(async () => {
  mock = await startMock();
  const first = mock.scenario.markets[0];
  if (first === undefined) throw new Error("scenario has no market");
  m = first;
  s = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
  await s.subscribe("token_book", [m.yesTokenId]);
  await s.take((f) => f.type === "book_snapshot");
});
afterEach(async () => {
  await mock.close();
});

const bid = (price: string, qty = "1") =>
  place(mock.ctx, { wallet: MM_WALLET, marketId: m.id, side: "buy", price, qty });
const deltas = (sock: TestSocket): Frame[] => sock.frames.filter((f) => f.type === "book_delta");

describe("feed fault: skipSeq", () => {
  it.each([["the token"], ["*"]])(
    "(%s) the next frame's prevSeq skips past the last seq; a resync converges",
    async (which) => {
      bid("0.40");
      mock.ctx.faults.feed.skipSeq.add(which === "*" ? "*" : m.yesTokenId);
      bid("0.41");
      bid("0.42");
      await s.barrier();
      expect(deltas(s).map((f) => [f.data.prevSeq, f.data.seq])).toEqual([
        [0, 1],
        [2, 3], // prevSeq 2 ≠ last seq 1: a gap, as if the frame with seq 2 was lost
        [3, 4],
      ]);
      expect(mock.ctx.faults.feed.skipSeq.size).toBe(0); // one-shot
      // The client resyncs with get_book_snapshot; the snapshot continues the feed's seq.
      await s.command("get_book_snapshot", { tokenId: m.yesTokenId });
      const snap = await s.take((f) => f.type === "book_snapshot");
      expect(snap.data.seq).toBe(4);
      bid("0.43");
      await s.barrier();
      const book = new ReplayedBook();
      book.apply(snap);
      expect(book.apply(deltas(s)[3] ?? {})).toBe(true);
      expect(book.levels()).toEqual(venueLevels(mock.ctx, m.yesTokenId));
    },
  );
});

describe("feed fault: reorder", () => {
  it("swaps the next two book frames of the token", async () => {
    mock.ctx.faults.feed.reorder.add(m.yesTokenId);
    bid("0.40");
    bid("0.41");
    bid("0.42");
    await s.barrier();
    expect(deltas(s).map((f) => f.data.seq)).toEqual([2, 1, 3]);
    expect(mock.ctx.faults.feed.reorder.size).toBe(0);
  });
});

describe("feed fault: silenced", () => {
  it("no channel events for the token (book, trades, snapshots) while pings are answered; the gap shows after", async () => {
    await s.command("subscribe", {
      subscriptions: [
        { channel: "token_trade_matches", ids: [m.yesTokenId] },
        { channel: "token_ohlc", ids: [m.yesTokenId] },
        { channel: "token_book", ids: [m.noTokenId] },
      ],
    });
    await s.take((f) => f.type === "book_snapshot" && f.id === m.noTokenId);
    bid("0.40");
    await s.barrier();
    mock.ctx.faults.feed.silenced.add(m.yesTokenId);
    const before = s.frames.length;
    place(mock.ctx, { wallet: MM_WALLET, marketId: m.id, side: "sell", price: "0.5", qty: "5" });
    place(mock.ctx, { wallet: OTHER_WALLET, marketId: m.id, side: "buy", price: "0.5", qty: "1" });
    place(mock.ctx, {
      wallet: MM_WALLET,
      marketId: m.id,
      outcome: "NO",
      side: "buy",
      price: "0.3",
      qty: "1",
    });
    expect((await s.command("get_book_snapshot", { tokenId: m.yesTokenId })).type).toBe(
      "book_snapshot_requested",
    );
    await s.barrier();
    const during = s.frames.slice(before).filter((f) => f.data !== undefined);
    expect(during.map((f) => [f.type, f.id])).toEqual([["book_delta", m.noTokenId]]);
    mock.ctx.faults.feed.silenced.delete(m.yesTokenId);
    bid("0.41");
    const next = await s.take(
      (f) => f.type === "book_delta" && f.id === m.yesTokenId && f.data.changes[0].price === "0.41",
    );
    const last = deltas(s)
      .filter((f) => f.id === m.yesTokenId && f !== next)
      .at(-1);
    expect(next.data.prevSeq).not.toBe(last?.data.seq);
  });

  it('"*" silences every token', async () => {
    mock.ctx.faults.feed.silenced.add("*");
    bid("0.40");
    await s.barrier();
    expect(deltas(s)).toEqual([]);
  });
});

describe("fault: wsLatencyMs", () => {
  it("holds every frame for the latency on the mock's clock, in order", async () => {
    mock.ctx.faults.wsLatencyMs = 500;
    bid("0.40");
    s.sendRaw(JSON.stringify({ id: "p", cmd: "ping" }));
    await new Promise((r) => setTimeout(r, 100));
    expect(deltas(s)).toEqual([]);
    expect(s.frames.find((f) => f.id === "p")).toBeUndefined();
    mock.clock.advanceBy(499);
    await new Promise((r) => setTimeout(r, 50));
    expect(deltas(s)).toEqual([]);
    mock.clock.advanceBy(1);
    const pong = await s.take((f) => f.id === "p");
    expect(s.frames.indexOf(pong)).toBeGreaterThan(s.frames.indexOf(deltas(s)[0] ?? {}));
    expect(deltas(s)).toHaveLength(1);
    mock.ctx.faults.wsLatencyMs = 0;
    await s.barrier();
  });
});

describe("GatewayControl", () => {
  it("closeKey closes only that key's sockets with 4401 <reason>", async () => {
    const read = await connect(`${mock.wsUrl}/ws/user`, { "X-Api-Key": KEYS.read });
    const readMarket = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.read });
    expect(mock.gateways.openSockets()).toBe(3);
    mock.gateways.closeKey("e03d44eb088dd604", "api_key_revoked");
    expect(await read.closed).toEqual({ code: 4401, reason: "api_key_revoked" });
    expect(await readMarket.closed).toEqual({ code: 4401, reason: "api_key_revoked" });
    await s.barrier();
    await waitFor(() => mock.gateways.openSockets() === 1);
  });

  it("a key revoked in the directory is refused at the next handshake too", async () => {
    const key = mock.ctx.directory.keys.get("e03d44eb088dd604");
    if (key === undefined) throw new Error("missing key");
    key.revoked = true;
    mock.gateways.closeKey(key.keyId, "api_key_revoked");
    const again = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.read }).catch(
      (e: Error) => e.message,
    );
    expect(again).toBe("closed 4401 api_key_revoked");
  });

  it("closePartner closes every socket of the partner's keys", async () => {
    const multi = await connect(`${mock.wsUrl}/ws/user`, {
      "X-Api-Key": KEYS.multiKyc,
      "X-User-Wallet": OTHER_WALLET,
    });
    const read = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.read });
    mock.gateways.closePartner("partner-mm", "api_key_suspended");
    expect(await s.closed).toEqual({ code: 4401, reason: "api_key_suspended" });
    expect(await read.closed).toEqual({ code: 4401, reason: "api_key_suspended" });
    await multi.barrier();
    await waitFor(() => mock.gateways.openSockets() === 1);
  });

  it("dropAll terminates every socket without a close frame", async () => {
    const u = await connect(`${mock.wsUrl}/ws/user`, { "X-Api-Key": KEYS.full });
    mock.gateways.dropAll();
    expect((await s.closed).code).toBe(1006);
    expect((await u.closed).code).toBe(1006);
    await waitFor(() => mock.gateways.openSockets() === 0);
    bid("0.40"); // publishing to no one is harmless
    const fresh = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
    await fresh.barrier();
  });
});

describe("slow consumer", () => {
  it("a client that stops reading is terminated once its unsent frames pass maxBufferedBytes", async () => {
    const slow = await startMock({ timing: { bookUpdateIntervalMs: 1 }, maxBufferedBytes: 1 << 20 });
    try {
      const fine = slow.scenario.markets.find((x) => x.tickSize === "0.001");
      if (fine === undefined) throw new Error("scenario has no 0.001-tick market");
      for (let i = 0; i < 100; i++) {
        const price = (0.1 + i / 1000).toFixed(3);
        place(slow.ctx, { wallet: MM_WALLET, marketId: fine.id, side: "buy", price, qty: "1" });
        place(slow.ctx, {
          wallet: MM_WALLET,
          marketId: fine.id,
          side: "sell",
          price: (0.7 + i / 1000).toFixed(3),
          qty: "1",
        });
      }
      const reader = await connect(`${slow.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
      const stalled = await connect(`${slow.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
      await reader.subscribe("token_book", [fine.yesTokenId]);
      await stalled.subscribe("token_book", [fine.yesTokenId]);
      await stalled.take((f) => f.type === "book_snapshot");
      stalled.ws.pause();
      // 3,000 full books of 200 levels, about 20 MB per socket, in bursts the reader keeps up with.
      for (let i = 0; i < 30 && slow.gateways.openSockets() === 2; i++) {
        slow.clock.advanceBy(100);
        await reader.barrier();
      }
      await waitFor(() => slow.gateways.openSockets() === 1);
      await reader.barrier();
      expect(reader.ofType("book_update").length).toBeGreaterThan(0);
      // Paused, it never reads the server's FIN: without this its socket outlives the file (the
      // worker runs later files in the same process).
      stalled.ws.terminate();
    } finally {
      await slow.close();
    }
  });
});

async function waitFor(cond: () => boolean, ms = 2_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}
