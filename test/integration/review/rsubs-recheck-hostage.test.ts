import { describe, expect, it } from "vitest";
import { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import type { RecheckScheduled } from "../../../src/gateway/refused-books.js";
import { market, marketClient, settle, startMock } from "../gateway/harness.js";
import { feedSlots, run } from "../gateway/sim-feed.js";

/*
 * Review (s20 rsubs): two books refused invalid_params together are re-subscribed together, in one
 * command. The accepted book of the same subscribe left its subscription with room, so the
 * recheck's ids go as update_subscription add_ids on that sid, which is all or nothing (the
 * mock's, and the spec's "one add_ids call" reading): a book the server knows again stays
 * refused for as long as the other one is unknown — until a restart, the very debt the recheck
 * was to end. A subscribe entry would have been partially accepted.
 */

const slots = feedSlots();

describe("review rsubs: a recheck of books refused together", () => {
  it("a book the server knows again is subscribed even while the one refused with it still is not", async () => {
    const mock = slots.keep(await startMock());
    const rechecks: RecheckScheduled[] = [];
    const feed = slots.keep(
      new MarketDataFeed({
        client: marketClient(mock),
        clock: mock.clock,
        onRecheck: (e) => rechecks.push(e),
      }),
    );
    const a = market(mock, 0);
    const b = market(mock, 1);
    const good = a.yesTokenId;
    const back = a.noTokenId; // refused now, known again later
    const gone = b.yesTokenId; // refused for the whole test
    mock.admin.refuseBooks([back, gone], "invalid_params");
    await feed.start();
    const out = await feed.subscribeBooks([good, back, gone]);
    expect(out.rejected).toMatchObject([{ ids: [back, gone], code: "invalid_params" }]);
    expect(rechecks).toMatchObject([{ ids: [back, gone], attempt: 1 }]);

    mock.admin.refuseBooks([back], "invalid_params", false); // the server knows `back` again
    // 5 s + 10 s + 20 s + 40 s: four rechecks, each time the server would take `back` alone.
    await run(mock.clock, 80_000);
    await settle(100);
    expect(rechecks.length).toBeGreaterThan(1);
    expect(feed.tracker.state(back)?.status).toBe("synced");
    expect(feed.tracker.refused()).toEqual([gone]);
  });
});
