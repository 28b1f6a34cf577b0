import { describe, expect, it } from "vitest";
import type { SimClock } from "../../../src/core/sim-clock.js";
import type { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import { settle } from "./harness.js";
import { type Answer, politeAnswer, RawServer } from "./raw-server.js";
import { feedSlots, snapshotFrame } from "./sim-feed.js";

/*
 * The spec shows no reply payload for get_book_snapshot (only subscribe's): a server may answer it
 * with the book_snapshot event alone. The BookTracker has its own snapshot timeout and back-off,
 * so a get_book_snapshot without a reply must not count as a silent command, which drops the
 * connection and every book on it. A server that does echo the id is answered quietly: not a late
 * reply, not malformed, and nothing left pending. Found by the market-data review (question 2).
 */

const A = "111";
const B = "222";
const COMMAND_TIMEOUT_MS = 2_000;
const slots = feedSlots();

/** politeAnswer, with get_book_snapshot answered by `snapshot` (undefined: no reply at all). */
function answer(snapshot: Answer): Answer {
  const polite = politeAnswer();
  return (c, conn) => (c.cmd === "get_book_snapshot" ? snapshot(c, conn) : polite(c, conn));
}

/** A feed on a RawServer with two synced books; pings are rare so only snapshots are in flight. */
async function twoBooks(snapshot: Answer): Promise<{ srv: RawServer; f: MarketDataFeed; clock: SimClock }> {
  const srv = await new RawServer(answer(snapshot)).listen();
  const timing = { commandTimeoutMs: COMMAND_TIMEOUT_MS, pingIntervalMs: 60_000, silenceTimeoutMs: 120_000 };
  const tracker = { snapshotTimeoutMs: 5_000, backoff: { baseMs: 500 } };
  const { clock, client, feed: f } = slots.feedOn(srv, { timing, tracker });
  await f.start();
  await f.subscribeBooks([A, B]);
  srv.conns[0]?.send(snapshotFrame(A, 1, 1, "10"));
  srv.conns[0]?.send(snapshotFrame(B, 1, 1, "10"));
  await client.ping(); // frames are ordered: once the pong is in, both snapshots are applied
  expect(f.tracker.state(A)?.quotable).toBe(true);
  expect(f.tracker.state(B)?.quotable).toBe(true);
  return { srv, f, clock };
}

/** A gap on A (prevSeq 5 after seq 1): the tracker resyncs A and sends get_book_snapshot. */
function gapOnA(srv: RawServer): void {
  srv.conns[0]?.send({
    type: "book_delta",
    sid: 1,
    channel: "token_book",
    id: A,
    data: { tokenId: A, seq: 6, prevSeq: 5, tsMs: 2_000, changes: [] },
  });
}

describe("get_book_snapshot is not a command whose silence kills the connection", () => {
  it("unanswered past the command timeout: the connection and the other book stay up; the tracker retries", async () => {
    const { srv, f, clock } = await twoBooks(() => undefined);
    gapOnA(srv);
    await f.client.ping();
    expect(f.tracker.state(A)).toMatchObject({ status: "resyncing", reason: "gap" });
    expect(srv.commands("get_book_snapshot")).toHaveLength(1);

    // Well past the command timeout, in steps so the sockets run in between.
    for (let i = 0; i < 8; i++) {
      clock.advanceBy(COMMAND_TIMEOUT_MS / 2);
      await settle(5);
    }
    expect(f.client.counters).toMatchObject({ commandTimeouts: 0, disconnects: 0, reconnects: 0 });
    expect(f.client.linkStates()).toEqual(["open"]);
    expect(f.tracker.state(B)).toMatchObject({ status: "synced", quotable: true });
    // The tracker's own timeout (5 s) and back-off asked again, on the same connection.
    expect(srv.commands("get_book_snapshot").length).toBeGreaterThanOrEqual(2);
    expect(srv.conns).toHaveLength(1);

    // The book_snapshot event is the answer that matters.
    srv.conns[0]?.send(snapshotFrame(A, 7, 1, "10"));
    await f.client.ping();
    expect(f.tracker.state(A)).toMatchObject({ status: "synced", quotable: true, lastSeq: 7 });
  });

  it("a reply echoing the id is consumed quietly: not a late reply, not malformed, nothing pending", async () => {
    const { srv, f, clock } = await twoBooks((c) => ({
      type: "book_snapshot_requested",
      tokenId: c.params?.tokenId,
    }));
    gapOnA(srv);
    await f.client.ping();
    srv.conns[0]?.send(snapshotFrame(A, 7, 1, "10"));
    await f.client.ping();
    expect(srv.commands("get_book_snapshot")).toHaveLength(1);
    expect(f.tracker.state(A)).toMatchObject({ status: "synced", lastSeq: 7 });
    expect(f.client.counters.framesByType.book_snapshot_requested).toBe(1);
    expect(f.client.counters.dropped).toEqual({});
    expect(f.client.counters.malformed).toEqual({});
    clock.advanceBy(COMMAND_TIMEOUT_MS * 3);
    await settle(10);
    expect(f.client.counters).toMatchObject({ commandTimeouts: 0, disconnects: 0 });
  });

  it("a reply of a type the client does not know, echoing the id, is consumed too (not malformed)", async () => {
    const { srv, f } = await twoBooks(() => ({ type: "snapshot_queued" }));
    gapOnA(srv);
    await f.client.ping();
    expect(srv.commands("get_book_snapshot")).toHaveLength(1);
    // Counted under `other`: a server's own type names must not grow mm_ws_frames_total's labels.
    expect(f.client.counters.framesByType.other).toBe(1);
    expect(f.client.counters.framesByType.snapshot_queued).toBeUndefined();
    expect(f.client.counters.malformed).toEqual({});
    expect(f.client.counters.dropped).toEqual({});
  });

  it("an error reply to it is counted as a rejection, drops nothing, and the tracker asks again after back-off", async () => {
    let refuse = true;
    const { srv, f, clock } = await twoBooks((c) =>
      refuse
        ? { type: "error", code: "rate_limited", message: "slow down" }
        : { type: "book_snapshot_requested", tokenId: c.params?.tokenId },
    );
    gapOnA(srv);
    await f.client.ping();
    expect(f.client.counters.commandRejections).toBe(1);
    expect(f.client.counters.dropped).toEqual({});
    // Refused for load, not invalid_params: no sign the server dropped the token, so no
    // list_subscriptions check (refusal-policy.ts mayMeanDropped).
    await f.client.ping();
    expect(srv.commands("list_subscriptions")).toHaveLength(0);
    expect(f.client.counters.subscriptionsLost).toEqual({});
    expect(srv.commands("subscribe")).toHaveLength(1);
    refuse = false;
    clock.advanceBy(5_000); // the tracker's snapshot timeout: asked again (back-off 500 ms)
    await settle(10);
    clock.advanceBy(500);
    await settle(10);
    expect(srv.commands("get_book_snapshot").length).toBeGreaterThanOrEqual(2);
    expect(f.client.linkStates()).toEqual(["open"]);
    expect(f.client.counters.disconnects).toBe(0);
  });
});

describe("getBookSnapshot (the awaited form)", () => {
  it("unanswered: rejects command_timeout, and the connection stays up", async () => {
    const { f, clock } = await twoBooks(() => undefined);
    const ack = f.client.getBookSnapshot(A).catch((e: unknown) => e);
    await settle(5);
    clock.advanceBy(COMMAND_TIMEOUT_MS);
    await expect(ack).resolves.toMatchObject({ code: "command_timeout" });
    await settle(10);
    expect(f.client.counters).toMatchObject({ commandTimeouts: 1, disconnects: 0 });
    expect(f.client.linkStates()).toEqual(["open"]);
    expect(f.tracker.state(B)?.quotable).toBe(true);
  });
});
