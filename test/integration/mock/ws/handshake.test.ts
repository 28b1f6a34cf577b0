import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vaultOf } from "../../../../src/mock/vault.js";
import { connect, KEYS, MM_WALLET, type Mock, OTHER_WALLET, startMock, TestSocket } from "./helpers.js";

const BANNED_WALLET = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
const secret = (fill: number) => Buffer.alloc(32, fill).toString("base64url");

let mock: Mock;
beforeAll(async () => {
  mock = await startMock({ allowedOrigins: ["https://dashboard.example"] });
});
afterAll(async () => {
  await mock.close();
});

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

describe("WebSocket authentication: handshake failures close with 4401 <reason>", () => {
  const cases: {
    name: string;
    path: string;
    headers?: Record<string, string>;
    query?: Record<string, string>;
    reason: string;
  }[] = [
    { name: "no key at all (mock's choice: auth_required)", path: "/ws/market", reason: "auth_required" },
    {
      name: "malformed key",
      path: "/ws/market",
      headers: { "X-Api-Key": "not-a-key" },
      reason: "api_key_bad_format",
    },
    {
      name: "well-formed key with an unknown keyId",
      path: "/ws/market",
      headers: { "X-Api-Key": `mm_test_0123456789abcdef_${secret(1)}` },
      reason: "api_key_unknown_key",
    },
    {
      name: "known keyId, wrong secret",
      path: "/ws/market",
      headers: { "X-Api-Key": `mm_test_ba9533dcb8d806b6_${secret(2)}` },
      reason: "api_key_bad_secret",
    },
    {
      name: "revoked key",
      path: "/ws/market",
      headers: { "X-Api-Key": KEYS.revoked },
      reason: "api_key_revoked",
    },
    {
      name: "expired key",
      path: "/ws/market",
      headers: { "X-Api-Key": KEYS.expired },
      reason: "api_key_expired",
    },
    {
      name: "suspended partner",
      path: "/ws/market",
      headers: { "X-Api-Key": KEYS.suspended },
      reason: "api_key_suspended",
    },
    {
      name: "source IP outside the key's allowlist",
      path: "/ws/market",
      headers: { "X-Api-Key": KEYS.ipAllowlisted },
      reason: "api_key_ip_denied",
    },
    {
      name: "bad key by query parameter",
      path: "/ws/market",
      query: { key: "mm_test_zz" },
      reason: "api_key_bad_format",
    },
    {
      name: "single_wallet partner without an associated wallet on /ws/user",
      path: "/ws/user",
      headers: { "X-Api-Key": KEYS.noWallet },
      reason: "api_key_no_associated_wallet",
    },
    {
      name: "multi_wallet without X-User-Wallet / user_wallet on /ws/user",
      path: "/ws/user",
      headers: { "X-Api-Key": KEYS.multiKyc },
      reason: "api_key_no_associated_wallet",
    },
    {
      name: "X-User-Wallet not 0x + 40 hex",
      path: "/ws/user",
      headers: { "X-Api-Key": KEYS.multiKyc, "X-User-Wallet": "0x1234" },
      reason: "api_key_user_wallet_invalid",
    },
    {
      name: "user_wallet query not 0x + 40 hex",
      path: "/ws/user",
      headers: { "X-Api-Key": KEYS.multiKyc },
      query: { user_wallet: `0x${"z".repeat(40)}` },
      reason: "api_key_user_wallet_invalid",
    },
    {
      name: "banned acting wallet (mock's choice: wallet_banned)",
      path: "/ws/user",
      headers: { "X-Api-Key": KEYS.multiKyc, "X-User-Wallet": BANNED_WALLET },
      reason: "wallet_banned",
    },
  ];
  it.each(cases)("$name → 4401 $reason", async (c) => {
    const s = new TestSocket(
      `${mock.wsUrl}${c.path}${c.query === undefined ? "" : q(c.query)}`,
      c.headers ?? {},
    );
    expect(await s.closed).toEqual({ code: 4401, reason: c.reason });
    expect(s.frames).toEqual([]);
  });
});

