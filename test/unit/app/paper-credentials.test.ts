import { describe, expect, it } from "vitest";
import { paperCredentials } from "../../../src/app/paper-credentials.js";
import type { Scenario, WalletScenario } from "../../../src/mock/scenario/types.js";
import { API_KEY, PRIVATE_KEY, SCENARIO, WALLET } from "../../integration/daemon/support.js";
import { configError } from "../config/support.js";

const NOW = Date.parse("2026-04-01T00:00:00.000Z");

/** The default scenario with its first wallet changed. */
function firstWallet(change: (w: WalletScenario) => WalletScenario): Scenario {
  return { ...SCENARIO, wallets: SCENARIO.wallets.map((w, i) => (i === 0 ? change(w) : w)) };
}

/** The default scenario whose paper key (apiKeys[0]) expires at `expiresAt`. */
function paperKeyExpiring(expiresAt: string): Scenario {
  const [first, ...rest] = SCENARIO.apiKeys;
  return { ...SCENARIO, apiKeys: [{ ...(first as Scenario["apiKeys"][number]), expiresAt }, ...rest] };
}

const messageOf = (s: Scenario, now = NOW): string => {
  const err = configError(() => paperCredentials(s, now));
  expect(err.issues.every((i) => i.field === "scenario")).toBe(true);
  return err.lines().join("\n");
};

describe("paperCredentials", () => {
  it("gives the default scenario's first wallet, its key and its partner's writing key", () => {
    expect(paperCredentials(SCENARIO, NOW)).toEqual({
      wallet: WALLET,
      privateKey: PRIVATE_KEY,
      apiKey: API_KEY,
    });
  });

  it("takes a key until its expiresAt, as the mock does (expired at that very millisecond)", () => {
    const at = "2026-04-01T00:00:00.001Z";
    expect(paperCredentials(paperKeyExpiring(at), NOW).apiKey).toBe(API_KEY);
    expect(messageOf(paperKeyExpiring(at), NOW + 1)).toContain(`apiKeys[0]: expired (${at})`);
  });

  it.each([
    ["no privateKey", withoutKey, "which has no privateKey"],
    ["banned", (w: WalletScenario) => ({ ...w, banned: true }), "which is banned"],
    [
      "KYC tier 0",
      (w: WalletScenario) => ({ ...w, kycTier: 0 }),
      "which has kycTier 0 (placing orders needs 1 or more)",
    ],
  ])("refuses a first wallet with %s", (_, change, why) => {
    expect(messageOf(firstWallet(change))).toBe(
      `scenario: paper mode signs as the first wallet ${WALLET}, ${why}`,
    );
  });

  it("passes over a writing key that lacks a read scope the bot uses (orders:read, portfolio:read)", () => {
    const [first, ...rest] = SCENARIO.apiKeys;
    const key = first as Scenario["apiKeys"][number];
    const writeOnly = { ...key, scopes: key.scopes.filter((s) => s !== "portfolio:read") };
    const s: Scenario = { ...SCENARIO, apiKeys: [writeOnly, ...rest] };
    expect(messageOf(s)).toContain("apiKeys[0]: lacks portfolio:read");
    // A second key of the same partner with every scope is taken instead.
    const full = { ...key, key: `${key.key.slice(0, -4)}ffff` };
    expect(paperCredentials({ ...s, apiKeys: [writeOnly, full, ...rest] }, NOW).apiKey).toBe(full.key);
  });

  it("refuses a scenario without wallets, or without a writing key", () => {
    expect(messageOf({ ...SCENARIO, wallets: [] })).toBe(
      "scenario: paper mode signs as the scenario's first wallet, and wallets is empty",
    );
    const readOnly = {
      ...SCENARIO,
      apiKeys: SCENARIO.apiKeys.filter((k) => !k.scopes.includes("orders:write")),
    };
    expect(messageOf(readOnly)).toContain("no API key has orders:write");
  });
});

function withoutKey(w: WalletScenario): WalletScenario {
  const { privateKey: _, ...rest } = w;
  return rest;
}
