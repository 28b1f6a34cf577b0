import { describe, expect, it } from "vitest";
import type { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import type { RecheckScheduled } from "../../../src/gateway/refused-books.js";
import { type Mock, market, until } from "./harness.js";
import { feedSlots, recheckingFeed, run } from "./sim-feed.js";

/*
 * A token_book subscription refused for good stayed refused until a restart: nothing subscribed it
 * again while the daemon ran, so the token was never quoted again (a debt carried since session
 * 16). Now a code whose verdict can change (invalid_params on an id mm checked: the server does not
 * know the token now) is asked again after 5 s, 10 s, … up to 5 min; a code that cannot change
 * (forbidden, about the channel and the key) is not. Real GatewayClient and MarketDataFeed against
 * the mock exchange on 127.0.0.1, its refuse-book fault standing for the server's refusal.
 */

const slots = feedSlots();

async function refusedAtStart(code: string): Promise<{
  mock: Mock;
  feed: MarketDataFeed;
  yes: string;
  no: string;
  rechecks: RecheckScheduled[];
  recovered: string[];
}> {
  const { mock, feed, rechecks, recovered } = await recheckingFeed(slots);
  const { yesTokenId: yes, noTokenId: no } = market(mock);
  mock.admin.refuseBooks([no], code);
  await feed.start();
  const out = await feed.subscribeBooks([yes, no]);
  expect(out.rejected).toMatchObject([{ ids: [no], code }]);
  await until(() => feed.tracker.state(yes)?.status === "synced", "the accepted book's snapshot");
  expect(feed.tracker.refused()).toEqual([no]);
  return { mock, feed, yes, no, rechecks, recovered };
}

describe("a book refused for good is asked for again when its code can change", () => {
  it("invalid_params: re-subscribed after 5 s while refused (refused again: 10 s), synced once the server takes it", async () => {
    const { mock, feed, no, rechecks, recovered } = await refusedAtStart("invalid_params");
    expect(rechecks).toMatchObject([{ ids: [no], code: "invalid_params", attempt: 1, inMs: 5_000 }]);
    expect(feed.recheckOf(no)).toEqual({ attempt: 1, inMs: 5_000 });

    // Not before its back-off.
    await run(mock.clock, 4_750);
    expect(rechecks).toHaveLength(1);
    // The server still refuses it: counted refused again, the next try twice as late.
    await until(() => rechecks.length === 2, "the refused re-subscribe", {
      clock: mock.clock,
      advanceMs: 50,
    });
    expect(rechecks[1]).toMatchObject({ ids: [no], attempt: 2, inMs: 10_000 });
    expect(feed.tracker.refused()).toEqual([no]);
    expect(feed.tracker.state(no)).toBeUndefined();

    // The server knows the token now: the next try subscribes it and its snapshot syncs it.
    mock.admin.refuseBooks([no], "invalid_params", false);
    await until(() => feed.tracker.state(no)?.status === "synced", "the re-subscribed book's snapshot", {
      clock: mock.clock,
      advanceMs: 250,
    });
    expect(feed.tracker.refused()).toEqual([]);
    expect(recovered).toEqual([no]);
    expect(feed.recheckOf(no)).toBeUndefined();
    expect(rechecks).toHaveLength(2);
  });

  it("forbidden cannot change while the key and the channel are the same: never asked again", async () => {
    const { mock, feed, no, rechecks } = await refusedAtStart("forbidden");
    mock.admin.refuseBooks([no], "forbidden", false);
    await run(mock.clock, 40_000);
    expect(rechecks).toEqual([]);
    expect(feed.recheckOf(no)).toBeUndefined();
    expect(feed.tracker.refused()).toEqual([no]);
  });

  it("a refused book unsubscribed meanwhile (its market settled) is not asked for again", async () => {
    const { mock, feed, no, rechecks } = await refusedAtStart("invalid_params");
    mock.admin.refuseBooks([no], "invalid_params", false);
    await feed.retireBooks([no]);
    await run(mock.clock, 6_000);
    expect(rechecks).toHaveLength(1);
    expect(feed.tracker.state(no)).toBeUndefined();
    expect(feed.client.linkOf("token_book", no)).toBeUndefined();
  });
});
