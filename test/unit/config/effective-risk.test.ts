import { describe, expect, it } from "vitest";
import { configCommand } from "../../../src/cli/config.js";
import { loadConfig } from "../../../src/config/load.js";
import { DEFAULT_RISK_SETTINGS, parseRiskConfig, withRiskDefaults } from "../../../src/risk/config.js";
import { tempDirPerTest } from "./support.js";

/**
 * `mm config` "shows what is in force" (README). MM_RISK replaces the whole risk tree and the limits
 * it omits take their defaults, so a file's tighter kill switch goes back to 500 USDC: exactly what
 * an operator runs `mm config` to see. It printed the variable's partial tree, with no killSwitch at
 * all (review 16); the loaded risk tree now has every limit the daemon applies.
 */
describe("mm config shows the risk limits in force", () => {
  const tmp = tempDirPerTest();

  it("MM_RISK with only order.maxSize: mm config shows the kill switch and caps that apply", async () => {
    const file = tmp.file("live.json", { risk: { killSwitch: { maxDrawdown: "100" } } });
    const out: string[] = [];
    const io = {
      stdout: (t: string) => out.push(t),
      stderr: () => undefined,
      env: { MM_RISK: '{"order":{"maxSize":"5"}}' },
      cwd: tmp.dir,
    };
    expect(await configCommand.run(["--config", file], io)).toBe(0);
    const risk = JSON.parse(out.join("")).risk;
    expect(risk.order.maxSize).toBe("5");
    // In force (parseRiskConfig of MM_RISK): the default 500, not the file's 100, and not absent.
    expect(risk.killSwitch?.maxDrawdown).toBe("500");
    expect(risk.inventory?.perMarket?.hard).toBe("2000");
    expect(risk.order.maxNotional).toBe("250");
  });

  it("the loaded tree parses to the same limits as MM_RISK's own tree", () => {
    const set = { order: { maxSize: "5" }, errorRate: { ignoreCodes: [] } };
    const config = loadConfig({ env: { MM_RISK: JSON.stringify(set) } });
    expect(parseRiskConfig(config.risk)).toEqual(parseRiskConfig(set));
    expect(config.risk.killSwitch).toEqual({ maxDrawdown: "500" });
    // An array replaces the default's: [] counts every error code.
    expect((config.risk.errorRate as { ignoreCodes: unknown }).ignoreCodes).toEqual([]);
  });
});

describe("withRiskDefaults", () => {
  it("fills every omitted limit with its default and keeps the values as written", () => {
    const filled = withRiskDefaults({
      inventory: { total: { hard: "30000.5" } },
      order: { oversize: "drop" },
    });
    expect(filled).toEqual({
      ...DEFAULT_RISK_SETTINGS,
      inventory: { ...DEFAULT_RISK_SETTINGS.inventory, total: { soft: "10000", hard: "30000.5" } },
      order: { ...DEFAULT_RISK_SETTINGS.order, oversize: "drop" },
    });
  });

  it("an empty tree is the defaults, parsed alike; the defaults are not shared", () => {
    const filled = withRiskDefaults({});
    expect(filled).toEqual(DEFAULT_RISK_SETTINGS);
    expect(parseRiskConfig(filled)).toEqual(parseRiskConfig({}));
    (filled.errorRate as { ignoreCodes: string[] }).ignoreCodes.push("x");
    expect(DEFAULT_RISK_SETTINGS.errorRate.ignoreCodes).not.toContain("x");
  });
});
