import { describe, expect, it } from "vitest";
import { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import { market, marketClient, place, startMock, until } from "./harness.js";
import { ackingSnapshots, RawServer, runClock } from "./raw-server.js";
import { feedSlots, snapshotFrame } from "./sim-feed.js";

/*
 * A subscription the server dropped was found only by its signs (a get_book_snapshot or an
 * update_subscription refused invalid_params): a quiet book the stall watch never probes kept a
 * dead subscription unseen, and mm went on quoting a book that no longer updated (s20-subs, "left
 * alone"). Every link now reads list_subscriptions every subscriptionCheckMs (60 s by default,
 * jittered) and repairs what it no longer shows. Real GatewayClient and MarketDataFeed against the
 * mock exchange (its drop-subscription fault) and a scripted server on 127.0.0.1.
 */

const slots = feedSlots();

describe("the periodic subscriptions check", () => {
  it("repairs a quiet book's subscription the server dropped, with no probe, within the default minute", async () => {
    const mock = slots.keep(await startMock());
    const feed = slots.keep(
      new MarketDataFeed({
        client: marketClient(mock),
        clock: mock.clock,
        // No stall probe: nothing but the periodic check can find the drop.
        tracker: { stall: { enabled: false } },
      }),
    );
    await feed.start();
    const m = market(mock);
    await feed.subscribeBooks([m.yesTokenId]);
    await until(() => feed.tracker.state(m.yesTokenId)?.status === "synced", "the YES snapshot");
    const lost: string[] = [];
    feed.client.onLost((_channel, ids) => lost.push(...ids));
    expect(mock.admin.dropSubscriptions([m.yesTokenId])).toEqual({ droppedSubscriptions: 1 });

    // random 0.5: the first check is exactly 60 s after the link opened.
    await runClock(mock.clock, 59_000, 1_000);
    expect(lost).toEqual([]);
    await until(() => lost.length > 0, "the periodic check", { clock: mock.clock, advanceMs: 250 });
    expect(lost).toEqual([m.yesTokenId]);
    expect(feed.client.counters.disconnects).toBe(0);
    await until(() => feed.tracker.state(m.yesTokenId)?.status === "synced", "the book resynced", {
      clock: mock.clock,
      advanceMs: 50,
    });
    // Counted once the unsubscribe of the old sid was refused (unknown sid), before the resubscribe.
    expect(feed.client.counters.subscriptionsLost).toEqual({ token_book: 1 });
    // The book follows the exchange again.
    const before = feed.tracker.state(m.yesTokenId)?.lastSeq ?? 0;
    place(mock, { marketId: m.id, side: "buy", price: "0.31", qty: "1" });
    await until(() => (feed.tracker.state(m.yesTokenId)?.lastSeq ?? 0) > before, "the YES book's update");
  });

  it("0 turns it off; close() leaves no timer behind", async () => {
    const srv = await new RawServer(ackingSnapshots()).listen();
    const { clock, client, feed } = slots.feedOn(srv, { timing: { subscriptionCheckMs: 0 } });
    await feed.start();
    await feed.subscribeBooks(["111"]);
    await runClock(clock, 180_000, 5_000);
    expect(srv.commands("list_subscriptions")).toEqual([]);

    const on = await new RawServer(ackingSnapshots()).listen();
    const b = slots.feedOn(on, { timing: { subscriptionCheckMs: 10_000 } });
    await b.feed.start();
    await b.feed.subscribeBooks(["111"]);
    await runClock(b.clock, 30_000, 1_000);
    expect(on.commands("list_subscriptions")).toHaveLength(3);
    await b.feed.close();
    expect(b.clock.pending).toBe(0);
    await client.close();
  });

  it("pauses when the server shows it still held a sid its list left out: a wrong list does not resubscribe every minute", async () => {
    // Snapshot requests acknowledged (a refusal would be a drop sign, starting checks of its own).
    const polite = ackingSnapshots();
    // Wrong: an empty list while it holds our sid (it answers the unsubscribe as done).
    const srv = await new RawServer((c, conn) =>
      c.cmd === "list_subscriptions" ? { type: "subscriptions", subscriptions: [] } : polite(c, conn),
    ).listen();
    const { clock, client, feed } = slots.feedOn(srv);
    await feed.start();
    await feed.subscribeBooks(["111"]);
    srv.conns[0]?.send(snapshotFrame("111", 1));
    await runClock(clock, 61_000, 1_000);
    await until(() => srv.commands("subscribe").length === 2, "the one repair");
    expect(srv.commands("unsubscribe").map((c) => c.params)).toEqual([{ sid: 1 }]);
    await runClock(clock, 300_000, 5_000);
    expect(srv.commands("list_subscriptions")).toHaveLength(1);
    expect(srv.commands("subscribe")).toHaveLength(2);
    expect(client.counters.disconnects).toBe(0);
    expect(client.counters.subscriptionChecksActive).toBe(0); // mm_ws_subscription_checks_active
    // A drop sign still starts a check.
    await client.auditSubscriptions();
    expect(srv.commands("list_subscriptions")).toHaveLength(2);
    // The pause ends after 60 periods (an hour): the checks resume, and the list proves wrong again.
    await runClock(clock, 3_600_000 + 80_000, 5_000);
    await until(() => srv.commands("list_subscriptions").length === 3, "the checks to resume");
    await until(() => srv.commands("unsubscribe").length === 3, "the resumed check's repair");
    expect(client.counters.subscriptionChecksActive).toBe(0); // paused again
    expect(client.counters.subscriptionsLost).toEqual({}); // each unsubscribe answered done
    expect(client.counters.disconnects).toBe(0);
  });
});
