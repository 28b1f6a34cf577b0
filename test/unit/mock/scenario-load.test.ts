import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  defaultScenarioPath,
  loadScenario,
  ScenarioError,
  validateScenario,
} from "../../../src/mock/scenario/load.js";

const raw = () => JSON.parse(readFileSync(defaultScenarioPath(), "utf8")) as Record<string, unknown>;

describe("scenario", () => {
  it("the shipped default scenario loads, with the spec's partner kinds, a neg-risk event and lowercase addresses", () => {
    const s = loadScenario(defaultScenarioPath());
    expect(s.partners.map((p) => `${p.kind}:${p.requirePerWalletKyc}:${p.status}`)).toEqual(
      expect.arrayContaining([
        "single_wallet:true:active",
        "multi_wallet:true:active",
        "multi_wallet:false:active",
        "single_wallet:true:suspended",
      ]),
    );
    expect(s.events.some((e) => e.negRisk)).toBe(true);
    expect(s.markets.filter((m) => m.negRisk).length).toBeGreaterThan(1);
    expect(s.markets.some((m) => m.status !== "OPEN")).toBe(true);
    for (const w of s.wallets) expect(w.address).toBe(w.address.toLowerCase());
    expect(s.eip712.exchangeContract).not.toBe(s.eip712.negRiskExchangeContract);
  });

  it("lists every problem with its path", () => {
    const s = raw();
    s.seed = "x";
    (s.partners as Record<string, unknown>[])[0] = { ...(s.partners as object[])[0], kind: "family" };
    (s.apiKeys as Record<string, unknown>[])[0] = { ...(s.apiKeys as object[])[0], partnerId: "nobody" };
    (s.markets as Record<string, unknown>[])[0] = { ...(s.markets as object[])[0], tickSize: "0.0000001" };
    (s.wallets as Record<string, unknown>[])[1] = {
      ...(s.wallets as object[])[1],
      privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    };
    let err: ScenarioError | undefined;
    try {
      validateScenario(s, "test.json");
    } catch (e) {
      err = e as ScenarioError;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    expect(err?.code).toBe("scenario_invalid");
    const text = err?.issues.join("\n") ?? "";
    expect(err?.issues).toHaveLength(5);
    expect(text).toContain("seed: must be an integer");
    expect(text).toContain("partners[0].kind");
    expect(text).toContain("apiKeys[0].partnerId: unknown partner nobody");
    expect(text).toContain("markets[0].tickSize");
    expect(text).toContain("wallets[1].privateKey: does not belong to address");
  });

  it("refuses unreadable JSON with a one-line reason", () => {
    expect(() => loadScenario("/nonexistent/scenario.json")).toThrow(ScenarioError);
  });
});
