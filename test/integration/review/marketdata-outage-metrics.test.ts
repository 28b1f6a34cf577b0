import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import { politeAnswer, RawServer } from "../gateway/raw-server.js";

/*
 * Review 14 (marketdata). mm_book_snapshot_requests_total is README's "get_book_snapshot requests
 * (gaps, crossed books, stalls, retries)" and is exported from BookTracker.counters.resyncs
 * (families-book.ts). The tracker bumps it on every port call, but while a /ws/market link is down
 * the port (GatewayClient.requestBookSnapshot) sends nothing (snapshotRequestsUnsent). So during an
 * outage every tracked book "requests" a snapshot every back-off (≤ 30 s) and "times out"
 * (mm_book_snapshot_failures_total{kind="timeout"}) — with 1,000 books a 5-minute outage shows
 * ~10,000 requests and failures that never reached the exchange, pointing the operator (and
 * MmBookStale's description: "check … snapshot failures") at the exchange's snapshot service
 * rather than at the lost connection.
 */

const TOKEN = "123456";
let server: RawServer | undefined;
let feed: MarketDataFeed | undefined;
afterEach(async () => {
  await feed?.close();
  await server?.close();
  feed = undefined;
  server = undefined;
});

describe("marketdata review: snapshot request metrics during a /ws/market outage", () => {
  it("counts as requested only the get_book_snapshot commands actually sent", async () => {
    // The first connection works; every later one is refused at once (the exchange's gateway down).
    const srv = await new RawServer(politeAnswer(), {
      onConnection: (c) => {
        if (c.n > 0) c.ws.terminate();
      },
    }).listen();
    server = srv;
    const clock = new SimClock(1_000_000);
    const client = new GatewayClient({
      url: srv.url,
      gateway: "market",
      apiKey: "k",
      clock,
      random: () => 0.5,
    });
    const f = new MarketDataFeed({ client, clock, tracker: { stall: { enabled: false } } });
    feed = f;
    await f.start();
    await f.subscribeBooks([TOKEN]);
    srv.conns[0]?.send({
      type: "book_snapshot",
      sid: 1,
      channel: "token_book",
      id: TOKEN,
      data: {
        tokenId: TOKEN,
        seq: 1,
        bids: [{ price: "0.5", size: "1" }],
        asks: [{ price: "0.6", size: "1" }],
      },
    });
    await client.ping();
    expect(f.tracker.state(TOKEN)?.status).toBe("synced");

    client.dropLink(0);
    // Two minutes of outage, in 250 ms steps of the SimClock with real I/O in between.
    for (let i = 0; i < 480; i++) {
      clock.advanceBy(250);
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(f.tracker.state(TOKEN)?.status).toBe("resyncing");
    expect(srv.commands("get_book_snapshot")).toHaveLength(0);
    expect(client.counters.snapshotRequests).toBe(0);
    expect(client.counters.snapshotRequestsUnsent).toBeGreaterThan(0);
    // mm_book_snapshot_requests_total's source: must not count requests that never left.
    expect(f.tracker.counters.resyncs).toBe(client.counters.snapshotRequests);
  });
});
