import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defaultScenarioPath, ScenarioError, validateScenario } from "../../../src/mock/scenario/load.js";

/**
 * README "Scenario files": "`mm mock` validates it and lists every problem as `path: what is
 * wrong` (exit 2)". Every other JSON input of mm refuses unknown keys (config: "Unknown keys are
 * errors"; backtest configs and synthetic scenarios: `bogus: unknown setting`), but the mock's
 * scenario validator never looks at keys it does not know: a misspelt optional key is dropped in
 * silence and the mock behaves as if it were absent. E.g. an API key meant to expire
 * (`expiresAT` for `expiresAt`) never expires, and a market meant to be neg-risk (`negrisk`) is
 * binary, so paper/fault runs test something else than the operator wrote.
 *
 * Reproduce: add `"bogus": 1` at the top of a copy of config/mock/default.json and run
 * `npm run mm -- mock --port 0 --scenario COPY`: it starts (exit code not 2, no error line).
 */
const defaultScenario = (): Record<string, unknown> =>
  JSON.parse(readFileSync(defaultScenarioPath(), "utf8")) as Record<string, unknown>;

function issuesOf(raw: unknown): string[] {
  try {
    validateScenario(raw, "typo.json");
  } catch (err) {
    if (err instanceof ScenarioError) return [...err.issues];
    throw err;
  }
  return [];
}

describe("mock scenario validation (README: lists every problem)", () => {
  it("names a misspelt optional key of an API key (expiresAT for expiresAt) instead of ignoring it", () => {
    const s = defaultScenario();
    const keys = s.apiKeys as Record<string, unknown>[];
    const i = keys.findIndex((k) => k.expiresAt !== undefined);
    expect(i).toBeGreaterThanOrEqual(0);
    const key = keys[i] as Record<string, unknown>;
    key.expiresAT = key.expiresAt;
    delete key.expiresAt;
    expect(issuesOf(s).some((x) => x.includes(`apiKeys[${i}].expiresAT`))).toBe(true);
  });

  it("names an unknown top-level key instead of ignoring it", () => {
    const s = { ...defaultScenario(), bogus: 1 };
    expect(issuesOf(s).some((x) => x.startsWith("bogus"))).toBe(true);
  });
});
