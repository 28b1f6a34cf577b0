import { describe, expect, it } from "vitest";
import { until } from "./harness.js";
import { ackingSnapshots, RawServer, runClock } from "./raw-server.js";
import { feedSlots, snapshotFrame } from "./sim-feed.js";

/*
 * The subscriptions check unsubscribes a sid the server's list no longer shows before subscribing
 * its ids afresh. That unsubscribe was an awaited command: a server that never answered it (the spec
 * shows no reply for unsubscribe) got the connection dropped by the command timeout, every book on
 * it resynced (s20-subsfix, "left alone"). It is now reply-optional: the connection is kept and the
 * ids are subscribed afresh; should the server still hold the old sid (its list was wrong), a push
 * under it is dropped, not delivered twice, and the unsubscribe is sent again. Real GatewayClient and
 * MarketDataFeed against a scripted server on 127.0.0.1.
 */

const A = "111";
const COMMAND_TIMEOUT_MS = 2_000;
const slots = feedSlots();

describe("an unanswered unsubscribe of a sid the server's list left out", () => {
  it("keeps the connection; the token is subscribed afresh and a push under the old sid is dropped, its unsubscribe sent again", async () => {
    const acking = ackingSnapshots();
    // Wrong: an empty list while it holds sid 1; unsubscribe never answered (nor done).
    const srv = await new RawServer((c, conn) =>
      c.cmd === "list_subscriptions"
        ? { type: "subscriptions", subscriptions: [] }
        : c.cmd === "unsubscribe"
          ? undefined
          : acking(c, conn),
    ).listen();
    const timing = { commandTimeoutMs: COMMAND_TIMEOUT_MS, subscriptionCheckMs: 0 };
    const { clock, client, feed } = slots.feedOn(srv, { timing });
    await feed.start();
    await feed.subscribeBooks([A]);
    srv.conns[0]?.send(snapshotFrame(A, 1, 1));
    await until(() => feed.tracker.state(A)?.status === "synced", "the snapshot");

    void client.auditSubscriptions();
    await until(() => srv.commands("unsubscribe").length === 1, "the unsubscribe of sid 1");
    await runClock(clock, COMMAND_TIMEOUT_MS + 500, 250);
    await until(() => srv.commands("subscribe").length === 2, "the fresh subscribe");
    expect(client.counters.disconnects).toBe(0);
    expect(srv.conns).toHaveLength(1);
    expect(client.counters.commandTimeouts).toBe(1);

    // The new subscription (sid 2) brings its snapshot; the old sid still publishes.
    srv.conns[0]?.send(snapshotFrame(A, 5, 2));
    await until(() => feed.tracker.state(A)?.lastSeq === 5, "the new sid's snapshot");
    srv.conns[0]?.send(snapshotFrame(A, 1, 1));
    await until(() => srv.commands("unsubscribe").length === 2, "the unsubscribe sent again");
    expect(srv.commands("unsubscribe").map((c) => c.params)).toEqual([{ sid: 1 }, { sid: 1 }]);
    expect(client.counters.dropped.stray_sid).toBe(1);
    expect(feed.tracker.state(A)).toMatchObject({ status: "synced", lastSeq: 5 });
    await runClock(clock, COMMAND_TIMEOUT_MS + 500, 250);
    expect(client.counters.disconnects).toBe(0);
  });
});
