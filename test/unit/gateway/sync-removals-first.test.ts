import { describe, expect, it } from "vitest";
import { CommandRejectedError } from "../../../src/gateway/errors.js";
import { removalsFirst } from "../../../src/gateway/sync.js";
import { harness, subscribedBook } from "./sync-harness.js";

/*
 * An update_subscription that could be over the id cap, counted before its removals, is sent as
 * two commands: the removals, then the adds (integration: update-removals-first.test.ts). These
 * are the rule itself and the branch a real server is awkward to drive into.
 */

describe("removalsFirst: when an update_subscription's removals go alone first", () => {
  it.each([
    { held: 100, adding: 1, removing: 1, split: true }, // 101 counted before the removal
    { held: 99, adding: 1, removing: 1, split: false }, // fits however counted
    { held: 60, adding: 50, removing: 50, split: true }, // 100 ids in the command, 110 before
    { held: 100, adding: 0, removing: 5, split: false }, // nothing to hold back
    { held: 100, adding: 5, removing: 0, split: false }, // nothing to send first (the layout keeps adds within the cap)
  ])("held $held, adding $adding, removing $removing: $split", ({ held, adding, removing, split }) => {
    expect(removalsFirst(held, adding, removing, 100)).toBe(split);
  });
});

describe("SubscriptionSync: removals sent ahead of adds", () => {
  it("a removal refused for good ahead of adds: the adds go at once, alone, and are not refused", async () => {
    const h = harness({ maxIdsPerSubscription: 2, maxSubscriptionsPerConnection: 256 });
    await subscribedBook(h, ["1", "2"]);
    h.layout.remove("token_book", ["2"]);
    h.layout.place("token_book", ["3"]);
    void h.sync.request(0);
    await h.flush();
    expect(h.sent[1]?.params).toEqual({ sid: 1, remove_ids: ["2"] });
    h.sent[1]?.fail(new CommandRejectedError("update_subscription", "invalid_params", "not held"));
    await h.flush();
    // invalid_params may be about the sid: the server's list says it still holds it.
    expect(h.sent[2]).toMatchObject({ cmd: "list_subscriptions" });
    h.sent[2]?.reply({
      type: "subscriptions",
      subscriptions: [{ sid: 1, channel: "token_book", ids: ["1", "2"] }],
    });
    await h.flush();
    await h.flush();
    // The server would answer the removal the same: forgotten, so 2 + 1 held fit, and 3 goes now.
    expect(h.sent[3]?.params).toEqual({ sid: 1, add_ids: ["3"] });
    h.sent[3]?.reply({ type: "subscription_updated", sid: 1 });
    await h.flush();
    expect(h.rejected).toEqual([]);
    expect(h.layout.isHeld("token_book", "3")).toBe(true);
    expect(h.sent).toHaveLength(4);
  });
});
