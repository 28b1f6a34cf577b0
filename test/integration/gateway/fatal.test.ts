import { afterEach, describe, expect, it } from "vitest";
import type { GatewayClient } from "../../../src/gateway/client.js";
import { GatewayFatalError } from "../../../src/gateway/errors.js";
import { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import { keyIdOf, keyOf, type Mock, market, marketClient, settle, startMock, until } from "./harness.js";

let mock: Mock;
let client: GatewayClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await mock?.close();
});

/** Lets a minute of SimClock time pass in steps (back-off timers would fire) and the sockets run. */
async function aMinuteLater(): Promise<void> {
  for (let i = 0; i < 60; i++) {
    mock.clock.advanceBy(1_000);
    await settle(2);
  }
}

describe("fatal closes stop the client: typed error, no reconnect loop", () => {
  const live: [string, (m: Mock) => void][] = [
    ["api_key_revoked", (m) => m.admin.revokeKey(keyIdOf(m.key))],
    ["api_key_expired", (m) => m.admin.expireKey(keyIdOf(m.key))],
    ["api_key_suspended", (m) => m.admin.suspendPartner("partner-mm")],
  ];
  for (const [reason, inject] of live) {
    it(`4401 ${reason} on live sockets (two links): one onFatal, books resyncing, nothing reopened`, async () => {
      mock = await startMock();
      client = marketClient(mock, { limits: { maxSubscriptionsPerConnection: 1 } });
      const feed = new MarketDataFeed({ client, clock: mock.clock });
      const fatals: GatewayFatalError[] = [];
      client.onFatal((e) => fatals.push(e));
      await feed.start();
      const m = market(mock);
      await feed.subscribeBooks([m.yesTokenId]);
      await client.subscribe("token_trade_matches", [m.yesTokenId]); // lands on a second link
      expect(mock.gateways.openSockets()).toBe(2);
      await until(() => feed.tracker.state(m.yesTokenId)?.status === "synced", "the book synced");

      inject(mock);
      await until(() => fatals.length > 0, "the fatal error");
      await aMinuteLater();
      expect(fatals).toHaveLength(1);
      const err = fatals[0];
      expect(err).toBeInstanceOf(GatewayFatalError);
      expect(err).toMatchObject({ code: reason, closeCode: 4401, gateway: "market" });
      expect(client.fatal).toBe(err);
      expect(client.counters).toMatchObject({
        connectAttempts: 2,
        connectionsOpen: 0,
        fatal: 1,
        reconnects: 0,
      });
      expect(client.linkStates()).toEqual(["fatal", "fatal"]);
      expect(mock.gateways.openSockets()).toBe(0);
      expect(feed.tracker.state(m.yesTokenId)?.status).toBe("resyncing");
      await expect(client.subscribe("token_book", [m.noTokenId])).rejects.toBe(err);
      await feed.close();
    });
  }

  const atConnect: [string, (m: Mock) => string][] = [
    ["api_key_revoked", (m) => keyOf(m.scenario, { partner: "partner-mm", revoked: true })],
    ["api_key_expired", (m) => keyOf(m.scenario, { partner: "partner-mm", expires: true })],
    ["api_key_suspended", (m) => keyOf(m.scenario, { partner: "partner-suspended" })],
    ["api_key_ip_denied", (m) => keyOf(m.scenario, { partner: "partner-mm", allowlisted: true })],
    ["api_key_unknown_key", (m) => m.key.replace(keyIdOf(m.key), "0123456789abcdef")],
    ["api_key_bad_secret", (m) => `${m.key.slice(0, -4)}AAAA`],
    ["api_key_bad_format", () => "not-a-key"],
  ];
  for (const [reason, key] of atConnect) {
    it(`4401 ${reason} at connect: start() rejects with it, one attempt only`, async () => {
      mock = await startMock();
      client = marketClient(mock, { apiKey: key(mock) });
      const fatals: GatewayFatalError[] = [];
      client.onFatal((e) => fatals.push(e));
      const err = await client.start().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GatewayFatalError);
      expect(err).toMatchObject({ code: reason, closeCode: 4401 });
      await aMinuteLater();
      expect(fatals).toEqual([err]);
      expect(client.counters).toMatchObject({ connectAttempts: 1, connectionsOpened: 0, fatal: 1 });
    });
  }

  it("1008 for an Origin outside the allowlist is fatal (forbidden_origin)", async () => {
    mock = await startMock();
    client = marketClient(mock, { origin: "https://evil.example" });
    const err = await client.start().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayFatalError);
    expect(err).toMatchObject({ code: "forbidden_origin", closeCode: 1008 });
    await aMinuteLater();
    expect(client.counters.connectAttempts).toBe(1);
  });

  it("an allowed Origin connects", async () => {
    mock = await startMock({ allowedOrigins: ["https://app.example"] });
    client = marketClient(mock, { origin: "https://app.example" });
    await expect(client.start()).resolves.toMatchObject({ protocolVersion: 2 });
  });

  it("the error never carries the key", async () => {
    mock = await startMock();
    const secretKey = keyOf(mock.scenario, { partner: "partner-mm", revoked: true });
    client = marketClient(mock, { apiKey: secretKey });
    const err = (await client.start().catch((e: unknown) => e)) as GatewayFatalError;
    const text = JSON.stringify(err.toJSON()) + err.message + String(err.stack);
    expect(text).not.toContain(secretKey.split("_").slice(3).join("_"));
  });
});
