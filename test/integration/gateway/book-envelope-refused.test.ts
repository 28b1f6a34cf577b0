import { describe, expect, it } from "vitest";
import type { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import { ackingSnapshots, RawServer } from "./raw-server.js";
import { feedSlots, snapshotFrame } from "./sim-feed.js";

/*
 * A token_book frame refused for its envelope is a frame the book missed. README "Order book":
 * a malformed event of something subscribed is reported (GatewayClient.onRefused) with the ids it
 * names, and the MarketDataFeed resyncs the book. A book_delta with a bad envelope (`sid`
 * missing/null, an envelope id that is not a string) or a wrong `channel` label is still a
 * token_book event by its type, naming a subscribed token in its payload: the book must resync,
 * not stay `synced` and quotable on levels the exchange has already changed.
 */

const TOKEN = "123456";
const slots = feedSlots();

async function syncedFeed(): Promise<{ srv: RawServer; f: MarketDataFeed }> {
  const srv = await new RawServer(ackingSnapshots()).listen();
  const { client, feed: f } = slots.feedOn(srv);
  await f.start();
  await f.subscribeBooks([TOKEN]);
  srv.conns[0]?.send(snapshotFrame(TOKEN, 1, 1, "10"));
  await client.ping();
  expect(f.tracker.state(TOKEN)).toMatchObject({ status: "synced", quotable: true });
  return { srv, f };
}

const delta = {
  tokenId: TOKEN,
  seq: 2,
  prevSeq: 1,
  tsMs: 2_000,
  changes: [{ side: "sell", price: "0.52", size: "0" }],
};

describe("a token_book frame refused for its envelope is a frame the book missed", () => {
  it("book_delta with sid null: counted malformed AND the book resyncs (not left synced on a gone ask)", async () => {
    const { srv, f } = await syncedFeed();
    srv.conns[0]?.send({ type: "book_delta", sid: null, channel: "token_book", id: TOKEN, data: delta });
    await f.client.ping();
    expect(f.client.counters.malformed).toEqual({ bad_envelope: 1 });
    // The exchange's best ask 0.52 is gone; ours still shows it. The book must not stay quotable.
    expect(f.tracker.state(TOKEN)?.quotable).toBe(false);
    expect(srv.commands("get_book_snapshot").map((c) => c.params)).toEqual([{ tokenId: TOKEN }]);
  });

  it("book_delta with a numeric envelope id: same", async () => {
    const { srv, f } = await syncedFeed();
    srv.conns[0]?.send({ type: "book_delta", sid: 1, channel: "token_book", id: Number(TOKEN), data: delta });
    await f.client.ping();
    expect(f.client.counters.malformed).toEqual({ bad_envelope: 1 });
    expect(f.tracker.state(TOKEN)?.quotable).toBe(false);
  });

  it("book_delta labelled with another channel: its type says token_book, so the book resyncs too", async () => {
    const { srv, f } = await syncedFeed();
    srv.conns[0]?.send({
      type: "book_delta",
      sid: 1,
      channel: "token_trade_matches",
      id: TOKEN,
      data: delta,
    });
    await f.client.ping();
    expect(f.client.counters.malformed).toEqual({ wrong_channel: 1 });
    expect(f.tracker.state(TOKEN)).toMatchObject({
      status: "resyncing",
      reason: "malformed",
      quotable: false,
    });
    expect(srv.commands("get_book_snapshot").map((c) => c.params)).toEqual([{ tokenId: TOKEN }]);
  });
});
