import { describe, expect, it } from "vitest";
import { harness } from "./sync-harness.js";

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
