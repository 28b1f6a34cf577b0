import { describe, expect, it } from "vitest";
import { CommandRejectedError } from "../../../src/gateway/errors.js";
import { harness, orphaned, unsubscribeTimeout } from "./sync-harness.js";

/*
 * The unsubscribe of a sid the server's list no longer showed was an awaited command: a server
 * that never answered it (the spec shows no reply for unsubscribe) got the connection dropped by
 * the command timeout, every book on it resynced. It is now reply-optional; unanswered, the ids
 * are subscribed afresh and the sid is watched: a push under it shows the server still holds it,
 * so the push is dropped and the unsubscribe sent again (a token is never fed by two sids).
 */

describe("the unsubscribe of a sid the server's list no longer shows", () => {
  it("is reply-optional (unanswered, the connection is kept); the ids are subscribed afresh", async () => {
    const h = harness();
    await orphaned(h);
    expect(h.sent[2]?.optional).toBe(true);
    h.sent[2]?.fail(unsubscribeTimeout());
    await h.flush();
    expect(h.sent[3]).toMatchObject({
      cmd: "subscribe",
      params: { subscriptions: [{ channel: "token_book", ids: ["1"] }] },
    });
    expect(h.sync.hasUnproven(0)).toBe(true);
  });

  it("unanswered: a push under that sid is stray (dropped) and the unsubscribe goes again, once at a time, until answered", async () => {
    const h = harness();
    await orphaned(h);
    h.sent[2]?.fail(unsubscribeTimeout());
    await h.flush();
    h.sent[3]?.reply({ type: "subscribed", accepted: [{ sid: 2, channel: "token_book", ids: ["1"] }] });
    await h.flush();
    expect(h.sync.stray(0, 2)).toBe(false);
    expect(h.sync.stray(0, "1")).toBe(true);
    expect(h.sync.stray(0, 1)).toBe(true);
    const again = h.sent.slice(4);
    expect(again.map((c) => [c.cmd, c.params, c.optional])).toEqual([["unsubscribe", { sid: "1" }, true]]);
    again[0]?.reply({ type: "unsubscribed" });
    await h.flush();
    expect(h.sync.stray(0, 1)).toBe(false);
    expect(h.sync.hasUnproven(0)).toBe(false);
    expect(h.listWrong).toEqual([0]); // it did hold it: the list was wrong
  });

  it("refused (the server did drop it): nothing is watched, the list stands", async () => {
    const h = harness();
    await orphaned(h);
    h.sent[2]?.fail(new CommandRejectedError("unsubscribe", "invalid_params", "unknown sid 1"));
    await h.flush();
    expect(h.sync.stray(0, 1)).toBe(false);
    expect(h.sync.hasUnproven(0)).toBe(false);
    expect(h.listWrong).toEqual([]);
  });

  it("answered as done: the list was wrong (onListWrong)", async () => {
    const h = harness();
    await orphaned(h);
    h.sent[2]?.reply({ type: "unsubscribed" });
    await h.flush();
    expect(h.listWrong).toEqual([0]);
    expect(h.sent[3]).toMatchObject({ cmd: "subscribe" });
  });

  it("a new socket forgets the watched sids", async () => {
    const h = harness();
    await orphaned(h);
    h.sent[2]?.fail(unsubscribeTimeout());
    await h.flush();
    h.sync.reset(0);
    expect(h.sync.stray(0, 1)).toBe(false);
    expect(h.sync.hasUnproven(0)).toBe(false);
  });
});

describe("what the unsubscribe's verdict counts (mm_ws_subscriptions_repaired_total)", () => {
  it("refused invalid_params: the server did drop it, one repair", async () => {
    const h = harness();
    await orphaned(h);
    expect(h.counters.subscriptionsLost).toEqual({}); // not before the verdict
    h.sent[2]?.fail(new CommandRejectedError("unsubscribe", "invalid_params", "unknown sid 1"));
    await h.flush();
    expect(h.counters.subscriptionsLost).toEqual({ token_book: 1 });
  });

  it("answered with sids leaving ours out (sids: [], nothing removed): a repair, the list stands", async () => {
    const h = harness();
    await orphaned(h);
    h.sent[2]?.reply({ type: "unsubscribed", sids: [] });
    await h.flush();
    expect(h.listWrong).toEqual([]);
    expect(h.sync.hasUnproven(0)).toBe(false);
    expect(h.counters.subscriptionsLost).toEqual({ token_book: 1 });
    expect(h.sent[3]).toMatchObject({ cmd: "subscribe" });
  });

  it("answered with sids naming ours: done, the list was wrong, no repair", async () => {
    const h = harness();
    await orphaned(h);
    h.sent[2]?.reply({ type: "unsubscribed", sids: ["1"] });
    await h.flush();
    expect(h.listWrong).toEqual([0]);
    expect(h.counters.subscriptionsLost).toEqual({});
  });

  it("unanswered: one repair; the resend's verdict (a stray push) counts nothing more", async () => {
    const h = harness();
    await orphaned(h);
    h.sent[2]?.fail(unsubscribeTimeout());
    await h.flush();
    expect(h.counters.subscriptionsLost).toEqual({ token_book: 1 });
    h.sent[3]?.reply({ type: "subscribed", accepted: [{ sid: 2, channel: "token_book", ids: ["1"] }] });
    await h.flush();
    expect(h.sync.stray(0, 1)).toBe(true);
    h.sent[4]?.fail(new CommandRejectedError("unsubscribe", "invalid_params", "unknown sid 1"));
    await h.flush();
    expect(h.sync.hasUnproven(0)).toBe(false);
    expect(h.counters.subscriptionsLost).toEqual({ token_book: 1 });
  });

  it("refused internal_error: watched like an unanswered one (busy, not forgetful)", async () => {
    const h = harness();
    await orphaned(h);
    h.sent[2]?.fail(new CommandRejectedError("unsubscribe", "internal_error", "oops"));
    await h.flush();
    expect(h.sync.hasUnproven(0)).toBe(true);
    expect(h.counters.subscriptionsLost).toEqual({ token_book: 1 });
  });
});
