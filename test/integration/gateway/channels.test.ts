import { afterEach, describe, expect, it } from "vitest";
import type { GatewayClient } from "../../../src/gateway/client.js";
import type { ChannelEvent } from "../../../src/gateway/schema/events.js";
import {
  FLOW_WALLET,
  keyOf,
  MM_WALLET,
  type Mock,
  market,
  marketClient,
  place,
  startMock,
} from "./harness.js";

let mock: Mock;
const clients: GatewayClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await mock?.close();
});

function collect(client: GatewayClient): ChannelEvent[] {
  const events: ChannelEvent[] = [];
  client.onEvent((e) => events.push(e));
  clients.push(client);
  return events;
}

const ofType = <T extends ChannelEvent["type"]>(events: ChannelEvent[], type: T) =>
  events.filter((e): e is Extract<ChannelEvent, { type: T }> => e.type === type);

describe("every channel of the mock arrives as typed, validated events", () => {
  it("/ws/market: trades, settlements, OHLC, lifecycle and platform status", async () => {
    mock = await startMock();
    const client = marketClient(mock);
    const events = collect(client);
    await client.start();
    const m = market(mock);
    const t = m.yesTokenId;
    for (const ch of ["token_trade_matches", "token_trade_settlements", "token_ohlc"] as const) {
      expect((await client.subscribe(ch, [t])).accepted).toEqual([t]);
    }
    await client.subscribe("condition_lifecycle", [m.conditionId.toUpperCase().replace("0X", "0x")]);
    await client.subscribe("system", ["platform_status"]);

    place(mock, { marketId: m.id, side: "sell", price: "0.55", qty: "10" });
    place(mock, { wallet: FLOW_WALLET, marketId: m.id, side: "buy", price: "0.55", qty: "4" });
    mock.clock.advanceBy(mock.scenario.timing.settlementDelayMs);
    mock.admin.pauseMarket(m.id);
    mock.admin.freezePlatform(true);
    await client.ping();

    const [matched] = ofType(events, "trade_matched");
    expect(matched).toMatchObject({
      tokenId: t,
      conditionId: m.conditionId,
      outcomeIndex: 0,
      price: "0.55",
      quantity: "4",
      side: "buy",
      source: "matcher",
    });
    const [settled] = ofType(events, "trade_settled");
    expect(settled).toMatchObject({
      tokenId: t,
      price: "0.55",
      quantity: "4",
      source: "chain",
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(ofType(events, "ohlc_update")[0]).toMatchObject({
      tokenId: t,
      interval: "s5",
      open: "0.55",
      volume: "4",
      isClosed: false,
    });
    expect(ofType(events, "market_paused")).toEqual([
      {
        type: "market_paused",
        conditionId: m.conditionId,
        tsMs: mock.clock.now(),
        txHash: undefined,
        blockNumber: undefined,
      },
    ]);
    expect(ofType(events, "market_status").map((e) => e.status)).toEqual(["PAUSED"]);
    expect(ofType(events, "platform_status").map((e) => e.frozen)).toEqual([false, true]);
    expect(client.counters.malformed).toEqual({});
    expect(client.counters.dropped).toEqual({});

    mock.admin.resolveMarket(m.id, "YES");
    await client.ping();
    expect(ofType(events, "market_resolved")).toEqual([
      expect.objectContaining({
        conditionId: m.conditionId,
        resolution: "YES",
        payouts: { "0": "1", "1": "0" },
      }),
    ]);
  });

  it("/ws/user (single_wallet): order, fill and vault events of the acting wallet; a foreign vault is refused", async () => {
    mock = await startMock();
    const client = marketClient(mock, { gateway: "user" });
    const events = collect(client);
    const info = await client.start();
    expect(info.data).toMatchObject({ gateway: "user", walletAddress: MM_WALLET });
    const vault = String(info.data.vaultAddress);
    expect((await client.subscribe("user_orders")).accepted).toEqual([""]);
    expect((await client.subscribe("user_fills")).accepted).toEqual([""]);
    expect(
      (await client.subscribe("vault_positions", [vault.toUpperCase().replace("0X", "0x")])).accepted,
    ).toEqual([vault]);
    const foreign = await client.subscribe("vault_positions", [`0x${"12".repeat(20)}`]);
    expect(foreign.rejected).toEqual([
      {
        channel: "vault_positions",
        ids: [`0x${"12".repeat(20)}`],
        code: "forbidden",
        message: expect.any(String),
      },
    ]);
    await expect(client.subscribe("token_book", ["1"])).rejects.toMatchObject({ code: "wrong_gateway" });

    const m = market(mock);
    place(mock, { marketId: m.id, side: "sell", price: "0.60", qty: "10" });
    place(mock, { wallet: FLOW_WALLET, marketId: m.id, side: "buy", price: "0.60", qty: "3" });
    mock.clock.advanceBy(mock.scenario.timing.settlementDelayMs);
    await client.ping();
    expect(ofType(events, "order_placed")[0]).toMatchObject({ orderId: expect.any(String), status: "OPEN" });
    expect(ofType(events, "user_fill")).toEqual([
      expect.objectContaining({
        walletAddress: MM_WALLET,
        side: "sell",
        price: "0.6",
        quantity: "3",
        tokenId: m.yesTokenId,
      }),
    ]);
    expect(ofType(events, "vault_position_balance_changed")[0]).toMatchObject({
      vaultAddress: vault,
      reason: "OUTF",
      tokenId: m.yesTokenId,
    });
    expect(client.counters.malformed).toEqual({});
    // The foreign vault went as add_ids on the vault subscription and was the only error reply;
    // the wallet-scoped subscriptions were never touched again.
    expect(client.counters.framesByType).toMatchObject({ subscribed: 3, error: 1, pong: 1 });
    expect(client.counters.framesByType.unsubscribed).toBeUndefined();
    expect(client.counters.framesByType.subscription_updated).toBeUndefined();
  });

  it("/ws/user (multi_wallet): X-User-Wallet binds the acting wallet; without it the close is fatal", async () => {
    mock = await startMock();
    const key = keyOf(mock.scenario, { partner: "partner-multi-entity" });
    const wallet = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const bound = marketClient(mock, { gateway: "user", apiKey: key, userWallet: wallet });
    clients.push(bound);
    expect((await bound.start()).data).toMatchObject({ walletAddress: wallet.toLowerCase() });
    const unbound = marketClient(mock, { gateway: "user", apiKey: key });
    clients.push(unbound);
    await expect(unbound.start()).rejects.toMatchObject({
      code: "api_key_no_associated_wallet",
      closeCode: 4401,
    });
  });
});
