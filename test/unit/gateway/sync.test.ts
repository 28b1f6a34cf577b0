import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { zeroGatewayCounters } from "../../../src/gateway/counters.js";
import { CommandRejectedError, GatewayError } from "../../../src/gateway/errors.js";
import { SubscriptionLayout } from "../../../src/gateway/layout.js";
import { SubscriptionSync } from "../../../src/gateway/sync.js";
import { type RejectedIds, type RestoredIds, SubscribeWaiters } from "../../../src/gateway/waiters.js";

interface Sent {
  readonly cmd: string;
  readonly params: Record<string, unknown>;
  reply(r: Record<string, unknown>): void;
  fail(e: Error): void;
}

/** A hand-written fake of the link: records commands; the test answers them when it chooses. */
function harness(limits = { maxIdsPerSubscription: 100, maxSubscriptionsPerConnection: 256 }) {
  const layout = new SubscriptionLayout(limits);
  const waiters = new SubscribeWaiters();
  const sent: Sent[] = [];
  const rejected: RejectedIds[] = [];
  const restored: RestoredIds[] = [];
  const clock = new SimClock(0);
  const counters = zeroGatewayCounters();
  let open = true;
  const sync = new SubscriptionSync({
    layout,
    waiters,
    counters,
    clock,
    // Delays 400, 800, 1_600, 2_000 ms (jitter 1: the full exponential delay).
    backoff: { baseMs: 400, factor: 2, maxMs: 2_000, resetAfterMs: 60_000 },
    random: () => 1,
    isOpen: () => open,
    send: (_link, cmd, params) =>
      new Promise((resolve, reject) => sent.push({ cmd, params, reply: resolve, fail: reject })),
    onRejected: (r) => rejected.push(r),
    onRestored: (r) => restored.push(r),
    onAccepted: () => undefined,
  });
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return {
    layout,
    waiters,
    sync,
    sent,
    rejected,
    restored,
    clock,
    counters,
    flush,
    setOpen: (v: boolean) => (open = v),
  };
}

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
    expect(h.layout.idsOf("token_book")).toEqual(["1"]);
    expect(h.rejected).toEqual([
      { channel: "token_book", ids: ["2"], code: "invalid_params", message: "bad id" },
    ]);
  });

  it("an error reply to an update_subscription that only removes ids refuses nothing", async () => {
    const h = harness();
    h.layout.place("token_book", ["1", "2"]);
    void h.sync.request(0);
    await h.flush();
    h.sent[0]?.reply({
      type: "subscribed",
      accepted: [{ sid: 1, channel: "token_book", ids: ["1", "2"] }],
      rejected: [],
    });
    await h.flush();
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
    h.layout.place("token_book", ["1", "2"]);
    void h.sync.request(0);
    await h.flush();
    h.sent[0]?.reply({
      type: "subscribed",
      accepted: [{ sid: 1, channel: "token_book", ids: ["1", "2"] }],
      rejected: [],
    });
    await h.flush();
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

/** Answers the last command with a whole-entry refusal of `code`. */
function refuseLast(h: ReturnType<typeof harness>, code: string): void {
  const last = h.sent.at(-1);
  const entry = (last?.params.subscriptions as { channel: string; ids?: string[] }[] | undefined)?.[0];
  last?.reply({
    type: "subscribed",
    accepted: [],
    rejected: [{ channel: entry?.channel, ids: entry?.ids ?? [], code, message: "no" }],
  });
}

describe("SubscriptionSync: refusals are final or retried, by code", () => {
  it.each(["invalid_params", "api_key_scope_missing", "forbidden", "subscription_too_many_ids"])(
    "%s (a property of the request or the key): final, never sent again",
    async (code) => {
      const h = harness();
      h.layout.place("user_fills", []);
      void h.sync.request(0);
      await h.flush();
      refuseLast(h, code);
      await h.flush();
      expect(h.rejected).toEqual([{ channel: "user_fills", ids: [""], code, message: "no" }]);
      expect(h.layout.has("user_fills", "")).toBe(false);
      h.clock.advanceBy(60_000);
      await h.sync.request(0);
      expect(h.sent).toHaveLength(1);
      expect(h.counters.subscriptionRefusals).toEqual({ [`user_fills:${code}`]: 1 });
    },
  );

  it("any other code keeps the subscription wanted and resubscribes it after a growing back-off", async () => {
    const h = harness();
    h.layout.place("user_fills", []);
    void h.sync.request(0);
    await h.flush();
    refuseLast(h, "internal_error");
    await h.flush();
    expect(h.rejected).toEqual([
      { channel: "user_fills", ids: [""], code: "internal_error", message: "no", retryInMs: 400, attempt: 1 },
    ]);
    expect(h.layout.has("user_fills", "")).toBe(true);
    await h.sync.request(0); // a pass meanwhile (another id placed…) does not jump the back-off
    expect(h.sent).toHaveLength(1);
    h.clock.advanceBy(400);
    await h.flush();
    expect(h.sent).toHaveLength(2);
    refuseLast(h, "subscription_cap_exceeded");
    await h.flush();
    expect(h.rejected[1]).toMatchObject({ retryInMs: 800, attempt: 2 });
    h.clock.advanceBy(800);
    await h.flush();
    h.sent[2]?.reply({ type: "subscribed", accepted: [{ sid: 5, channel: "user_fills" }], rejected: [] });
    await h.flush();
    expect(h.restored).toEqual([{ channel: "user_fills", ids: [""] }]);
    expect(h.layout.isHeld("user_fills", "")).toBe(true);
    expect(h.counters.subscriptionRefusals).toEqual({
      "user_fills:internal_error": 1,
      "user_fills:subscription_cap_exceeded": 1,
    });
  });

  it("a code outside the known set is counted as `other` (bounded labels) and still retried", async () => {
    const h = harness();
    h.layout.place("user_fills", []);
    void h.sync.request(0);
    await h.flush();
    const code = `weird_${"x".repeat(200)}`;
    refuseLast(h, code);
    await h.flush();
    expect(h.rejected).toMatchObject([{ code, retryInMs: 400 }]); // the caller still hears the code
    expect(h.counters.subscriptionRefusals).toEqual({ "user_fills:other": 1 });
  });

  it("an unreadable reply (bad_reply) is retried, and an accepted retry starts the back-off over", async () => {
    const h = harness();
    h.layout.place("token_book", ["1"]);
    void h.sync.request(0);
    await h.flush();
    h.sent[0]?.reply({ type: "subscribed", accepted: "?" });
    await h.flush();
    expect(h.rejected[0]).toMatchObject({ code: "bad_reply", retryInMs: 400, attempt: 1 });
    h.clock.advanceBy(400);
    await h.flush();
    h.sent[1]?.reply({ type: "subscribed", accepted: [{ sid: 2, channel: "token_book", ids: ["1"] }] });
    await h.flush();
    expect(h.restored).toEqual([{ channel: "token_book", ids: ["1"] }]);
    // Refused again later (after a reconnect): attempt 1 again, not 2.
    h.sync.reset(0);
    void h.sync.request(0);
    await h.flush();
    refuseLast(h, "internal_error");
    await h.flush();
    expect(h.rejected[1]).toMatchObject({ retryInMs: 400, attempt: 1 });
  });

  it("a new socket sends what was held back at once; un-wanting a held id stops its retry", async () => {
    const h = harness();
    h.layout.place("token_book", ["1", "2"]);
    void h.sync.request(0);
    await h.flush();
    refuseLast(h, "internal_error");
    await h.flush();
    h.sync.reset(0); // reconnected before the back-off ended
    void h.sync.request(0);
    await h.flush();
    expect(h.sent).toHaveLength(2);
    refuseLast(h, "internal_error");
    await h.flush();
    expect(h.rejected[1]).toMatchObject({ attempt: 2 });
    h.layout.remove("token_book", ["1", "2"]);
    void h.sync.request(0); // emptied: nothing to subscribe, nothing to unsubscribe (no sid)
    await h.flush();
    h.clock.advanceBy(10_000);
    await h.flush();
    expect(h.sent).toHaveLength(2);
    expect(h.layout.subsOn(0)).toEqual([]);
  });

  it("stop() cancels the pending retries", async () => {
    const h = harness();
    h.layout.place("token_book", ["1"]);
    void h.sync.request(0);
    await h.flush();
    refuseLast(h, "internal_error");
    await h.flush();
    h.sync.stop();
    h.clock.advanceBy(10_000);
    await h.flush();
    expect(h.sent).toHaveLength(1);
  });
});
