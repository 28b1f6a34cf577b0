import { describe, expect, it } from "vitest";
import { CommandRejectedError } from "../../../src/gateway/errors.js";
import { harness, orphaned, unsubscribeTimeout } from "./sync-harness.js";

/*
 * review21-rsubaudit: the sid a check's unsubscribe left "unproven" (orphans.ts).
 */

describe("review: an unproven sid the server hands out again", () => {
  // The server did drop sid 1 (its list was right) and stays silent on the unsubscribe of an
  // unknown sid; sids are only "connection-local" in the spec, and sync.ts itself allows for "a
  // server reusing its numbers". The fresh subscribe is accepted as sid 1 again: every push of the
  // new, healthy subscription is dropped as stray_sid and the unsubscribe sent again, which now
  // unsubscribes our live subscription (answered done: onListWrong, periodic checks off for good).
  it("a push of our own live subscription under a reused sid is not stray, and it is not unsubscribed", async () => {
    const h = harness();
    await orphaned(h);
    h.sent[2]?.fail(unsubscribeTimeout());
    await h.flush();
    expect(h.sent[3]).toMatchObject({ cmd: "subscribe" });
    h.sent[3]?.reply({ type: "subscribed", accepted: [{ sid: 1, channel: "token_book", ids: ["1"] }] });
    await h.flush();
    expect(h.layout.subsOn(0)[0]?.sid).toBe(1);

    expect(h.sync.stray(0, 1)).toBe(false); // the book's deltas must reach the tracker
    await h.flush();
    expect(h.sent.slice(4).filter((c) => c.cmd === "unsubscribe")).toEqual([]);
    expect(h.sync.hasUnproven(0)).toBe(false); // nor are this link's periodic checks held off
  });
});

describe("review: an orphan unsubscribe refused for load, not for an unknown sid", () => {
  // rate_limited / internal_error say nothing of whether the server holds the sid (refusal-policy.ts
  // mayMeanDropped: "the server is busy, not forgetful"), yet any refusal is read as "it does not
  // hold it": the sid is not watched, so if the list was wrong the old sid and the fresh one both
  // feed the token (duplicate book frames), the invariant the commit states ("a token is never fed
  // by two sids").
  it("keeps the sid watched: a push under it is dropped and the unsubscribe sent again", async () => {
    const h = harness();
    await orphaned(h);
    h.sent[2]?.fail(new CommandRejectedError("unsubscribe", "rate_limited", "slow down"));
    await h.flush();
    expect(h.sent[3]).toMatchObject({ cmd: "subscribe" });
    h.sent[3]?.reply({ type: "subscribed", accepted: [{ sid: 2, channel: "token_book", ids: ["1"] }] });
    await h.flush();
    expect(h.sync.stray(0, 1)).toBe(true);
  });
});

describe("review: a subscription the server is shown to have held is not counted as repaired", () => {
  // counters.subscriptionsLost (mm_ws_subscriptions_repaired_total, alert MmWsSubscriptionsRepaired:
  // "The exchange dropped a … subscription without a word") is bumped when the list leaves a sid
  // out, before its unsubscribe says whether the server held it. Answered done, nothing was dropped
  // (the list was wrong: mm itself resubscribed a healthy book), yet the alert fires for 30 min,
  // after every restart against such an exchange (the latch is per process).
  it("an unsubscribe answered done takes the repair back (no mm_ws_subscriptions_repaired_total)", async () => {
    const h = harness();
    await orphaned(h);
    h.sent[2]?.reply({ type: "unsubscribed", sids: [1] });
    await h.flush();
    expect(h.listWrong).toEqual([0]);
    expect(h.counters.subscriptionsLost.token_book ?? 0).toBe(0);
  });
});
