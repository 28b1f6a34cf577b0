import { describe, expect, it } from "vitest";
import { market, settle } from "./harness.js";
import { feedSlots, recheckingFeed, run } from "./sim-feed.js";

/*
 * Two books refused invalid_params together were re-subscribed together, in one command. The
 * accepted book of the same subscribe left its subscription with room, so the recheck's ids went
 * as update_subscription add_ids on that sid, which the mock takes all or nothing: a book the
 * server knew again stayed refused for as long as the other one was unknown — until a restart, the
 * very debt the recheck was to end (found by review s20 rsubs). A refused batch is now halved for
 * its next try, and the halves go one after the other, so each token's fate is its own.
 */

const slots = feedSlots();

describe("a recheck of books refused together", () => {
  it("a book the server knows again is subscribed even while the one refused with it still is not", async () => {
    const { mock, feed, rechecks } = await recheckingFeed(slots);
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
    // After the halving, the one still unknown is retried alone.
    expect(rechecks.at(-1)).toMatchObject({ ids: [gone] });
  });
});
