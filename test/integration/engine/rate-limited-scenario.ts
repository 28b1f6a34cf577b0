import { defaultScenarioPath, loadScenario } from "../../../src/mock/scenario/load.js";
import type { Scenario } from "../../../src/mock/scenario/types.js";

/** The default mock scenario with the market maker's partner key at `rateLimitPerMin`. */
export function rateLimitedScenario(rateLimitPerMin: number): Scenario {
  const base = loadScenario(defaultScenarioPath());
  return {
    ...base,
    partners: base.partners.map((p) => (p.id === "partner-mm" ? { ...p, rateLimitPerMin } : p)),
  };
}
