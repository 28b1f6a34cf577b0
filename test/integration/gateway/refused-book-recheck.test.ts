import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import type { Feeds } from "../../../src/app/feeds.js";
import { createMetrics, type Metrics } from "../../../src/observability/metrics.js";
import { parseExposition, sumOf } from "../../unit/observability/exposition.js";
import { bookToken, feedsOn, marketM1 } from "./feeds-rig.js";
import { settle, until } from "./harness.js";
import { type Answer, politeAnswer, RawServer } from "./raw-server.js";
import { feedSlots, snapshotFrame } from "./sim-feed.js";

/*
 * A token_book subscription refused with forbidden (or api_key_scope_missing) was final: the book
 * stayed untracked and unquoted "until a restart", though that code describes the key's grant,
 * which an operator can change at the exchange while mm runs. Now the client asks again every
 * refusedRecheckMs (one update_subscription for all such ids of a link): quietly while the
 * exchange still refuses, and once it accepts the book is tracked, synced and quotable again,
 * mm_book_refused back to 0 and an info line saying so.
 */

const A = "4242";
const B = "4343";
const RECHECK_MS = 2_000;
const CONDITION = `0x${"ab".repeat(32)}`;
const slots = feedSlots();
let server: RawServer | undefined;
let feeds: Feeds | undefined;
let metrics: Metrics | undefined;
afterEach(async () => {
  await feeds?.close();
  await server?.close();
  metrics?.close();
  feeds = undefined;
  server = undefined;
  metrics = undefined;
});

const MARKETS = marketM1([bookToken(A, "YES", 0, CONDITION), bookToken(B, "NO", 1, CONDITION)]);

/** politeAnswer, except that while `gate.on` token_book subscriptions of B are refused (forbidden). */
function refusingB(gate: { on: boolean }): Answer {
  const polite = politeAnswer();
  return (c, conn) => {
    if (!gate.on) return polite(c, conn);
    const subs = (c.params?.subscriptions ?? []) as { channel: string; ids?: string[] }[];
    const entry = subs[0];
    if (c.cmd === "subscribe" && entry?.channel === "token_book" && entry.ids?.includes(B)) {
      const rest = entry.ids.filter((id) => id !== B);
      return {
        type: "subscribed",
        accepted: rest.length === 0 ? [] : [{ sid: 1, channel: "token_book", ids: rest }],
        rejected: [{ channel: "token_book", ids: [B], code: "forbidden", message: "not in the grant" }],
      };
    }
    const add = c.params?.add_ids as string[] | undefined;
    if (c.cmd === "update_subscription" && add?.includes(B)) {
      return { type: "error", code: "forbidden", message: "not in the grant" };
    }
    return polite(c, conn);
  };
}

