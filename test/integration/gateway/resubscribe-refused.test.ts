import { describe, expect, it } from "vitest";
import type { BookStateEvent } from "../../../src/book/book-state.js";
import type { SimClock } from "../../../src/core/sim-clock.js";
import type { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import type { RejectedIds } from "../../../src/gateway/waiters.js";
import { settle, until } from "./harness.js";
import { type Answer, politeAnswer, RawServer, refusingResubscribe } from "./raw-server.js";
import { feedSlots, snapshotFrame } from "./sim-feed.js";

/*
 * The subscriptions a link held are subscribed again after every reconnect. A refusal at that
 * point used to be permanent whatever its code (the ids were dropped from the layout and the book
 * untracked) and silent. Now: a code the spec lists as a property of the request or the key
 * (invalid_params, api_key_scope_missing, forbidden, subscription_too_many_ids) is final, any other
 * (a code the spec does not list, subscription_cap_exceeded, an unreadable reply, ids left out of
 * `accepted`) is retried with back-off on the injected clock; either way the book is not quotable
 * while it is not subscribed. Found by the market-data review (question 4).
 */

const A = "111";
const B = "222";
const slots = feedSlots();

interface Setup {
  readonly srv: RawServer;
  readonly f: MarketDataFeed;
  readonly clock: SimClock;
  readonly states: BookStateEvent[];
  readonly rejected: RejectedIds[];
  readonly restored: string[][];
}

/** A feed with book A synced on link 0, then the link dropped and reconnected (conn 1). */
async function reconnected(answer: Answer): Promise<Setup> {
  const srv = await new RawServer(answer).listen();
  const timing = {
    pingIntervalMs: 60_000,
    silenceTimeoutMs: 120_000,
    backoff: { baseMs: 500, maxMs: 4_000 },
  };
  const { clock, client, feed: f } = slots.feedOn(srv, { timing });
  const states: BookStateEvent[] = [];
  const rejected: RejectedIds[] = [];
  const restored: string[][] = [];
  f.tracker.onState((s) => {
    if (s.tokenId === A) states.push(s);
  });
  client.onRejected((r) => rejected.push(r));
  client.onRestored((r) => restored.push([...r.ids]));
  await f.start();
  await f.subscribeBooks([A]);
  srv.conns[0]?.send(snapshotFrame(A, 1));
  await client.ping();
  expect(f.tracker.state(A)).toMatchObject({ status: "synced", quotable: true });
  client.dropLink(0);
  await until(() => srv.conns.length === 2 && srv.commands("subscribe").length === 2, "the resubscribe", {
    clock,
    advanceMs: 100,
  });
  await until(() => rejected.length === 1, "the refusal");
  return { srv, f, clock, states, rejected, restored };
}

describe("a refusal of the resubscribe after a reconnect", () => {
  it("a code the spec does not list: retried after back-off; the book is not quotable until it is back", async () => {
    const s = await reconnected(refusingResubscribe("internal_error", 2));
    expect(s.rejected[0]).toMatchObject({ channel: "token_book", ids: [A], code: "internal_error" });
    expect(s.rejected[0]?.retryInMs).toBeGreaterThan(0);
    expect(s.f.client.counters.subscriptionRefusals).toEqual({ "token_book:internal_error": 1 });
    // Still tracked (not forgotten), and the engine was told it is not quotable.
    expect(s.f.tracker.state(A)).toMatchObject({ status: "resyncing", quotable: false });
    expect(s.states.at(-1)).toMatchObject({ quotable: false });
    await settle(20);
    expect(s.srv.commands("subscribe")).toHaveLength(2); // not at once: after the back-off

    // Second attempt: refused again, with a longer delay; third: accepted, and the snapshot follows.
    await until(() => s.rejected.length === 2, "the second refusal", { clock: s.clock, advanceMs: 100 });
    expect(s.rejected[1]?.retryInMs).toBeGreaterThan(s.rejected[0]?.retryInMs ?? 0);
    await until(() => s.srv.commands("subscribe").length === 4, "the third attempt", {
      clock: s.clock,
      advanceMs: 100,
    });
    await until(() => s.restored.length === 1, "the restored subscription");
    expect(s.restored).toEqual([[A]]);
    s.srv.conns[1]?.send(snapshotFrame(A, 9));
    await s.f.client.ping();
    expect(s.f.tracker.state(A)).toMatchObject({ status: "synced", quotable: true, lastSeq: 9 });
    expect(s.f.client.linkStates()).toEqual(["open"]);
  });

  it("subscription_cap_exceeded (a count of the connection, which ours keeps under 256) is retried too", async () => {
    const s = await reconnected(refusingResubscribe("subscription_cap_exceeded", 1));
    expect(s.rejected[0]?.retryInMs).toBeGreaterThan(0);
    await until(() => s.restored.length === 1, "the restored subscription", {
      clock: s.clock,
      advanceMs: 100,
    });
    expect(s.f.client.idsOn(0, "token_book")).toEqual([A]);
  });

  it("a code the spec lists (forbidden): final; the book is untracked, its last state not quotable, nothing retried", async () => {
    const s = await reconnected(refusingResubscribe("forbidden", 1));
    expect(s.rejected[0]).toEqual({ channel: "token_book", ids: [A], code: "forbidden", message: "refused" });
    expect(s.f.tracker.state(A)).toBeUndefined();
    expect(s.states.at(-1)).toMatchObject({ quotable: false });
    expect(s.f.client.idsOn(0, "token_book")).toEqual([]);
    for (let i = 0; i < 20; i++) {
      s.clock.advanceBy(1_000);
      await settle(2);
    }
    expect(s.srv.commands("subscribe")).toHaveLength(2);
    expect(s.restored).toEqual([]);
  });

  it("at subscribe time a retried id is reported rejected (with retryInMs) but stays tracked until it is accepted", async () => {
    const polite = politeAnswer();
    let first = true;
    const srv = await new RawServer((c, conn) => {
      if (c.cmd === "subscribe" && first) {
        first = false;
        return { type: "subscribed", accepted: [{ sid: 7, channel: "token_book", ids: [A] }], rejected: [] };
      }
      return polite(c, conn);
    }).listen();
    const { clock, client, feed: f } = slots.feedOn(srv, { now: 0 });
    await f.start();
    // B is left out of `accepted` (no code): retried, not dropped.
    const out = await f.subscribeBooks([A, B]);
    expect(out.accepted).toEqual([A]);
    expect(out.rejected).toMatchObject([{ ids: [B], code: "not_accepted", retryInMs: expect.any(Number) }]);
    expect(f.tracker.state(B)).toMatchObject({ status: "resyncing", quotable: false });
    await until(() => srv.commands("update_subscription").length === 1, "the retry", {
      clock,
      advanceMs: 100,
    });
    expect(srv.commands("update_subscription")[0]?.params).toEqual({ sid: 7, add_ids: [B] });
    srv.conns[0]?.send(snapshotFrame(B, 3));
    await client.ping();
    expect(f.tracker.state(B)).toMatchObject({ status: "synced", quotable: true });
  });
});
