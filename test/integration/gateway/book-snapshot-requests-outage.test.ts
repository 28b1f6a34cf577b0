import { describe, expect, it } from "vitest";
import { politeAnswer, RawServer, type Received } from "./raw-server.js";
import { feedSlots, run, snapshotFrame } from "./sim-feed.js";

/*
 * Snapshot requests while /ws/market is down. mm_book_snapshot_requests_total
 * (BookTracker.counters.resyncs) counts get_book_snapshot requests sent, and
 * mm_book_snapshot_failures_total{kind="timeout"} (counters.snapshotTimeouts) those unanswered in
 * time. While a link is down GatewayClient.requestBookSnapshot can send nothing (it says so): its
 * books stay `resyncing` and wait for the resubscribe's snapshot, asking and timing out nothing
 * meanwhile, so an outage shows as the connection's (mm_ws_*), not as ~10,000 phantom requests and
 * timeouts pointing at the exchange's snapshot service. A book that lost frames while its
 * subscribe was not yet accepted (a slow ack) asks as soon as it is, instead of timing out first;
 * so does a never-synced book whose subscribe was answered book_snapshot_failed ahead of the slow
 * reply (it waited out the 10 s snapshot timeout for a snapshot no longer coming, a carried debt).
 */

const TOKEN = "123456";
const slots = feedSlots();

/**
 * A server that holds its (first) subscribe reply until `replySubscribe()` sends it, answering
 * everything else at once: a slow subscribe ack.
 */
async function slowSubscribeServer() {
  const held: Received[] = [];
  const polite = politeAnswer();
  const srv = await new RawServer((c, conn) =>
    c.cmd === "subscribe" ? void held.push(c) : polite(c, conn),
  ).listen();
  const replySubscribe = () => {
    const sub = held[0];
    const reply = polite(sub as Received, srv.conns[0] as never);
    srv.conns[0]?.send({ id: sub?.id, ...reply });
  };
  return { srv, replySubscribe };
}

/** A synced feed on a server whose connections after the first `up` ones are dropped at once. */
async function syncedFeed(up: (n: number) => boolean) {
  const srv = await new RawServer(politeAnswer(), {
    onConnection: (c) => {
      if (!up(c.n)) c.ws.terminate();
    },
  }).listen();
  const { clock, client, feed: f } = slots.feedOn(srv);
  await f.start();
  await f.subscribeBooks([TOKEN]);
  srv.conns[0]?.send(snapshotFrame(TOKEN, 1));
  await client.ping();
  expect(f.tracker.state(TOKEN)?.status).toBe("synced");
  return { srv, clock, client, f };
}

