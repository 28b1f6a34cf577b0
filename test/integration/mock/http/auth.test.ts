import { privateKeyToAddress } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address } from "../../../../src/core/types.js";
import { toWei } from "../../../../src/core/wei.js";
import { OrderBuilder } from "../../../../src/signing/order-builder.js";
import { PrivateKeySigner } from "../../../../src/signing/private-key-signer.js";
import { MockHarness, WALLET } from "./harness.js";

/** The spec's Authentication section: every 401/403 code, wallet resolution, KYC, onboarding. */

let h: MockHarness;
beforeAll(async () => {
  h = await MockHarness.start();
});
afterAll(() => h.close());

const UNKNOWN_KEY = "mm_test_0000000000000000_ZS2A_RVQIyZo0QcwFbjXI0VP1uldYHzRqIwwTzj40RU";

describe("Request checks, in order: each refusal", () => {
  const cases: [
    string,
    () => { path: string; key?: string; wallet?: string; xff?: string },
    number,
    string,
  ][] = [
    [
      "missing header on an authenticated endpoint",
      () => ({ path: "/api/me/balances" }),
      401,
      "auth_required",
    ],
    [
      "header of the wrong shape",
      () => ({ path: "/api/me/balances", key: "Bearer abc" }),
      401,
      "api_key_bad_format",
    ],
    ["unknown keyId", () => ({ path: "/api/me/balances", key: UNKNOWN_KEY }), 401, "api_key_unknown_key"],
    [
      "right keyId, wrong secret",
      () => ({ path: "/api/me/balances", key: `${h.keys.trader.slice(0, 25)}${"A".repeat(42)}E` }),
      401,
      "api_key_bad_secret",
    ],
    ["revoked key", () => ({ path: "/api/me/balances", key: h.keys.revoked }), 401, "api_key_revoked"],
    ["expired key", () => ({ path: "/api/me/balances", key: h.keys.expired }), 401, "api_key_expired"],
    [
      "suspended partner",
      () => ({ path: "/api/me/balances", key: h.keys.suspended }),
      401,
      "api_key_suspended",
    ],
    [
      "source IP outside the allowlist",
      () => ({ path: "/api/me/balances", key: h.keys.ipAllow }),
      401,
      "api_key_ip_denied",
    ],
    [
      "single_wallet partner without a wallet",
      () => ({ path: "/api/me/balances", key: h.keys.noWallet }),
      401,
      "api_key_no_associated_wallet",
    ],
    [
      "multi_wallet without X-User-Wallet",
      () => ({ path: "/api/me/balances", key: h.keys.multiKyc }),
      401,
      "api_key_user_wallet_required",
    ],
    [
      "multi_wallet with a malformed X-User-Wallet",
      () => ({ path: "/api/me/balances", key: h.keys.multiKyc, wallet: "0x1234" }),
      401,
      "api_key_user_wallet_invalid",
    ],
    [
      "banned effective wallet",
      () => ({ path: "/api/me/balances", key: h.keys.multiKyc, wallet: WALLET.banned }),
      403,
      "wallet_banned",
    ],
  ];
  it.each(cases)("%s → %i %s", async (_name, req, status, code) => {
    const { path, ...opts } = req();
    const res = await h.fetch(path, opts);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(typeof res.body.message).toBe("string");
  });

  it("missing scope → 403 api_key_scope_missing with requiredScope and have[] (read through the client too)", async () => {
    const body = await h.order(WALLET.mm, "ARG-WIN", { side: "buy", price: "0.1", quantity: "1" });
    const res = await h.fetch("/api/orders/place", { key: h.keys.readOnly, body });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("api_key_scope_missing");
    expect(res.body.details).toEqual({
      requiredScope: "orders:write",
      have: ["events:read", "markets:read", "matches:read", "orders:read", "portfolio:read"],
    });
    const out = await h.client({ key: h.keys.readOnly }).orders.place(body);
    expect(out.kind === "rejected" && out.code).toBe("api_key_scope_missing");
  });

  it("the allowlisted IP passes when the trusted loopback ingress forwards it in X-Forwarded-For", async () => {
    const res = await h.fetch("/api/me/balances", { key: h.keys.ipAllow, xff: "10.11.12.13" });
    expect(res.status).toBe(200);
    expect(res.body.walletAddress).toBe(WALLET.mm);
  });

  it("checks run in the spec's order: a revoked key with a bad wallet header is api_key_revoked", async () => {
    expect((await h.fetch("/api/me/balances", { key: h.keys.revoked, wallet: "nope" })).body.code).toBe(
      "api_key_revoked",
    );
  });

  it("public endpoints work without a key, and validate a key when one is sent", async () => {
    expect((await h.fetch("/api/markets")).status).toBe(200);
    expect((await h.fetch("/api/markets", { key: h.keys.noWallet })).status).toBe(200);
    expect((await h.fetch("/api/markets", { key: h.keys.revoked })).body.code).toBe("api_key_revoked");
  });
});

