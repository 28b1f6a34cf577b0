import { describe, expect, it } from "vitest";
import { CommandRejectedError } from "../../../src/gateway/errors.js";
import { harness, RECHECK_MS } from "./sync-harness.js";

/*
 * A token_book id refused with forbidden or api_key_scope_missing was un-wanted for good: the book
 * stayed unquoted until a restart, though the operator may fix the key's grant at the exchange
 * while mm runs. Such ids are now asked again every refusedRecheckMs, one command for all of them,
 * a refusal of the re-ask reported as `again` (no new episode), an acceptance as restored.
 */

/** A subscription holding "9", with "1" and "2" refused by the server with `code`. */
async function refusedOnSubscribe(code: string) {
  const h = harness();
  h.layout.place("token_book", ["9", "1", "2"]);
  void h.sync.request(0);
  await h.flush();
  h.sent[0]?.reply({
    type: "subscribed",
    accepted: [{ sid: 1, channel: "token_book", ids: ["9"] }],
    rejected: [{ channel: "token_book", ids: ["1", "2"], code, message: "not your grant" }],
  });
  await h.flush();
  return h;
}

describe("SubscriptionSync: token_book ids refused for good with a grant code are asked again", () => {
  it.each(["forbidden", "api_key_scope_missing"])(
    "%s: un-wanted, then one update_subscription per interval for all of them until accepted",
    async (code) => {
      const h = await refusedOnSubscribe(code);
      const first = { channel: "token_book", ids: ["1", "2"], code, message: "not your grant" };
      expect(h.rejected).toEqual([{ ...first, recheckInMs: RECHECK_MS }]);
      expect(h.layout.idsOf("token_book")).toEqual(["9"]);
      h.clock.advanceBy(RECHECK_MS - 1);
      await h.flush();
      expect(h.sent).toHaveLength(1);

      h.clock.advanceBy(1);
      await h.flush();
      expect(h.sent.map((s) => s.cmd)).toEqual(["subscribe", "update_subscription"]);
      expect(h.sent[1]?.params).toEqual({ sid: 1, add_ids: ["1", "2"] });
      // Refused again: reported as the same episode, un-wanted until the next interval.
      h.sent[1]?.fail(new CommandRejectedError("update_subscription", code, "not your grant"));
      await h.flush();
      expect(h.rejected.slice(1)).toEqual([{ ...first, recheckInMs: RECHECK_MS, again: true }]);
      expect(h.layout.idsOf("token_book")).toEqual(["9"]);
      await h.sync.request(0);
      expect(h.sent).toHaveLength(2);

      h.clock.advanceBy(RECHECK_MS);
      await h.flush();
      expect(h.sent).toHaveLength(3);
      expect(h.sent[2]?.params).toEqual({ sid: 1, add_ids: ["1", "2"] });
      h.sent[2]?.reply({ type: "subscription_updated", sid: 1 });
      await h.flush();
      expect(h.restored).toEqual([{ channel: "token_book", ids: ["1", "2"], recheck: true }]);
      expect(h.layout.idsOf("token_book").sort()).toEqual(["1", "2", "9"]);
      // Back: nothing more is asked.
      h.clock.advanceBy(3 * RECHECK_MS);
      await h.flush();
      expect(h.sent).toHaveLength(3);
      expect(h.counters.subscriptionRefusals).toEqual({ [`token_book:${code}`]: 2 });
    },
  );

  it.each(["invalid_params", "subscription_too_many_ids"])(
    "%s (what mm sends, which a re-ask would send unchanged): never asked again",
    async (code) => {
      const h = await refusedOnSubscribe(code);
      expect(h.rejected).toEqual([
        { channel: "token_book", ids: ["1", "2"], code, message: "not your grant" },
      ]);
      h.clock.advanceBy(10 * RECHECK_MS);
      await h.flush();
      expect(h.sent).toHaveLength(1);
    },
  );

  it("a whole subscription refused is subscribed afresh at the interval; ids forgotten meanwhile are not", async () => {
    const h = harness();
    h.layout.place("token_book", ["1", "2"]);
    void h.sync.request(0);
    await h.flush();
    h.sent[0]?.reply({
      type: "subscribed",
      accepted: [],
      rejected: [{ channel: "token_book", ids: ["1", "2"], code: "forbidden", message: "no" }],
    });
    await h.flush();
    expect(h.layout.subsOn(0)).toEqual([]);
    h.recheck.forget("token_book", ["2"]); // unsubscribed by the caller (a settled market)
    h.clock.advanceBy(RECHECK_MS);
    await h.flush();
    expect(h.sent[1]).toMatchObject({
      cmd: "subscribe",
      params: { subscriptions: [{ channel: "token_book", ids: ["1"] }] },
    });
  });

  it("other channels' grant refusals stay final (their consumers report them for good)", async () => {
    const h = harness();
    h.layout.place("condition_lifecycle", ["0xab"]);
    void h.sync.request(0);
    await h.flush();
    h.sent[0]?.reply({
      type: "subscribed",
      accepted: [],
      rejected: [{ channel: "condition_lifecycle", ids: ["0xab"], code: "forbidden", message: "no" }],
    });
    await h.flush();
    expect(h.rejected[0]?.recheckInMs).toBeUndefined();
    h.clock.advanceBy(10 * RECHECK_MS);
    await h.flush();
    expect(h.sent).toHaveLength(1);
  });

  it("stop() cancels the recheck", async () => {
    const h = await refusedOnSubscribe("forbidden");
    h.recheck.stop();
    h.clock.advanceBy(10 * RECHECK_MS);
    await h.flush();
    expect(h.sent).toHaveLength(1);
  });
});
