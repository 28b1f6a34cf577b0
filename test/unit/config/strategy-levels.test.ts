import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load.js";
import { configError, tempDirPerTest } from "./support.js";

const tmp = tempDirPerTest();

/** `n` bands 0.01 apart from 0.01, of 10 shares. */
const bands = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ margin: ((i + 1) / 100).toFixed(2), size: "10" }));

/*
 * risk.order.maxLevels (default 10) drops a side's quotes beyond it on every step. A bands setting
 * with more bands than that (quoted in full before the cap came in) was loaded without a word and
 * its outer bands never quoted, the only sign an `invalid_quote` line per token once the bot ran.
 * The contradiction is in the config alone: refused at load, naming the bands and the cap.
 */
describe("config: a strategy asking for more levels per side than risk.order.maxLevels", () => {
  it("refuses engine.strategy and a per-market entry with more bands than the cap, naming each", () => {
    const a = tmp.file("a.json", {
      engine: {
        strategy: { name: "bands", params: { bands: bands(12) } },
        strategyByMarket: { "will-it-rain": { name: "bands", params: { bands: bands(4) } } },
      },
      risk: { order: { maxLevels: 3 } },
    });
    const lines = configError(() => loadConfig({ files: [a], env: {} })).lines();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^engine\.strategy\.params\.bands: has 12 levels per side, more than risk\.order\.maxLevels \(3\): the risk guard would drop the 9 farthest/,
    );
    expect(lines[1]).toMatch(/^engine\.strategyByMarket\.will-it-rain\.params\.bands: has 4 levels per side/);
  });

  it("takes the default cap of 10, and accepts as many bands as the cap", () => {
    const eleven = tmp.file("a.json", {
      engine: { strategy: { name: "bands", params: { bands: bands(11) } } },
    });
    expect(configError(() => loadConfig({ files: [eleven], env: {} })).lines()[0]).toMatch(
      /bands: has 11 levels per side, more than risk\.order\.maxLevels \(10\)/,
    );
    const ten = tmp.file("b.json", { engine: { strategy: { name: "bands", params: { bands: bands(10) } } } });
    expect(loadConfig({ files: [ten], env: {} }).engine.strategy.name).toBe("bands");
    const raised = tmp.file("c.json", {
      engine: { strategy: { name: "bands", params: { bands: bands(11) } } },
      risk: { order: { maxLevels: 11 } },
    });
    expect(loadConfig({ files: [raised], env: {} }).risk.order).toMatchObject({ maxLevels: 11 });
  });
});