describe("WebSocket authentication: accepted handshakes", () => {
  const cases: {
    name: string;
    path: string;
    headers?: Record<string, string>;
    query?: Record<string, string>;
    wallet?: string;
  }[] = [
    {
      name: "key by X-Api-Key header on /ws/market",
      path: "/ws/market",
      headers: { "X-Api-Key": KEYS.full },
    },
    { name: "key by key= query on /ws/market", path: "/ws/market", query: { key: KEYS.full } },
    {
      name: "/ws/market needs no wallet, even for a partner without one",
      path: "/ws/market",
      headers: { "X-Api-Key": KEYS.noWallet },
    },
    {
      name: "any active key on /ws/market, no scope needed",
      path: "/ws/market",
      headers: { "X-Api-Key": KEYS.marketsOnly },
    },
    {
      name: "single_wallet on /ws/user binds the associated wallet",
      path: "/ws/user",
      headers: { "X-Api-Key": KEYS.full },
      wallet: MM_WALLET,
    },
    {
      name: "multi_wallet: key header + wallet header",
      path: "/ws/user",
      headers: { "X-Api-Key": KEYS.multiKyc, "X-User-Wallet": OTHER_WALLET },
      wallet: OTHER_WALLET,
    },
    {
      name: "multi_wallet: key header + user_wallet query (mixed forms)",
      path: "/ws/user",
      headers: { "X-Api-Key": KEYS.multiKyc },
      query: { user_wallet: OTHER_WALLET },
      wallet: OTHER_WALLET,
    },
    {
      name: "multi_wallet: key query + wallet header (mixed forms)",
      path: "/ws/user",
      headers: { "X-User-Wallet": OTHER_WALLET },
      query: { key: KEYS.multiKyc },
      wallet: OTHER_WALLET,
    },
    {
      name: "multi_wallet: key and wallet both by query; checksummed wallet lowercased",
      path: "/ws/user",
      query: { key: KEYS.multiKyc, user_wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
      wallet: OTHER_WALLET,
    },
    {
      name: "IP allowlist satisfied through X-Forwarded-For from the loopback ingress",
      path: "/ws/market",
      headers: { "X-Api-Key": KEYS.ipAllowlisted, "X-Forwarded-For": "10.11.12.13" },
    },
    {
      name: "an allowlisted Origin",
      path: "/ws/market",
      headers: { "X-Api-Key": KEYS.full, Origin: "https://dashboard.example" },
    },
  ];
  it.each(cases)("$name", async (c) => {
    const s = await connect(
      `${mock.wsUrl}${c.path}${c.query === undefined ? "" : q(c.query)}`,
      c.headers ?? {},
    );
    const connected = s.frames[0];
    expect(connected?.type).toBe("connected");
    if (c.wallet !== undefined) {
      expect(connected?.data.walletAddress).toBe(c.wallet);
      expect(connected?.data.vaultAddress).toBe(vaultOf(c.wallet as `0x${string}`));
    }
    s.close();
  });
});

describe("connected frame", () => {
  it("/ws/market: exactly gateway, authMethod, protocolVersion 2, partnerId", async () => {
    const s = await connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });
    expect(s.frames).toHaveLength(1);
    expect(s.frames[0]?.data).toEqual({
      gateway: "market",
      authMethod: "api_key",
      protocolVersion: 2,
      partnerId: "partner-mm",
    });
    expect(s.frames[0]?.serverTs).toBe(mock.clock.now());
    s.close();
  });

  it("/ws/user: the same fields with gateway user, plus the bound wallet and its vault", async () => {
    const s = await connect(`${mock.wsUrl}/ws/user`, { "X-Api-Key": KEYS.full });
    expect(s.frames[0]?.data).toEqual({
      gateway: "user",
      authMethod: "api_key",
      protocolVersion: 2,
      partnerId: "partner-mm",
      walletAddress: MM_WALLET,
      vaultAddress: vaultOf(MM_WALLET),
    });
    s.close();
  });
});

describe("Origin allowlist", () => {
  it("closes 1008 forbidden origin for an Origin not on the allowlist, before any auth", async () => {
    const s = new TestSocket(`${mock.wsUrl}/ws/market`, {
      "X-Api-Key": KEYS.full,
      Origin: "https://evil.example",
    });
    expect(await s.closed).toEqual({ code: 1008, reason: "forbidden origin" });
    const noKey = new TestSocket(`${mock.wsUrl}/ws/user`, { Origin: "https://evil.example" });
    expect(await noKey.closed).toEqual({ code: 1008, reason: "forbidden origin" });
  });

  it("with no allowlist configured, any browser Origin is refused and server-side clients pass", async () => {
    const strict = await startMock();
    try {
      const browser = new TestSocket(`${strict.wsUrl}/ws/market`, {
        "X-Api-Key": KEYS.full,
        Origin: "https://dashboard.example",
      });
      expect((await browser.closed).code).toBe(1008);
      (await connect(`${strict.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full })).close();
    } finally {
      await strict.close();
    }
  });
});

describe("paths", () => {
  it("an upgrade on any other path is refused with HTTP 404", async () => {
    const s = new TestSocket(`${mock.wsUrl}/ws/other`, { "X-Api-Key": KEYS.full });
    const err = await new Promise<Error>((resolve) => s.ws.once("error", resolve));
    expect(err.message).toContain("404");
  });
});
