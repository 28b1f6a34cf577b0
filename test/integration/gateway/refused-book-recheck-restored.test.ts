import { describe, expect, it } from "vitest";
import { market, until } from "./harness.js";
import { feedSlots, recheckingFeed, run } from "./sim-feed.js";

/*
 * A recheck whose re-subscribe is refused with a retryable code is then got back by the gateway's
 * own retry (sub-retry.ts), not by the recheck. RefusedBookRecheck was told only by the recheck's
 * own subscribe outcome, so the token kept its stale schedule: recheckOf() said a synced book
 * "waits for a re-subscribe", and the book's next invalid_params refusal (hours later, on a
 * reconnect) counted as attempt 2: scheduled 10 s out instead of 5 s, and logged by Feeds only as
 * the info line "still refused", not the error line of a fresh refusal (found by review s20
 * rsubs). The feed now tells the recheck of every accepted book.
 */

const slots = feedSlots();

describe("a rechecked book got back through the gateway's retry", () => {
  it("forgets its recheck, so its next refusal starts again at attempt 1 (the error line, 5 s)", async () => {
    const { mock, feed, rechecks } = await recheckingFeed(slots);
    const { yesTokenId: yes, noTokenId: no } = market(mock);
    mock.admin.refuseBooks([no], "invalid_params");
    await feed.start();
    await feed.subscribeBooks([yes, no]);
    expect(rechecks).toMatchObject([{ ids: [no], attempt: 1, inMs: 5_000 }]);

    // At the recheck the server answers a retryable code; then it takes the book.
    mock.admin.refuseBooks([no], "subscription_cap_exceeded");
    await run(mock.clock, 5_250);
    mock.admin.refuseBooks([no], "subscription_cap_exceeded", false);
    await until(() => feed.tracker.state(no)?.status === "synced", "the book back through the retry", {
      clock: mock.clock,
      advanceMs: 250,
    });
    expect(feed.tracker.refused()).toEqual([]);
    expect.soft(feed.recheckOf(no)).toBeUndefined();

    // Later the server refuses it again (a reconnect's resubscribe): a fresh first refusal.
    mock.admin.refuseBooks([no], "invalid_params");
    mock.admin.dropAllSockets("market");
    await until(() => rechecks.length === 2, "the new refusal", { clock: mock.clock, advanceMs: 100 });
    expect(rechecks[1]).toMatchObject({ ids: [no], attempt: 1, inMs: 5_000 });
  });
});
