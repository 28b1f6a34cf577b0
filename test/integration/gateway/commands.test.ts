import { afterEach, describe, expect, it } from "vitest";
import type { GatewayClient } from "../../../src/gateway/client.js";
import { GatewayError } from "../../../src/gateway/errors.js";
import type { ChannelEvent } from "../../../src/gateway/schema/events.js";
import { type Mock, market, marketClient, place, startMock, until } from "./harness.js";

let mock: Mock;
let client: GatewayClient;
afterEach(async () => {
  await client?.close();
  await mock?.close();
});

describe("gateway client: connection and commands against the mock", () => {
  it("reads the connected frame (protocolVersion 2) and runs every command with typed results", async () => {
    mock = await startMock();
    client = marketClient(mock);
    const info = await client.start();
    expect(info).toMatchObject({
      gateway: "market",
      authMethod: "api_key",
      protocolVersion: 2,
      partnerId: "partner-mm",
    });

    const m = market(mock);
    place(mock, { marketId: m.id, side: "buy", price: "0.40", qty: "5" });
    const events: ChannelEvent[] = [];
    client.onEvent((e) => events.push(e));
    const out = await client.subscribe("token_book", [m.yesTokenId]);
    expect(out).toEqual({ accepted: [m.yesTokenId], rejected: [] });
    await until(() => events.some((e) => e.type === "book_snapshot"), "the snapshot after subscribe");

    const pong = await client.ping();
    expect(pong.serverTs).toBe(mock.clock.now());
    expect(pong.rttMs).toBe(0); // SimClock: time does not move by itself

    const [list] = await client.listSubscriptions();
    expect(list?.subscriptions).toEqual([
      { sid: expect.any(Number), channel: "token_book", ids: [m.yesTokenId] },
    ]);

    const ack = await client.getBookSnapshot(m.yesTokenId);
    expect(ack).toEqual({ sid: list?.subscriptions[0]?.sid, tokenId: m.yesTokenId });
    await until(
      () => events.filter((e) => e.type === "book_snapshot").length === 2,
      "the requested snapshot",
    );

    // update_subscription (add) then unsubscribe as the layout changes.
    await client.subscribe("token_book", [m.noTokenId]);
    const [after] = await client.listSubscriptions();
    expect(after?.subscriptions).toHaveLength(1);
    expect([...(after?.subscriptions[0]?.ids ?? [])].sort()).toEqual([m.noTokenId, m.yesTokenId].sort());
    await client.unsubscribe("token_book", [m.yesTokenId, m.noTokenId]);
    const [empty] = await client.listSubscriptions();
    expect(empty?.subscriptions).toEqual([]);
    expect(client.counters.framesByType).toMatchObject({
      connected: 1,
      subscribed: 1,
      subscription_updated: 1,
      unsubscribed: 1,
      pong: 1,
      book_snapshot_requested: 1,
    });
    expect(client.counters.malformed).toEqual({});
  });

  it("surfaces rejections with their codes: error frames, refused subscriptions, local id checks", async () => {
    mock = await startMock();
    client = marketClient(mock);
    await client.start();
    // A token not subscribed: refused before anything is sent.
    const m = market(mock);
    const err = await client.getBookSnapshot(m.yesTokenId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ code: "not_subscribed" });
    expect(client.requestBookSnapshot(m.yesTokenId)).toBe(false);
    expect(client.counters.snapshotRequestsUnsent).toBe(1);

    // condition_lifecycle with a malformed id: refused locally, never sent.
    const local = await client.subscribe("condition_lifecycle", ["0xnot-a-condition"]);
    expect(local.rejected).toEqual([
      {
        channel: "condition_lifecycle",
        ids: ["0xnot-a-condition"],
        code: "invalid_params",
        message: "malformed id",
      },
    ]);
    // A private channel on /ws/market: a client-side error (wrong gateway).
    await expect(client.subscribe("user_fills")).rejects.toMatchObject({ code: "wrong_gateway" });
    // system with its one id works and pushes the current platform status.
    const sys = await client.subscribe("system", ["platform_status"]);
    expect(sys.accepted).toEqual(["platform_status"]);
    await until(() => client.counters.framesByType.platform_status === 1, "the platform status push");
    expect(client.counters.commandRejections).toBe(0);
  });
});
