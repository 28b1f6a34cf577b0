import { describe, expect, it } from "vitest";
import { harness, orphaned, unsubscribeTimeout } from "./sync-harness.js";

/*
 * A sid whose orphan unsubscribe went unanswered is "unproven": a push under it is stray, dropped,
 * and its unsubscribe sent again (orphans.ts). But a server handing out the lowest free number gives
 * that very sid to the resubscribe that repairs the drop, and may push the subscription's first
 * frame ahead of the subscribe reply: judged stray, that frame of ours was dropped (a book's only
 * snapshot) and the resent unsubscribe removed the subscription just made. While a subscribe or
 * update_subscription is in flight on the link, such a push is kept and nothing is sent; the reply
 * decides.
 */

/** `h` with sid 1 unproven (its unsubscribe timed out) and the resubscribe (h.sent[3]) in flight. */
async function resubscribing(h: ReturnType<typeof harness>): Promise<void> {
  await orphaned(h);
  h.sent[2]?.fail(unsubscribeTimeout());
  await h.flush();
  expect(h.sent[3]).toMatchObject({ cmd: "subscribe" });
  expect(h.sync.hasUnproven(0)).toBe(true);
}

const unsubscribes = (h: ReturnType<typeof harness>, from: number) =>
  h.sent.slice(from).filter((c) => c.cmd === "unsubscribe");

describe("a push under an unproven sid while a subscribe is in flight", () => {
  it("is kept and sends nothing; the reply giving us that sid makes it ours", async () => {
    const h = harness();
    await resubscribing(h);
    expect(h.sync.stray(0, 1)).toBe(false); // ahead of the reply: maybe ours
    await h.flush();
    expect(h.sent).toHaveLength(4);
    h.sent[3]?.reply({ type: "subscribed", accepted: [{ sid: 1, channel: "token_book", ids: ["1"] }] });
    await h.flush();
    expect(unsubscribes(h, 4)).toEqual([]);
    expect(h.sync.hasUnproven(0)).toBe(false);
    expect(h.sync.stray(0, 1)).toBe(false);
    expect(h.listWrong).toEqual([]);
  });

  it("is kept; the reply giving another sid shows it stray: its unsubscribe goes again, once", async () => {
    const h = harness();
    await resubscribing(h);
    expect(h.sync.stray(0, 1)).toBe(false);
    expect(h.sync.stray(0, "1")).toBe(false);
    await h.flush();
    expect(h.sent).toHaveLength(4);
    h.sent[3]?.reply({ type: "subscribed", accepted: [{ sid: 2, channel: "token_book", ids: ["1"] }] });
    await h.flush();
    const again = unsubscribes(h, 4);
    // Spelled as the last push spelled it (the server echoes sids as it sent them).
    expect(again.map((c) => [c.params, c.optional])).toEqual([[{ sid: "1" }, true]]);
    expect(h.sync.stray(0, 1)).toBe(true); // no command in flight now: dropped as before
    await h.flush();
    expect(unsubscribes(h, 4)).toHaveLength(1); // that unsubscribe is still in flight
  });

  it("with nothing pushed meanwhile, the reply giving another sid sends nothing", async () => {
    const h = harness();
    await resubscribing(h);
    h.sent[3]?.reply({ type: "subscribed", accepted: [{ sid: 2, channel: "token_book", ids: ["1"] }] });
    await h.flush();
    expect(h.sent).toHaveLength(4);
    expect(h.sync.hasUnproven(0)).toBe(true);
  });
});

describe("a push under an unproven sid while an update_subscription is in flight", () => {
  it("is kept; once answered, the sid still unproven, its unsubscribe goes again", async () => {
    const h = harness();
    await resubscribing(h);
    h.sent[3]?.reply({ type: "subscribed", accepted: [{ sid: 2, channel: "token_book", ids: ["1"] }] });
    await h.flush();
    h.layout.place("token_book", ["2"]);
    void h.sync.request(0);
    await h.flush();
    expect(h.sent[4]).toMatchObject({ cmd: "update_subscription", params: { sid: 2, add_ids: ["2"] } });
    expect(h.sync.stray(0, 1)).toBe(false);
    await h.flush();
    expect(h.sent).toHaveLength(5);
    h.sent[4]?.reply({ type: "subscription_updated" });
    await h.flush();
    expect(unsubscribes(h, 5).map((c) => c.params)).toEqual([{ sid: 1 }]);
  });
});

describe("a resent unsubscribe left unanswered after a subscribe reply claimed its sid", () => {
  it("does not make the sid unproven again (the server took the unsubscribe first)", async () => {
    const h = harness();
    await resubscribing(h);
    h.sent[3]?.reply({ type: "subscribed", accepted: [{ sid: 2, channel: "token_book", ids: ["1"] }] });
    await h.flush();
    expect(h.sync.stray(0, 1)).toBe(true);
    expect(h.sent[4]).toMatchObject({ cmd: "unsubscribe", params: { sid: 1 } });
    // A new subscription of another channel, given sid 1 (free on the server: it stays silent on
    // the unsubscribe of a sid it does not hold).
    h.layout.place("token_trade_matches", ["1"]);
    void h.sync.request(0);
    await h.flush();
    expect(h.sent[5]).toMatchObject({ cmd: "subscribe" });
    h.sent[5]?.reply({
      type: "subscribed",
      accepted: [{ sid: 1, channel: "token_trade_matches", ids: ["1"] }],
    });
    await h.flush();
    h.sent[4]?.fail(unsubscribeTimeout());
    await h.flush();
    expect(h.sync.hasUnproven(0)).toBe(false);
    expect(h.sync.stray(0, 1)).toBe(false);
    await h.flush();
    expect(unsubscribes(h, 5)).toEqual([]);
  });
});
