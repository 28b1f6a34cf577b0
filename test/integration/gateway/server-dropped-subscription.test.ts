import { describe, expect, it } from "vitest";
import { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import { type Mock, market, marketClient, place, startMock, until } from "./harness.js";
import { feedSlots } from "./sim-feed.js";

/*
 * A subscription the server drops while the socket lives was never repaired (a debt carried since
 * session 18): the spec has no drop notice, so mm's books of that sid went silent; the stall probe's
 * get_book_snapshot was refused ("not subscribed") and the refusal consumed quietly, the probe
 * retried for ever; an update_subscription adding a token to that sid was refused invalid_params
 * ("unknown sid"), a final code, so the added token was refused for good. What is observable per
 * the spec is the refusal and list_subscriptions: a refused get_book_snapshot, or an
 * update_subscription refused invalid_params, now makes the client list the server's subscriptions
 * and subscribe again whatever it no longer holds; the books resync from the new subscription's
 * snapshots. Real GatewayClient and MarketDataFeed against the mock exchange on 127.0.0.1, whose
 * drop-subscription fault drops the sid server-side without a word.
 */

const slots = feedSlots();

/** A feed on the mock whose stall watch judges a book silent after 1 s of a busy book's silence. */
async function feedOnMock(): Promise<{ mock: Mock; feed: MarketDataFeed }> {
  const mock = await startMock();
  const feed = slots.keep(
    new MarketDataFeed({
      client: marketClient(mock, { timing: { pingIntervalMs: 60_000, silenceTimeoutMs: 120_000 } }),
      clock: mock.clock,
      tracker: {
        stall: { k: 2, floorMs: 1_000, minSamples: 2, checkEveryMs: 100, livenessTimeoutMs: 600_000 },
      },
    }),
  );
  slots.keep(mock);
  await feed.start();
  return { mock, feed };
}

/** One resting bid on the YES book at `cents`, and the tracker's book following it. */
async function moveYes(mock: Mock, feed: MarketDataFeed, cents: number): Promise<void> {
  const m = market(mock);
  const before = feed.tracker.state(m.yesTokenId)?.lastSeq ?? 0;
  place(mock, { marketId: m.id, side: "buy", price: (cents / 100).toFixed(2), qty: "1" });
  await until(() => (feed.tracker.state(m.yesTokenId)?.lastSeq ?? 0) > before, "the YES book's update");
}

describe("a subscription the server drops while the socket lives is repaired", () => {
  it("a stall probe refused 'not subscribed': the client lists the server's subscriptions, subscribes again, the books resync and follow the exchange", async () => {
    const { mock, feed } = await feedOnMock();
    const { yesTokenId: yes, noTokenId: no } = market(mock);
    await feed.subscribeBooks([yes, no]);
    await until(() => feed.tracker.state(yes)?.status === "synced", "the YES snapshot");
    for (let i = 0; i < 4; i++) {
      mock.clock.advanceBy(100);
      await moveYes(mock, feed, 30 + i);
    }
    const lost: string[] = [];
    feed.client.onLost((_channel, ids) => lost.push(...ids));

    expect(mock.admin.dropSubscriptions([yes])).toEqual({ droppedSubscriptions: 1 });
    // Silence on YES: the stall watch probes, the server refuses, the client checks and repairs.
    await until(() => lost.length > 0, "the lost subscription", { clock: mock.clock, advanceMs: 100 });
    expect(lost.sort()).toEqual([yes, no].sort());
    await until(
      () => feed.tracker.state(yes)?.status === "synced" && feed.tracker.state(no)?.status === "synced",
      "both books synced from the new subscription",
      { clock: mock.clock, advanceMs: 50 },
    );
    expect(feed.client.counters.subscriptionsLost).toEqual({ token_book: 1 });
    const [held] = await feed.client.listSubscriptions();
    const ids = held?.subscriptions.filter((s) => s.channel === "token_book").flatMap((s) => s.ids);
    expect(ids?.sort()).toEqual([yes, no].sort());
    // The feed flows again: a move of the exchange's book reaches the tracker.
    await moveYes(mock, feed, 40);
    expect(feed.tracker.refused()).toEqual([]);
  });

  it("an update_subscription refused 'unknown sid': the token it added is subscribed with the rest afresh, not refused", async () => {
    const { mock, feed } = await feedOnMock();
    const { yesTokenId: yes, noTokenId: no } = market(mock);
    await feed.subscribeBooks([yes]);
    await until(() => feed.tracker.state(yes)?.status === "synced", "the YES snapshot");
    mock.admin.dropSubscriptions([yes]);

    const out = await feed.subscribeBooks([no]);
    expect(out).toEqual({ accepted: [no], rejected: [] });
    await until(
      () => feed.tracker.state(yes)?.status === "synced" && feed.tracker.state(no)?.status === "synced",
      "both books synced",
      { clock: mock.clock, advanceMs: 50 },
    );
    expect(feed.tracker.refused()).toEqual([]);
    await moveYes(mock, feed, 41);
  });
});