describe("Partner kinds and the acting wallet", () => {
  it("single_wallet: the associated wallet acts; X-User-Wallet is ignored", async () => {
    const res = await h.fetch("/api/me/balances", { key: h.keys.trader, wallet: WALLET.kyc });
    expect(res.body.walletAddress).toBe(WALLET.mm);
  });

  it("multi_wallet: X-User-Wallet acts, lowercased", async () => {
    const balances = await h
      .client({ key: h.keys.multiKyc, wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" })
      .me.balances();
    expect(balances.walletAddress).toBe(WALLET.kyc);
    expect(balances.available).toBe("50000");
  });
});

describe("KYC for write scopes", () => {
  it("a tier-0 sub-account of a KYC-requiring partner reads but cannot place", async () => {
    expect((await h.fetch("/api/me/balances", { key: h.keys.multiKyc, wallet: WALLET.tier0 })).status).toBe(
      200,
    );
    const body = { marketId: h.market("ARG-WIN").id };
    const res = await h.fetch("/api/orders/place", { key: h.keys.multiKyc, wallet: WALLET.tier0, body });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "forbidden", details: { reason: "kyc_required" } });
    const cancel = await h.fetch("/api/orders/cancel-all", {
      key: h.keys.multiKyc,
      wallet: WALLET.tier0,
      body: {},
    });
    expect(cancel.status).toBe(403);
  });

  it("a tier-1 sub-account of the same partner places", async () => {
    const body = await h.order(WALLET.kyc, "ARG-WIN", { side: "buy", price: "0.1", quantity: "1" });
    const out = await h.client({ key: h.keys.multiKyc, wallet: WALLET.kyc }).orders.place(body);
    expect(out.kind).toBe("accepted");
  });
});

describe("Auto-onboarding (multi_wallet, requirePerWalletKyc false)", () => {
  const key = `0x${"5a".repeat(32)}` as const;
  const wallet = privateKeyToAddress(key).toLowerCase() as Address;

  it("an unseen wallet is onboarded on its first request and can trade after the onboarding delay", async () => {
    const client = h.client({ key: h.keys.multiEntity, wallet });
    expect(await client.me.depositLimits()).toMatchObject({
      single: "100000",
      days30: "100000",
      months12: "100000",
    });
    expect((await client.me.vault()).deployed).toBe(false);
    const m = h.market("ARG-WIN");
    const builder = new OrderBuilder({
      settings: { wallet, maker: "wallet", signatureType: 0, defaultFeeRateBps: 0 },
      domain: h.scenario.eip712,
      signer: new PrivateKeySigner(key),
    });
    const market = {
      marketId: m.id,
      tokenId: m.yesTokenId,
      outcome: "YES",
      feeTakerBps: m.feeTakerBps,
      negRisk: false,
      tickSize: m.tickSize,
    };
    const early = await client.orders.place(
      (await builder.build({ market, side: "buy", price: "0.2", quantity: "5", expiry: 0 })).body,
    );
    expect(early.kind === "rejected" && early.error.details).toMatchObject({ reason: "onboarding" });
    h.clock.advanceBy(h.scenario.timing.onboardingDelayMs);
    expect((await client.me.vault()).deployed).toBe(true);
    h.ctx.venue.credit(wallet, "usdc", toWei("100"));
    const later = await client.orders.place(
      (await builder.build({ market, side: "buy", price: "0.2", quantity: "5", expiry: 0 })).body,
    );
    expect(later.kind === "accepted" && later.result.status).toBe("OPEN");
  });
});
