import { describe, expect, it } from "vitest";
import { exceedsDepth, MAX_CONFIG_DEPTH, textDepth } from "../../../src/config/depth.js";
import { loadConfig } from "../../../src/config/load.js";
import { configError, fields, tempDirPerTest } from "./support.js";

// Regressions (found by test/fuzz/config.test.ts): a config file or MM_* value nested a few
// thousand levels deep overflowed the stack in the secret scan or in convict's deep clone, and a
// garbage MM_API_KEY of tens of kB broke the message scrubber: RangeError / SyntaxError, so
// `mm` exited 1 instead of 2. Each is now a ConfigError naming the setting.
const tmp = tempDirPerTest();

const deepArray = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;

describe("deeply nested configuration values", () => {
  it("a file value nested thousands deep is an issue on its setting, known or not", () => {
    for (const deep of [deepArray(10_000), deepObject(100_000)]) {
      const file = tmp.file("deep.json", `{"risk": ${deep}, "exchange": {"baseUrl": ${deep}}, "x": ${deep}}`);
      const err = configError(() => loadConfig({ files: [file], env: {} }));
      expect(fields(err)).toEqual(expect.arrayContaining(["risk", "exchange.baseUrl", "x"]));
      expect(err.message).toContain(`nested more than ${MAX_CONFIG_DEPTH} levels deep`);
    }
  });

  it("a JSON-valued MM_* variable nested thousands deep is an issue on its setting", () => {
    const err = configError(() =>
      loadConfig({ env: { MM_RISK: deepObject(50_000), MM_ENGINE_MARKETS: deepArray(50_000) } }),
    );
    expect(fields(err)).toEqual(expect.arrayContaining(["risk", "engine.markets"]));
  });

  it("real nesting passes: strategies per market are about five levels deep", () => {
    const file = tmp.file("ok.json", {
      engine: {
        strategyByMarket: { m: { name: "bands", params: { bands: [{ margin: "0.01", size: "1" }] } } },
      },
    });
    expect(loadConfig({ files: [file], env: {} }).engine.strategyByMarket.m).toBeDefined();
  });

  it("a garbage MM_API_KEY of tens of kB is a ConfigError like a short one", () => {
    const err = configError(() => loadConfig({ env: { MM_API_KEY: deepObject(20_000) } }));
    expect(fields(err)).toContain("secrets.apiKey");
  });

  it("measures depth without recursion", () => {
    expect(textDepth('{"a":[1,"]]]"],"b":"\\"["}')).toBe(2);
    expect(textDepth(deepArray(1_000_000))).toBe(1_000_000);
    expect(exceedsDepth(JSON.parse(deepArray(200_000)), 32)).toBe(true);
    expect(exceedsDepth({ a: { b: {} } }, 3)).toBe(false);
    expect(exceedsDepth({ a: { b: {} } }, 2)).toBe(true);
  });
});
