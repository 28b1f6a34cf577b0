import { describe, expect, it } from "vitest";
import { CommandRejectedError, GatewayError } from "../../../src/gateway/errors.js";
import { harness, subscribedBook } from "./sync-harness.js";

describe("SubscriptionSync", () => {
  it("ids added while a subscribe is in flight follow as update_subscription add_ids", async () => {
    const h = harness();
    const outcome = h.waiters.wait("token_book", ["1", "2", "3"]);
    h.layout.place("token_book", ["1", "2"]);
    void h.sync.request(0);
    await h.flush();
    expect(h.sent.map((s) => s.params)).toEqual([
      { subscriptions: [{ channel: "token_book", ids: ["1", "2"] }] },
    ]);
    h.layout.place("token_book", ["3"]);
    void h.sync.request(0); // queued behind the running pass
    h.sent[0]?.reply({
      type: "subscribed",
      accepted: [{ sid: 9, channel: "token_book", ids: ["1", "2"] }],
      rejected: [],
    });
    await h.flush();
    expect(h.sent[1]).toMatchObject({ cmd: "update_subscription", params: { sid: 9, add_ids: ["3"] } });
    h.sent[1]?.reply({ type: "subscription_updated" });
    await expect(outcome).resolves.toEqual({ accepted: ["1", "2", "3"], rejected: [] });
    expect(h.sent).toHaveLength(2);
  });

  it("a subscription emptied while its subscribe is in flight is unsubscribed, then forgotten", async () => {
    const h = harness();
    h.layout.place("token_book", ["1"]);
    void h.sync.request(0);
    await h.flush();
    h.layout.remove("token_book", ["1"]);
    h.sent[0]?.reply({
      type: "subscribed",
      accepted: [{ sid: 4, channel: "token_book", ids: ["1"] }],
      rejected: [],
    });
    await h.flush();
    expect(h.sent[1]).toMatchObject({ cmd: "unsubscribe", params: { sid: 4 } });
    h.sent[1]?.reply({ type: "unsubscribed" });
    await h.flush();
    expect(h.layout.subsOn(0)).toEqual([]);
  });

  it("ids added while an unsubscribe is in flight get a fresh subscribe", async () => {
    const h = harness();
    h.layout.place("token_book", ["1"]);
    void h.sync.request(0);
    await h.flush();
    h.sent[0]?.reply({
      type: "subscribed",
      accepted: [{ sid: 4, channel: "token_book", ids: ["1"] }],
      rejected: [],
    });
    await h.flush();
    h.layout.remove("token_book", ["1"]);
    void h.sync.request(0);
    await h.flush();
    expect(h.sent[1]?.cmd).toBe("unsubscribe");
    h.layout.place("token_book", ["5"]); // refills the same (roomy) subscription
    h.sent[1]?.reply({ type: "unsubscribed" });
    await h.flush();
    expect(h.sent[2]).toMatchObject({
      cmd: "subscribe",
      params: { subscriptions: [{ channel: "token_book", ids: ["5"] }] },
    });
  });

  it("an entry refused with a final code un-wants its ids and tells the waiters and listeners the code", async () => {
    const h = harness();
    const outcome = h.waiters.wait("token_book", ["1"]);
    h.layout.place("token_book", ["1"]);
    void h.sync.request(0);
    await h.flush();
    h.sent[0]?.reply({
      type: "subscribed",
      accepted: [],
      rejected: [{ channel: "token_book", ids: ["1"], code: "subscription_too_many_ids", message: "full" }],
    });
    const expected = {
      channel: "token_book",
      ids: ["1"],
      code: "subscription_too_many_ids",
      message: "full",
    };
    await expect(outcome).resolves.toEqual({ accepted: [], rejected: [expected] });
    expect(h.rejected).toEqual([expected]);
    expect(h.layout.has("token_book", "1")).toBe(false);
    expect(h.layout.subsOn(0)).toEqual([]);
  });

  it("an error reply to update_subscription refuses only the added ids", async () => {
    const h = harness();
    h.layout.place("token_book", ["1"]);
    void h.sync.request(0);
    await h.flush();
    h.sent[0]?.reply({
      type: "subscribed",
      accepted: [{ sid: 1, channel: "token_book", ids: ["1"] }],
      rejected: [],
    });
    await h.flush();
    h.layout.place("token_book", ["2"]);
    void h.sync.request(0);
    await h.flush();
    h.sent[1]?.fail(new CommandRejectedError("update_subscription", "invalid_params", "bad id"));
    await h.flush();
    // invalid_params may be about the sid: the server's list says it still holds it, so the ids.
    expect(h.sent[2]).toMatchObject({ cmd: "list_subscriptions" });
    h.sent[2]?.reply({
      type: "subscriptions",
      subscriptions: [{ sid: 1, channel: "token_book", ids: ["1"] }],
    });
    await h.flush();
    expect(h.layout.idsOf("token_book")).toEqual(["1"]);
    expect(h.rejected).toEqual([
      { channel: "token_book", ids: ["2"], code: "invalid_params", message: "bad id" },
    ]);
    expect(h.lost).toEqual([]);
  });

  it("an update_subscription refused invalid_params for a sid the server no longer lists: subscribed afresh, nothing refused", async () => {
    const h = harness();
    await subscribedBook(h, ["1"]);
    h.layout.place("token_book", ["2"]);
    void h.sync.request(0);
    await h.flush();
    h.sent[1]?.fail(new CommandRejectedError("update_subscription", "invalid_params", "unknown sid 1"));
    await h.flush();
    h.sent[2]?.reply({ type: "subscriptions", subscriptions: [] });
    await h.flush();
    expect(h.lost).toEqual([{ channel: "token_book", ids: ["1"] }]);
    // The old sid is unsubscribed first (refused: the server did drop it), then subscribed afresh.
    expect(h.sent[3]).toMatchObject({ cmd: "unsubscribe", params: { sid: 1 } });
    expect(h.sent).toHaveLength(4);
    h.sent[3]?.fail(new CommandRejectedError("unsubscribe", "invalid_params", "unknown sid 1"));
    await h.flush();
    expect(h.sent[4]).toMatchObject({
      cmd: "subscribe",
      params: { subscriptions: [{ channel: "token_book", ids: ["1", "2"] }] },
    });
    h.sent[4]?.reply({
      type: "subscribed",
      accepted: [{ sid: 7, channel: "token_book", ids: ["1", "2"] }],
      rejected: [],
    });
    await h.flush();
    expect(h.rejected).toEqual([]);
    expect(h.layout.isHeld("token_book", "2")).toBe(true);
    expect(h.counters.subscriptionsLost).toEqual({ token_book: 1 });
  });

  it("audit: a sid the server no longer lists is subscribed again; ids missing under a listed sid are added again", async () => {
    const h = harness({ maxIdsPerSubscription: 2, maxSubscriptionsPerConnection: 256 });
    await subscribedBook(h, ["1", "2"]);
    h.layout.place("token_book", ["3", "4"]);
    void h.sync.request(0);
    await h.flush();
    h.sent[1]?.reply({
      type: "subscribed",
      accepted: [{ sid: 2, channel: "token_book", ids: ["3", "4"] }],
      rejected: [],
    });
    await h.flush();
    void h.sync.audit(0);
    await h.flush();
    expect(h.sent[2]).toMatchObject({ cmd: "list_subscriptions" });
    // sid 1 gone; sid 2 lists only "3".
    h.sent[2]?.reply({
      type: "subscriptions",
      subscriptions: [{ sid: 2, channel: "token_book", ids: ["3"] }],
    });
    await h.flush();
    expect(h.lost).toEqual([
      { channel: "token_book", ids: ["1", "2"] },
      { channel: "token_book", ids: ["4"] },
    ]);
    // s22: what the list still showed is reported held (a recorder's last sight of those prints).
    expect(h.held).toEqual([{ channel: "token_book", ids: ["3"] }]);
    expect(h.sent[3]).toMatchObject({ cmd: "unsubscribe", params: { sid: 1 } });
    expect(h.sent).toHaveLength(4);
    h.sent[3]?.reply({ type: "unsubscribed" });
    await h.flush();
    const cmds = h.sent.slice(4).map((c) => [c.cmd, c.params]);
    expect(cmds).toEqual(
      expect.arrayContaining([
        ["subscribe", { subscriptions: [{ channel: "token_book", ids: ["1", "2"] }] }],
        ["update_subscription", { sid: 2, add_ids: ["4"] }],
      ]),
    );
  });

  it("audit: an unreadable list changes nothing", async () => {
    const h = harness();
    await subscribedBook(h, ["1"]);
    void h.sync.audit(0);
    await h.flush();
    h.sent[1]?.reply({ type: "subscriptions" });
    await h.flush();
    expect(h.lost).toEqual([]);
    expect(h.held).toEqual([]); // an unreadable list shows nothing held
    expect(h.sent).toHaveLength(2);
    expect(h.layout.isHeld("token_book", "1")).toBe(true);
  });

  it("an error reply to an update_subscription that only removes ids refuses nothing", async () => {
    const h = harness();
    await subscribedBook(h, ["1", "2"]);
    h.layout.remove("token_book", ["2"]);
    void h.sync.request(0);
    await h.flush();
    expect(h.sent[1]).toMatchObject({ cmd: "update_subscription", params: { sid: 1, remove_ids: ["2"] } });
    h.sent[1]?.fail(new CommandRejectedError("update_subscription", "internal_error", "try later"));
    await h.flush();
    expect(h.rejected).toEqual([]);
    expect(h.counters.subscriptionRefusals).toEqual({});
    expect(h.layout.idsOf("token_book")).toEqual(["1"]);
  });

  it("an update_subscription whose adds are refused for good sends its removals again, alone, at once", async () => {
    const h = harness();
    await subscribedBook(h, ["1", "2"]);
    h.layout.remove("token_book", ["2"]);
    h.layout.place("token_book", ["3"]);
    void h.sync.request(0);
    await h.flush();
    expect(h.sent[1]?.params).toEqual({ sid: 1, add_ids: ["3"], remove_ids: ["2"] });
    h.sent[1]?.fail(new CommandRejectedError("update_subscription", "forbidden", "no"));
    await h.flush();
    await h.flush();
    // All or nothing: the server still holds 2, so it is still removed; 3 is un-wanted for good.
    expect(h.sent[2]?.params).toEqual({ sid: 1, remove_ids: ["2"] });
    expect(h.rejected.map((r) => `${r.code}:${r.ids}`)).toEqual(["forbidden:3"]);
  });

  it("ids the server leaves out of `accepted` are refused as not_accepted and re-added only after back-off", async () => {
    const h = harness();
    h.layout.place("token_book", ["1", "2"]);
    void h.sync.request(0);
    await h.flush();
    h.sent[0]?.reply({
      type: "subscribed",
      accepted: [{ sid: 1, channel: "token_book", ids: ["1"] }],
      rejected: [],
    });
    await h.flush();
    expect(h.rejected.map((r) => `${r.code}:${r.ids}:${r.retryInMs}`)).toEqual(["not_accepted:2:400"]);
    await h.sync.request(0);
    expect(h.sent).toHaveLength(1); // no endless re-adding
    h.clock.advanceBy(399);
    await h.flush();
    expect(h.sent).toHaveLength(1);
    h.clock.advanceBy(1);
    await h.flush();
    expect(h.sent[1]).toMatchObject({ cmd: "update_subscription", params: { sid: 1, add_ids: ["2"] } });
    h.sent[1]?.reply({ type: "subscription_updated" });
    await h.flush();
    expect(h.restored).toEqual([{ channel: "token_book", ids: ["2"] }]);
    expect(h.layout.isHeld("token_book", "2")).toBe(true);
  });

  it("a connection lost mid-pass changes nothing; after reset() everything is subscribed again", async () => {
    const h = harness();
    const outcome = h.waiters.wait("token_book", ["1"]);
    h.layout.place("token_book", ["1"]);
    void h.sync.request(0);
    await h.flush();
    h.sent[0]?.fail(new GatewayError("connection_lost", "gone"));
    await h.flush();
    expect(h.layout.has("token_book", "1")).toBe(true);
    h.sync.reset(0);
    void h.sync.request(0);
    await h.flush();
    expect(h.sent[1]?.cmd).toBe("subscribe");
    h.sent[1]?.reply({
      type: "subscribed",
      accepted: [{ sid: 2, channel: "token_book", ids: ["1"] }],
      rejected: [],
    });
    await expect(outcome).resolves.toEqual({ accepted: ["1"], rejected: [] });
  });

  it("a reply that arrives after a reset belongs to the old socket and is ignored", async () => {
    const h = harness();
    h.layout.place("token_book", ["1"]);
    void h.sync.request(0);
    await h.flush();
    h.sync.reset(0);
    h.sent[0]?.reply({
      type: "subscribed",
      accepted: [{ sid: 77, channel: "token_book", ids: ["1"] }],
      rejected: [],
    });
    await h.flush();
    expect(h.layout.subOf("token_book", "1")?.sid).toBeUndefined();
  });

  it("does nothing while the link is not open", async () => {
    const h = harness();
    h.setOpen(false);
    h.layout.place("token_book", ["1"]);
    await h.sync.request(0);
    expect(h.sent).toEqual([]);
  });
});
