import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import { createMetrics, type Metrics } from "../../../src/observability/metrics.js";
import { parseExposition, sumOf } from "../../unit/observability/exposition.js";
import { market, marketClient, startMock, until } from "./harness.js";
import { RawServer, refusingResubscribe } from "./raw-server.js";
import { feedSlots, snapshotFrame } from "./sim-feed.js";

/*
 * A token_book subscription refused for good (a final code, refusal-policy.ts) leaves the token
 * untracked: mm_book_state reads 0 in every state, so MmBookStale never fires, and the token is
 * never quoted; only an error log line said so. mm_book_refused (MmBookRefused) shows it, until the
 * token is subscribed again. Found by the market-data review (question "No alert for a refused
 * subscription").
 */

const A = "111";
const slots = feedSlots();
let metrics: Metrics | undefined;
afterEach(() => {
  metrics?.close();
  metrics = undefined;
});

/** Metrics watching `feed`'s tracker, with `tokens` registered under market `m` (slug "mkt"). */
function watched(feed: MarketDataFeed, tokens: readonly { tokenId: string; outcome: string }[]) {
  const registry = new Registry();
  metrics = createMetrics({ registry, defaultMetrics: false });
  metrics.registerMarkets(
    tokens.map((t) => ({ ...t, marketId: "m" })),
    () => "mkt",
  );
  metrics.watchBookTracker(feed.tracker);
  return async (outcome: string, name = "mm_book_refused") =>
    sumOf(parseExposition(await registry.metrics()), name, { market: "mkt", outcome });
}

describe("mm_book_refused: a book subscription refused for good", () => {
  it("the resubscribe after a reconnect refused (forbidden): 1 while refused, 0 once subscribed again", async () => {
    const srv = await new RawServer(refusingResubscribe("forbidden", 1)).listen();
    const {
      clock,
      client,
      feed: f,
    } = slots.feedOn(srv, {
      timing: { pingIntervalMs: 60_000, silenceTimeoutMs: 120_000, backoff: { baseMs: 500, maxMs: 4_000 } },
    });
    const gauge = watched(f, [{ tokenId: A, outcome: "YES" }]);
    let refusals = 0;
    client.onRejected(() => refusals++);
    await f.start();
    await f.subscribeBooks([A]);
    srv.conns[0]?.send(snapshotFrame(A, 1));
    await client.ping();
    expect(await gauge("YES")).toBe(0);
    expect(await gauge("YES", "mm_book_quotable")).toBe(1);

    client.dropLink(0);
    await until(() => refusals === 1, "the refusal of the resubscribe", { clock, advanceMs: 100 });
    expect(f.tracker.state(A)).toBeUndefined();
    expect(f.tracker.refused()).toEqual([A]);
    expect(await gauge("YES")).toBe(1);
    // What MmBookStale reads says nothing: the token is in no state at all.
    expect(await gauge("YES", "mm_book_state")).toBe(0);

    // Subscribed again (the operator fixed the key's grant): the server accepts this time.
    const out = await f.subscribeBooks([A]);
    expect(out.accepted).toEqual([A]);
    expect(f.tracker.refused()).toEqual([]);
    expect(await gauge("YES")).toBe(0);
  });

  it("the mock exchange refuses an id it cannot read (invalid_params) at subscribe time: counted, the good ones not", async () => {
    const mock = await startMock();
    const f = slots.keep(new MarketDataFeed({ client: marketClient(mock), clock: mock.clock }));
    slots.keep(mock);
    const good = market(mock).yesTokenId;
    const bad = "0xnot-a-token";
    const gauge = watched(f, [
      { tokenId: good, outcome: "YES" },
      { tokenId: bad, outcome: "NO" },
    ]);
    await f.start();
    const out = await f.subscribeBooks([bad]);
    expect(out.rejected).toMatchObject([{ channel: "token_book", ids: [bad], code: "invalid_params" }]);
    expect(out.rejected[0]?.retryInMs).toBeUndefined();
    await f.subscribeBooks([good]);
    await until(() => f.tracker.state(good)?.status === "synced", "the good book's snapshot");
    expect(await gauge("NO")).toBe(1);
    expect(await gauge("YES")).toBe(0);
    // Its market settled: retired, the refusal is no longer news.
    f.tracker.retire(bad);
    expect(await gauge("NO")).toBe(0);
  });

  it("the mock's refuse-book fault refuses one token of a subscribe (a partial accept): refused for good with the rejection's code, the other token synced", async () => {
    const mock = await startMock();
    const f = slots.keep(new MarketDataFeed({ client: marketClient(mock), clock: mock.clock }));
    slots.keep(mock);
    const { yesTokenId: yes, noTokenId: no } = market(mock);
    const gauge = watched(f, [
      { tokenId: yes, outcome: "YES" },
      { tokenId: no, outcome: "NO" },
    ]);
    mock.admin.refuseBooks([no]);
    await f.start();
    const out = await f.subscribeBooks([yes, no]);
    // The server named the refused id and its code: that verdict, not "left out of accepted"
    // (not_accepted, retried), is what the client must act on.
    expect(out.accepted).toEqual([yes]);
    expect(out.rejected).toMatchObject([{ channel: "token_book", ids: [no], code: "invalid_params" }]);
    expect(out.rejected[0]?.retryInMs).toBeUndefined();
    await until(() => f.tracker.state(yes)?.status === "synced", "the accepted book's snapshot");
    expect(f.tracker.refused()).toEqual([no]);
    expect(await gauge("NO")).toBe(1);
    expect(await gauge("YES")).toBe(0);
  });
});
