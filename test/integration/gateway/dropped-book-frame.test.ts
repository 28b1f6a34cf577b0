import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import type { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import type { RefusedEvent } from "../../../src/gateway/refused.js";
import { ackingSnapshots, politeAnswer, RawServer } from "./raw-server.js";
import { feedSlots, snapshotFrame } from "./sim-feed.js";

/*
 * A token_book frame of a subscribed, tracked token that the gateway's boundary parser refuses
 * (parseBookFrame: bad_seq, bad_ts, bad_token…) is counted as malformed and dropped, and the
 * BookTracker is told (GatewayClient.onRefused → MarketDataFeed → BookTracker.frameLost): the
 * exchange's book moved on by that frame, so ours resyncs at once instead of staying `synced` and
 * quotable on levels that may be gone until some later frame happens to expose the gap (on a
 * quiet book: much later). First found by the marketdata review (defect 1).
 */

const TOKEN = "123456";
const OTHER = "777";
const slots = feedSlots();

const frame = (type: string, data: Record<string, unknown>, id: string = TOKEN) => ({
  type,
  sid: 1,
  channel: "token_book",
  id,
  data: { tokenId: id, ...data },
});

async function syncedFeed(): Promise<{ srv: RawServer; f: MarketDataFeed; refused: RefusedEvent[] }> {
  const srv = await new RawServer(ackingSnapshots()).listen();
  const { client, feed: f } = slots.feedOn(srv);
  const refused: RefusedEvent[] = [];
  client.onRefused((r) => refused.push(r));
  await f.start();
  await f.subscribeBooks([TOKEN]);
  srv.conns[0]?.send(snapshotFrame(TOKEN, 1, 1, "10"));
  await client.ping(); // frames are ordered: once the pong is in, the snapshot is applied
  expect(f.tracker.state(TOKEN)).toMatchObject({ status: "synced", quotable: true, lastSeq: 1 });
  return { srv, f, refused };
}

// The best ask at 0.52 is taken and a new one appears at 0.55: a frame we cannot use.
const CHANGES = [
  { side: "sell", price: "0.52", size: "0" },
  { side: "sell", price: "0.55", size: "5" },
];

describe("a refused token_book frame of a tracked token resyncs its book", () => {
  it("a seq sent as a string (book_bad_seq): not quotable, one get_book_snapshot, counted once per layer", async () => {
    const { srv, f, refused } = await syncedFeed();
    srv.conns[0]?.send(frame("book_delta", { seq: "2", prevSeq: 1, tsMs: 2_000, changes: CHANGES }));
    await f.client.ping();

    expect(f.client.counters.malformed).toEqual({ book_bad_seq: 1 }); // the gateway's count
    expect(f.tracker.counters.malformed).toBe(1); // the book's: one frame it could not apply
    expect(f.tracker.state(TOKEN)).toMatchObject({
      status: "resyncing",
      reason: "malformed",
      quotable: false,
    });
    expect(srv.commands("get_book_snapshot").map((c) => c.params)).toEqual([{ tokenId: TOKEN }]);
    expect(refused).toMatchObject([
      { type: "book_delta", channel: "token_book", rejected: "book_bad_seq", ids: [TOKEN], link: 0 },
    ]);

    // The answer (at the exchange's current seq) brings the book back, on the new levels.
    srv.conns[0]?.send(
      frame("book_snapshot", {
        seq: 2,
        tsMs: 2_100,
        bids: [{ price: "0.5", size: "10" }],
        asks: [{ price: "0.55", size: "5" }],
      }),
    );
    await f.client.ping();
    expect(f.tracker.state(TOKEN)).toMatchObject({ status: "synced", quotable: true, lastSeq: 2 });
    expect(f.tracker.book(TOKEN)?.bestAsk()?.price).toBe(550_000);
  });

  it("a tsMs sent as a string (book_bad_ts) resyncs the book the same way", async () => {
    const { srv, f } = await syncedFeed();
    srv.conns[0]?.send(frame("book_delta", { seq: 2, prevSeq: 1, tsMs: "2000", changes: CHANGES }));
    await f.client.ping();

    expect(f.client.counters.malformed).toEqual({ book_bad_ts: 1 });
    expect(f.tracker.book(TOKEN)?.bestAsk()?.price).toBe(520_000); // not applied …
    expect(f.tracker.state(TOKEN)?.quotable).toBe(false); // … so not quoted from either
    expect(srv.commands("get_book_snapshot").map((c) => c.params)).toEqual([{ tokenId: TOKEN }]);
  });

  it("a payload tokenId that is not the envelope id (book_bad_token): the tracked one named resyncs", async () => {
    const { srv, f, refused } = await syncedFeed();
    srv.conns[0]?.send({ ...frame("book_delta", { seq: 2, prevSeq: 1, changes: CHANGES }), id: OTHER });
    await f.client.ping();

    expect(f.client.counters.malformed).toEqual({ book_bad_token: 1 });
    expect(refused).toMatchObject([{ rejected: "book_bad_token", ids: [TOKEN] }]); // OTHER: not subscribed
    expect(f.tracker.state(TOKEN)).toMatchObject({ status: "resyncing", reason: "malformed" });
  });

  it("a refused frame of a token nobody subscribed, or of another channel, leaves the book alone", async () => {
    const { srv, f, refused } = await syncedFeed();
    const conn = srv.conns[0];
    conn?.send(frame("book_delta", { seq: "2", prevSeq: 1, changes: CHANGES }, OTHER));
    conn?.send({
      type: "trade_matched",
      sid: 1,
      channel: "token_trade_matches",
      id: TOKEN,
      data: { tokenId: TOKEN, price: 0.5 },
    });
    // A trade_matched labelled token_book: by its type, an event of token_trade_matches (not subscribed).
    conn?.send({ type: "trade_matched", sid: 1, channel: "token_book", id: TOKEN, data: {} });
    await f.client.ping();

    expect(f.client.counters.malformed).toEqual({ book_bad_seq: 1, bad_field: 1, wrong_channel: 1 });
    expect(refused).toEqual([]); // nothing subscribed lost an event
    expect(f.tracker.state(TOKEN)).toMatchObject({ status: "synced", quotable: true, lastSeq: 1 });
    expect(f.tracker.counters.malformed).toBe(0);
    expect(srv.commands("get_book_snapshot")).toEqual([]);
  });

  it("the lost snapshot of a resyncing book is asked again after back-off, not after the timeout", async () => {
    const srv = await new RawServer(ackingSnapshots()).listen();
    const tracker = { backoff: { baseMs: 500 }, snapshotTimeoutMs: 10_000 };
    const { clock, client, feed: f } = slots.feedOn(srv, { tracker });
    await f.start();
    await f.subscribeBooks([TOKEN]);
    // The subscription's snapshot arrives unusable: the book waited for exactly that frame.
    srv.conns[0]?.send(frame("book_snapshot", { seq: -1, bids: [], asks: [] }));
    await client.ping();
    expect(f.tracker.state(TOKEN)?.status).toBe("resyncing");
    expect(srv.commands("get_book_snapshot")).toEqual([]);
    clock.advanceBy(500);
    await client.ping();
    expect(srv.commands("get_book_snapshot").map((c) => c.params)).toEqual([{ tokenId: TOKEN }]);
  });
});

describe("GatewayClient.onRefused on /ws/user", () => {
  it("a refused user_fill is reported on the wallet-scoped channel (no ids); unsubscribed channels are not", async () => {
    const srv = await new RawServer(politeAnswer(), {
      connected: () => ({ gateway: "user", authMethod: "api_key", protocolVersion: 2 }),
    }).listen();
    slots.keep(srv);
    const client = slots.keep(
      new GatewayClient({ url: srv.url, gateway: "user", apiKey: "k", clock: new SimClock(0) }),
    );
    const refused: RefusedEvent[] = [];
    client.onRefused((r) => refused.push(r));
    await client.start();
    await client.subscribe("user_fills");
    const conn = srv.conns[0];
    conn?.send({ type: "user_fill", sid: 1, channel: "user_fills", data: { side: "BUY" } });
    conn?.send({ type: "order_placed", sid: 2, channel: "user_orders", data: [] }); // not subscribed
    await client.ping();
    expect(client.counters.malformed).toEqual({ bad_field: 1, bad_data: 1 });
    expect(refused).toMatchObject([
      { type: "user_fill", channel: "user_fills", rejected: "bad_field", ids: [] },
    ]);
  });
});
