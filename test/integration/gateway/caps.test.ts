import { afterEach, describe, expect, it } from "vitest";
import type { GatewayClient } from "../../../src/gateway/client.js";
import type { SubscriptionInfo } from "../../../src/gateway/replies.js";
import { type Mock, marketClient, startMock, until } from "./harness.js";

let mock: Mock;
let client: GatewayClient;
afterEach(async () => {
  await client?.close();
  await mock?.close();
});

/** Well-formed token ids the scenario does not list (the mock accepts them; snapshots fail). */
const tokens = (n: number): string[] => Array.from({ length: n }, (_, i) => String(10n ** 30n + BigInt(i)));

function checkCaps(lists: { link: number; subscriptions: SubscriptionInfo[] }[]): void {
  for (const { subscriptions } of lists) {
    expect(subscriptions.length).toBeLessThanOrEqual(256);
    for (const s of subscriptions) expect(s.ids.length).toBeLessThanOrEqual(100);
  }
}

describe("subscription caps: ≤ 100 ids per subscription, ≤ 256 subscriptions per connection", () => {
  it("1,000 tokens on two channels: 20 subscriptions of 100 ids on one connection", async () => {
    mock = await startMock();
    client = marketClient(mock);
    await client.start();
    const ids = tokens(1_000);
    const book = await client.subscribe("token_book", ids);
    const trades = await client.subscribe("token_trade_matches", ids);
    expect(book.accepted).toHaveLength(1_000);
    expect(trades.accepted).toHaveLength(1_000);
    const lists = await client.listSubscriptions();
    expect(lists).toHaveLength(1);
    checkCaps(lists);
    const subs = lists[0]?.subscriptions ?? [];
    expect(subs).toHaveLength(20);
    expect(subs.every((s) => s.ids.length === 100)).toBe(true);
    for (const channel of ["token_book", "token_trade_matches"]) {
      const held = subs.filter((s) => s.channel === channel).flatMap((s) => s.ids);
      expect(new Set(held)).toEqual(new Set(ids));
    }
    // Every unknown token got its book_snapshot_failed, delivered as a typed event.
    await until(() => client.counters.framesByType.book_snapshot_failed === 1_000, "1,000 snapshot failures");
    expect(mock.gateways.openSockets()).toBe(1);
  });

  it("30,000 tokens: 300 subscriptions over two connections (256 + 44), all held by the server", async () => {
    mock = await startMock();
    client = marketClient(mock);
    await client.start();
    const ids = tokens(30_000);
    const out = await client.subscribe("token_book", ids);
    expect(out.accepted).toHaveLength(30_000);
    expect(out.rejected).toEqual([]);
    const lists = await client.listSubscriptions();
    checkCaps(lists);
    expect(lists.map((l) => l.subscriptions.length)).toEqual([256, 44]);
    const held = lists.flatMap((l) => l.subscriptions.flatMap((s) => s.ids));
    expect(held).toHaveLength(30_000);
    expect(new Set(held)).toEqual(new Set(ids));
    expect(mock.gateways.openSockets()).toBe(2);
    expect(client.counters.connectionsOpen).toBe(2);
    expect(client.counters.commandRejections).toBe(0);
  });

  it("unsubscribing frees room that later ids reuse, without a new connection", async () => {
    mock = await startMock();
    client = marketClient(mock, { limits: { maxSubscriptionsPerConnection: 3 } });
    await client.start();
    const ids = tokens(300);
    await client.subscribe("token_book", ids);
    expect(mock.gateways.openSockets()).toBe(1);
    await client.unsubscribe("token_book", ids.slice(0, 50));
    const more = tokens(350).slice(300);
    await client.subscribe("token_book", more);
    expect(mock.gateways.openSockets()).toBe(1);
    const lists = await client.listSubscriptions();
    expect(lists[0]?.subscriptions).toHaveLength(3);
    expect(new Set(lists[0]?.subscriptions.flatMap((s) => s.ids))).toEqual(
      new Set([...ids.slice(50), ...more]),
    );
    // One more id than fits: a second connection.
    await client.subscribe("token_book", tokens(351).slice(350));
    expect(mock.gateways.openSockets()).toBe(2);
    expect((await client.listSubscriptions()).map((l) => l.subscriptions.length)).toEqual([3, 1]);
  });
});