describe("snapshot request metrics during a /ws/market outage", () => {
  it("counts as requested only the get_book_snapshot commands actually sent, and times none out", async () => {
    const { srv, clock, client, f } = await syncedFeed((n) => n === 0);
    client.dropLink(0);
    await run(clock, 120_000);
    expect(f.tracker.state(TOKEN)).toMatchObject({ status: "resyncing", quotable: false });
    expect(srv.commands("get_book_snapshot")).toHaveLength(0);
    expect(client.counters.snapshotRequests).toBe(0);
    // mm_book_snapshot_requests_total's source: no request left, none is counted …
    expect(f.tracker.counters.resyncs).toBe(client.counters.snapshotRequests);
    // … and none "timed out": nothing was asked of the exchange.
    expect(f.tracker.counters.snapshotTimeouts).toBe(0);
  });

  it("after the outage the resubscribe's snapshot syncs the book; unanswered, it is asked for again", async () => {
    // Connections 1–3 are dropped at once (a few reconnect attempts), the 5th stays.
    const { srv, clock, client, f } = await syncedFeed((n) => n === 0 || n >= 4);
    client.dropLink(0);
    // Back-off 0.75 s, 1.5 s, 3 s… (jitter 0.5): the 5th connection opens ~7.5 s later.
    for (let i = 0; i < 200 && !(srv.conns.length >= 5 && client.linkStates()[0] === "open"); i++) {
      await run(clock, 250);
    }
    await client.ping();
    expect(srv.commands("subscribe").length).toBeGreaterThanOrEqual(2);
    expect(f.tracker.state(TOKEN)).toMatchObject({ status: "resyncing", quotable: false });
    // The resubscribe went out; its snapshot does not come: the tracker times it out and asks.
    expect(f.tracker.counters.snapshotTimeouts).toBe(0);
    await run(clock, 12_000);
    expect(f.tracker.counters.snapshotTimeouts).toBe(1);
    expect(srv.commands("get_book_snapshot").map((c) => c.params)).toEqual([{ tokenId: TOKEN }]);
    expect(f.tracker.counters.resyncs).toBe(1);
    expect(client.counters.snapshotRequests).toBe(1);
    srv.conns.at(-1)?.send(snapshotFrame(TOKEN, 5));
    await client.ping();
    expect(f.tracker.state(TOKEN)).toMatchObject({ status: "synced", quotable: true, lastSeq: 5 });
  });

  it("a request asked before a slow subscribe was accepted waits for it, then times out and asks as usual", async () => {
    const { srv, replySubscribe } = await slowSubscribeServer();
    const { clock, client, feed: f } = slots.feedOn(srv, { timing: { commandTimeoutMs: 600_000 } });
    await f.start();
    const subscribed = f.subscribeBooks([TOKEN]);
    await run(clock, 60_000); // its snapshot "timed out" once; the request after cannot go out
    expect(f.tracker.counters).toMatchObject({ snapshotTimeouts: 1, resyncs: 0 });
    expect(client.counters.snapshotRequestsUnsent).toBe(1);

    replySubscribe();
    await subscribed;
    await run(clock, 10_500); // accepted: its snapshot is waited for, and asked for when missing
    expect(srv.commands("get_book_snapshot").map((c) => c.params)).toEqual([{ tokenId: TOKEN }]);
    expect(f.tracker.counters).toMatchObject({ snapshotTimeouts: 2, resyncs: 1 });
  });

  it("a book that lost frames before its slow subscribe was accepted asks at once when it is", async () => {
    const { srv, replySubscribe } = await slowSubscribeServer();
    const { client, feed: f } = slots.feedOn(srv);
    await f.start();
    const subscribed = f.subscribeBooks([TOKEN]);
    await client.ping();
    // The subscribe's snapshot, then a gapped delta, land before the reply: the gap's request
    // cannot go out yet (the subscription is not live).
    srv.conns[0]?.send(snapshotFrame(TOKEN, 1));
    const gapped = { tokenId: TOKEN, seq: 3, prevSeq: 2, changes: [] };
    srv.conns[0]?.send({ type: "book_delta", sid: 1, channel: "token_book", id: TOKEN, data: gapped });
    await client.ping();
    expect(f.tracker.state(TOKEN)).toMatchObject({ status: "resyncing", reason: "gap" });
    expect(client.counters.snapshotRequestsUnsent).toBe(1);

    replySubscribe();
    await subscribed;
    await client.ping();
    // No snapshot follows any more (it came already): asked at once, no timeout waited for.
    expect(srv.commands("get_book_snapshot").map((c) => c.params)).toEqual([{ tokenId: TOKEN }]);
    expect(f.tracker.counters).toMatchObject({ snapshotTimeouts: 0, resyncs: 1 });
  });
  it("a never-synced book whose subscribe was answered book_snapshot_failed ahead of a slow reply asks at once when it is accepted", async () => {
    // A server that pushes the subscribe's one snapshot (a failure here) before its reply, and
    // replies late: the failure's retry (after the 500 ms back-off) cannot go out yet.
    const { srv, replySubscribe } = await slowSubscribeServer();
    const { clock, client, feed: f } = slots.feedOn(srv);
    await f.start();
    const subscribed = f.subscribeBooks([TOKEN]);
    await client.ping();
    const failed = { tokenId: TOKEN, reason: "snapshot_unavailable", tsMs: 1 };
    srv.conns[0]?.send({
      type: "book_snapshot_failed",
      sid: 1,
      channel: "token_book",
      id: TOKEN,
      data: failed,
    });
    await client.ping();
    await run(clock, 1_000);
    expect(client.counters.snapshotRequestsUnsent).toBe(1);
    expect(f.tracker.state(TOKEN)?.lastSeq).toBeUndefined();

    replySubscribe();
    await subscribed;
    await client.ping();
    // The one snapshot a subscribe brings came already: asked at once, no 10 s wait nor timeout.
    expect(srv.commands("get_book_snapshot").map((c) => c.params)).toEqual([{ tokenId: TOKEN }]);
    expect(f.tracker.counters).toMatchObject({ snapshotTimeouts: 0, resyncs: 1, snapshotFailures: 1 });
    srv.conns[0]?.send(snapshotFrame(TOKEN, 4));
    await client.ping();
    expect(f.tracker.state(TOKEN)).toMatchObject({ status: "synced", lastSeq: 4 });
  });
});
