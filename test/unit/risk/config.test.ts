import { describe, expect, it } from "vitest";
import { hasCode } from "../../../src/core/errors.js";
import { DEFAULT_RISK_SETTINGS, parseRiskConfig } from "../../../src/risk/config.js";
import { RiskConfigError } from "../../../src/risk/config-reader.js";
import { sh } from "./helpers.js";

function issuesOf(raw: unknown): string[] {
  try {
    parseRiskConfig(raw);
  } catch (e) {
    expect(hasCode(e, "risk_config_invalid")).toBe(true);
    expect(e).toBeInstanceOf(RiskConfigError);
    return (e as RiskConfigError).message.split("\n");
  }
  throw new Error("expected risk_config_invalid");
}

describe("parseRiskConfig", () => {
  it("fills every default when nothing is given, in micro-units", () => {
    const cfg = parseRiskConfig(undefined);
    expect(cfg).toEqual({
      inventory: {
        perMarket: { softMicro: sh(1000), hardMicro: sh(2000) },
        total: { softMicro: sh(10000), hardMicro: sh(20000) },
      },
      order: { maxSizeMicro: sh(250), maxNotionalMicro: sh(250), oversize: "clip", maxLevels: 10 },
      killSwitch: { maxDrawdownMicro: sh(500) },
      errorRate: {
        maxErrors: 10,
        windowMs: 30_000,
        coolDownMs: 60_000,
        ignoreCodes: ["not_cancellable", "order_not_found", "order_id_unknown"],
      },
    });
    expect(parseRiskConfig(DEFAULT_RISK_SETTINGS)).toEqual(cfg);
  });

  it("overlays a partial tree and keeps exact decimals", () => {
    const cfg = parseRiskConfig({
      inventory: { perMarket: { soft: "12.5", hard: "20.000001" } },
      order: { oversize: "drop" },
      errorRate: { ignoreCodes: [] },
    });
    expect(cfg.inventory.perMarket).toEqual({ softMicro: 12_500_000n, hardMicro: 20_000_001n });
    expect(cfg.inventory.total.hardMicro).toBe(sh(20000));
    expect(cfg.order.oversize).toBe("drop");
    expect(cfg.errorRate.ignoreCodes).toEqual([]);
  });

  it("accepts soft equal to hard", () => {
    expect(
      parseRiskConfig({ inventory: { total: { soft: "10", hard: "10" } } }).inventory.total.softMicro,
    ).toBe(sh(10));
  });

  it.each([
    [{ order: { maxSize: 250 } }, "order.maxSize: must be a decimal string with at most 6 decimals, got 250"],
    [
      { order: { maxSize: "1e3" } },
      'order.maxSize: must be a decimal string with at most 6 decimals, got "1e3"',
    ],
    [
      { order: { maxNotional: "0.0000001" } },
      "order.maxNotional: must be a decimal string with at most 6 decimals",
    ],
    [{ order: { maxNotional: "-5" } }, "order.maxNotional: must be a decimal string"],
    [{ killSwitch: { maxDrawdown: "0" } }, "killSwitch.maxDrawdown: must be > 0"],
    [{ order: { oversize: "shrink" } }, 'order.oversize: must be one of clip, drop, got "shrink"'],
    [{ inventory: { perMarket: { soft: "300", hard: "200" } } }, "inventory.perMarket.soft: must be <= hard"],
    [
      { inventory: { perMarkt: {} } },
      "inventory.perMarkt: unknown setting (expected one of perMarket, total)",
    ],
    [{ errorRate: { maxErrors: 1.5 } }, "errorRate.maxErrors: must be an integer in [1, 1000000], got 1.5"],
    [
      { errorRate: { maxErrors: 0 } },
      "errorRate.maxErrors: must be an integer in [1, 1000000], got 0: quoting halts on more than maxErrors errors",
    ],
    [{ errorRate: { windowMs: 0 } }, "errorRate.windowMs: must be an integer in [1000, 86400000], got 0"],
    [
      { errorRate: { coolDownMs: 999 } },
      "errorRate.coolDownMs: must be an integer in [1000, 86400000], got 999",
    ],
    [{ errorRate: { coolDownMs: "60000" } }, "errorRate.coolDownMs: must be an integer"],
    [
      { errorRate: { ignoreCodes: ["ok", ""] } },
      "errorRate.ignoreCodes: must be a list of non-empty strings",
    ],
    [{ order: "big" }, "order: must be an object"],
    [[], "(root): must be an object"],
  ])("rejects %j", (raw, line) => {
    const lines = issuesOf(raw);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(line);
  });

  it("reports every bad field at once, one `field: problem` line each", () => {
    const lines = issuesOf({
      inventory: { total: { soft: "2", hard: "1" } },
      order: { maxSize: 1, oversize: 3 },
      killSwitch: { maxDrawdown: "x", extra: true },
    });
    expect(lines.map((l) => l.split(":")[0])).toEqual([
      "inventory.total.soft",
      "killSwitch.extra",
      "order.maxSize",
      "order.oversize",
      "killSwitch.maxDrawdown",
    ]);
  });
});
