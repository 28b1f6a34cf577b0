import { describe, expect, it } from "vitest";
import { paperCredentials } from "../../../src/app/paper-credentials.js";
import type { ApiKeyScenario, Scenario } from "../../../src/mock/scenario/types.js";
import { SCENARIO } from "../../integration/daemon/support.js";
import { configError } from "../config/support.js";

const NOW = Date.parse("2026-04-01T00:00:00.000Z");
const PAPER = SCENARIO.apiKeys[0] as ApiKeyScenario;

/** A copy of the paper key (same partner, scopes) with its own key string and expiry. */
function variant(tag: string, expiresAt: string | undefined): ApiKeyScenario {
  const { expiresAt: _, ...rest } = PAPER;
  const key = `${PAPER.key.slice(0, -4)}${tag}`;
  return expiresAt === undefined ? { ...rest, key } : { ...rest, key, expiresAt };
}

/** The default scenario with `keys` in front of its other keys (the paper key left out). */
function withKeys(...keys: ApiKeyScenario[]): Scenario {
  return { ...SCENARIO, apiKeys: [...keys, ...SCENARIO.apiKeys.slice(1)] };
}

const IN_5_MIN = new Date(NOW + 5 * 60_000).toISOString();
const IN_1_DAY = new Date(NOW + 86_400_000).toISOString();
const IN_1_YEAR = new Date(NOW + 365 * 86_400_000).toISOString();

describe("paperCredentials: which of several fitting keys", () => {
  it("prefers a fitting key that never expires to one listed before it that expires during the run", () => {
    const soon = variant("aaaa", IN_5_MIN);
    const never = variant("bbbb", undefined);
    expect(paperCredentials(withKeys(soon, never), NOW).apiKey).toBe(never.key);
  });

  it("among expiring keys only, takes the one that expires last", () => {
    const day = variant("aaaa", IN_1_DAY);
    const year = variant("bbbb", IN_1_YEAR);
    const soon = variant("cccc", IN_5_MIN);
    expect(paperCredentials(withKeys(day, year, soon), NOW).apiKey).toBe(year.key);
  });

  it("keeps the listed order between keys that are equally good (the first of two that never expire)", () => {
    const a = variant("aaaa", undefined);
    const b = variant("bbbb", undefined);
    expect(paperCredentials(withKeys(a, b), NOW).apiKey).toBe(a.key);
  });

  it("never takes an expired or unfitting key, however late it expires; none fitting is still a ConfigError", () => {
    const expired = variant("aaaa", new Date(NOW - 1).toISOString());
    const revoked = { ...variant("bbbb", undefined), revoked: true };
    const ok = variant("cccc", IN_5_MIN);
    expect(paperCredentials(withKeys(expired, revoked, ok), NOW).apiKey).toBe(ok.key);
    const err = configError(() => paperCredentials(withKeys(expired, revoked), NOW));
    const text = err.lines().join("\n");
    expect(text).toContain("apiKeys[0]: expired");
    expect(text).toContain("apiKeys[1]: revoked");
  });
});