describe("Feeds: a book refused with a grant code is asked again, and comes back once accepted", () => {
  it("re-asked once per interval, quietly, while refused; tracked, synced and quotable once the refusal is lifted", async () => {
    const gate = { on: true };
    const srv = await new RawServer(refusingB(gate)).listen();
    server = srv;
    const { f, engine, clock, sink } = feedsOn(srv, MARKETS, { refusedRecheckMs: RECHECK_MS });
    feeds = f;
    const registry = new Registry();
    metrics = createMetrics({ registry, defaultMetrics: false });
    metrics.registerMarkets(MARKETS.tokens, () => "m1");
    metrics.watchBookTracker(f.market.tracker);
    const gauge = async () =>
      sumOf(parseExposition(await registry.metrics()), "mm_book_refused", { market: "m1", outcome: "NO" });
    const tracker = f.market.tracker;
    const updates = () => srv.received.filter((c) => c.cmd === "update_subscription").length;
    const loud = () => sink.records().filter((r) => (r.level as number) >= 40);

    await f.start();
    // conn 0 = /ws/user, conn 1 = /ws/market.
    srv.conns[1]?.send(snapshotFrame(A, 1));
    await f.market.client.ping();
    expect(tracker.refused()).toEqual([B]);
    expect(await gauge()).toBe(1);
    expect(loud()).toHaveLength(1);
    expect(loud()[0]).toMatchObject({
      channel: "token_book",
      code: "forbidden",
      ids: [B],
      recheckInMs: RECHECK_MS,
    });
    expect(String(loud()[0]?.msg)).toMatch(/asked again every 2000 ms/);
    const bStates = engine.of(B).length;
    const aStates = engine.of(A).length;
    expect(engine.of(A).at(-1)).toMatchObject({ quotable: true });

    // Three intervals, still refused: one update_subscription each, no log line, no state churn.
    await until(() => updates() === 3, "three re-asks", { clock, advanceMs: 100 });
    clock.advanceBy(RECHECK_MS - 200);
    await settle(20);
    expect(updates()).toBe(3);
    expect(srv.received.filter((c) => c.cmd === "update_subscription").map((c) => c.params?.add_ids)).toEqual(
      [[B], [B], [B]],
    );
    expect(loud()).toHaveLength(1);
    expect(tracker.refused()).toEqual([B]);
    expect(tracker.state(B)).toBeUndefined();
    expect(await gauge()).toBe(1);
    expect(engine.of(B)).toHaveLength(bStates);
    expect(engine.of(A)).toHaveLength(aStates);
    expect(f.market.client.counters.subscriptionRefusals).toEqual({ "token_book:forbidden": 4 });

    // The operator fixed the grant: the next re-ask is accepted, its snapshot follows.
    gate.on = false;
    await until(() => tracker.state(B)?.status === "resyncing", "B tracked again", { clock, advanceMs: 100 });
    expect(tracker.refused()).toEqual([]);
    expect(await gauge()).toBe(0);
    srv.conns[1]?.send(snapshotFrame(B, 7));
    await until(() => tracker.state(B)?.status === "synced", "B synced");
    expect(engine.of(B).at(-1)).toMatchObject({ status: "synced", quotable: true });
    const back = sink.records().filter((r) => r.level === 30 && /back/.test(String(r.msg)));
    expect(back).toMatchObject([{ channel: "token_book", ids: [B] }]);
    expect(loud()).toHaveLength(1);

    // Back for good: nothing more is asked.
    const asked = updates();
    clock.advanceBy(3 * RECHECK_MS);
    await settle(20);
    expect(updates()).toBe(asked);
    expect(engine.of(A).at(-1)).toMatchObject({ quotable: true });
  });

  it("a reconnect while a re-ask is out does not track the book early; the resubscribe's refusal keeps it refused", async () => {
    let asked = false;
    const refusing = refusingB({ on: true });
    // The re-ask goes unanswered: the test drops the link under it.
    const srv = await new RawServer((c, conn) => {
      if (c.cmd === "update_subscription") {
        asked = true;
        return undefined;
      }
      return refusing(c, conn);
    }).listen();
    const { clock, client, feed: f } = slots.feedOn(srv, { timing: { refusedRecheckMs: RECHECK_MS } });
    const seen: string[] = [];
    f.tracker.onState((s) => seen.push(`${s.tokenId}:${s.status}`));
    await f.start();
    await f.subscribeBooks([A, B]);
    expect(f.tracker.refused()).toEqual([B]);
    seen.length = 0;
    await until(() => asked, "the re-ask", { clock, advanceMs: 100 });
    client.dropLink(0);
    await until(() => srv.commands("subscribe").length === 2, "the resubscribe", { clock, advanceMs: 100 });
    await client.ping();
    expect(srv.commands("subscribe")[1]?.params).toMatchObject({
      subscriptions: [{ channel: "token_book", ids: [A, B] }],
    });
    expect(f.tracker.refused()).toEqual([B]);
    expect(f.tracker.state(B)).toBeUndefined();
    expect(seen.filter((s) => s.startsWith(B))).toEqual([]);
  });
});
