import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load.js";
import { DEFAULT_STRATEGY } from "../../../src/config/schema-engine.js";
import { DEFAULT_RISK_SETTINGS, parseRiskConfig } from "../../../src/risk/config.js";
import { parseStrategyConfig } from "../../../strategies/registry.js";
import { configError, fields, tempDirPerTest } from "./support.js";

const tmp = tempDirPerTest();

const GLFT = {
  name: "glft",
  params: { gamma: 0.1, k: 100, A: 1, sigma: 0.001, maxInventory: 5, orderSize: "10" },
};

describe("trading settings: defaults", () => {
  it("are safe: nothing selected to quote, a small bands strategy, the risk defaults, cancel at start", () => {
    const c = loadConfig({ env: {} });
    expect(c.engine).toEqual({
      markets: [],
      strategy: DEFAULT_STRATEGY,
      strategyByMarket: {},
      priceToleranceTicks: 1,
      sizeTolerance: 0.1,
      session: null,
      marketRecheckMs: 60_000,
      requoteIntervalMs: 1_000,
      strategySlowMs: 50,
    });
    expect(c.risk).toEqual(JSON.parse(JSON.stringify(DEFAULT_RISK_SETTINGS)));
    expect(c.queue).toEqual({ rateLimitPerMin: 600, concurrency: 16, ipLimitFactor: 1 });
    expect(c.reconcile).toEqual({ intervalMs: 30_000, driftSettleMs: 30_000, onStart: "cancel" });
    expect(c.shutdown).toEqual({ timeoutMs: 10_000 });
    // The defaults are what the strategy registry and the risk parser accept.
    expect(parseStrategyConfig(c.engine.strategy).name).toBe("bands");
    expect(parseRiskConfig(c.risk).order.maxSizeMicro).toBe(250_000_000n);
  });
});

describe("trading settings: validation, one line per bad field", () => {
  it("reports every bad strategy parameter as engine.strategy.params.<field>", () => {
    const a = tmp.file("a.json", {
      engine: { strategy: { name: "glft", params: { ...GLFT.params, gamma: -1, k: "x" } } },
    });
    const e = configError(() => loadConfig({ files: [a], env: {} }));
    expect(e.lines()).toEqual([
      `engine.strategy.params.gamma: must be > 0 (in ${a})`,
      `engine.strategy.params.k: must be a finite number (in ${a})`,
    ]);
  });

  it("refuses an unknown strategy name and a per-market entry with bad parameters, naming the slug", () => {
    const a = tmp.file("a.json", {
      engine: {
        strategy: { name: "martingale" },
        strategyByMarket: {
          "will-it-rain": { name: "bands", params: { bands: [{ margin: "0", size: "1" }] } },
        },
      },
    });
    const e = configError(() => loadConfig({ files: [a], env: {} }));
    expect(e.lines()).toEqual([
      `engine.strategy.name: must be one of "bands", "avellaneda-stoikov", "glft" (in ${a})`,
      `engine.strategyByMarket.will-it-rain.params.bands[0].margin: must be > 0 (in ${a})`,
    ]);
  });

  it("reports risk problems as risk.<field>", () => {
    const e = configError(() =>
      loadConfig({
        env: {
          MM_RISK:
            '{"inventory":{"perMarket":{"soft":"300","hard":"200"}},"order":{"maxSize":5,"maxLevels":0}}',
        },
      }),
    );
    expect(e.lines()).toEqual([
      "risk.inventory.perMarket.soft: must be <= hard (from env MM_RISK)",
      "risk.order.maxSize: must be a decimal string with at most 6 decimals, got 5 (from env MM_RISK)",
      "risk.order.maxLevels: must be an integer in [1, 1000], got 0: no quote could ever rest (from env MM_RISK)",
    ]);
  });

  it.each([
    [["*", "a"], 'must be ["*"] alone or a list of slugs, not both'],
    [["a b"], 'has an invalid market slug "a b"'],
    [["a", "a"], "lists a market twice"],
  ])("refuses engine.markets %j", (markets, message) => {
    const a = tmp.file("a.json", { engine: { markets } });
    expect(configError(() => loadConfig({ files: [a], env: {} })).lines()).toEqual([
      `engine.markets: ${message} (in ${a})`,
    ]);
  });

  it("refuses a session tag that would break clientOrderIds, and wrong types of the queue settings", () => {
    const e = configError(() =>
      loadConfig({
        env: {
          MM_ENGINE_SESSION: "Bad-Tag",
          MM_QUEUE_RATE_LIMIT_PER_MIN: "0",
          MM_RECONCILE_ON_START: "keep",
        },
      }),
    );
    expect(fields(e)).toEqual(["engine.session", "queue.rateLimitPerMin", "reconcile.onStart"]);
  });

  it("takes engine.requoteIntervalMs as 0 (off) or 100 ms to an hour, and names it otherwise", () => {
    expect(loadConfig({ env: { MM_ENGINE_REQUOTE_INTERVAL_MS: "0" } }).engine.requoteIntervalMs).toBe(0);
    expect(loadConfig({ env: { MM_ENGINE_REQUOTE_INTERVAL_MS: "250" } }).engine.requoteIntervalMs).toBe(250);
    for (const bad of ["50", "-1", "1.5", "soon", "3600001"]) {
      const e = configError(() => loadConfig({ env: { MM_ENGINE_REQUOTE_INTERVAL_MS: bad } }));
      expect(fields(e)).toEqual(["engine.requoteIntervalMs"]);
    }
  });
});

describe("trading settings: engine.strategySlowMs", () => {
  it("takes an integer ms in [1, 60000], and names it otherwise (exit 2)", () => {
    expect(loadConfig({ env: { MM_ENGINE_STRATEGY_SLOW_MS: "20" } }).engine.strategySlowMs).toBe(20);
    for (const bad of ["0", "-1", "1.5", "slow", "60001"]) {
      const e = configError(() => loadConfig({ env: { MM_ENGINE_STRATEGY_SLOW_MS: bad } }));
      expect(fields(e)).toEqual(["engine.strategySlowMs"]);
    }
  });
});

describe("trading settings: layering", () => {
  it("a later file replaces the strategy whole (no bands parameters leak into glft)", () => {
    const a = tmp.file("a.json", { engine: { strategy: GLFT } });
    expect(loadConfig({ files: [a], env: {} }).engine.strategy).toEqual(GLFT);
  });

  it("per-market strategies merge slug by slug; risk merges key by key; the env wins over files", () => {
    const a = tmp.file("a.json", {
      engine: { strategyByMarket: { x: GLFT, y: DEFAULT_STRATEGY } },
      risk: { order: { maxSize: "100" }, killSwitch: { maxDrawdown: "50" } },
    });
    const b = tmp.file("b.json", {
      engine: { strategyByMarket: { y: GLFT } },
      risk: { order: { oversize: "drop" } },
    });
    const c = loadConfig({ files: [a, b], env: {} });
    expect(c.engine.strategyByMarket).toEqual({ x: GLFT, y: GLFT });
    expect(c.risk.order).toEqual({ maxSize: "100", maxNotional: "250", oversize: "drop", maxLevels: 10 });
    expect(c.risk.killSwitch).toEqual({ maxDrawdown: "50" });
    const env = loadConfig({
      files: [a, b],
      env: { MM_ENGINE_STRATEGY: JSON.stringify(GLFT), MM_RISK: "{}" },
    });
    expect(env.engine.strategy).toEqual(GLFT);
    // MM_RISK replaces the files' whole tree: what it omits takes the defaults, not the files' values.
    expect(env.risk).toEqual(DEFAULT_RISK_SETTINGS);
  });

  it("reads engine.markets from the env as a comma-separated list or a JSON array", () => {
    expect(loadConfig({ env: { MM_ENGINE_MARKETS: "a-b, c" } }).engine.markets).toEqual(["a-b", "c"]);
    expect(loadConfig({ env: { MM_ENGINE_MARKETS: '["*"]' } }).engine.markets).toEqual(["*"]);
    expect(loadConfig({ env: { MM_ENGINE_MARKETS: "" } }).engine.markets).toEqual([]);
  });

  it("refuses a strategy that is not a JSON object in a file", () => {
    const a = tmp.file("a.json", { engine: { strategy: "bands" } });
    expect(configError(() => loadConfig({ files: [a], env: {} })).lines()).toEqual([
      `engine.strategy: must be a JSON object, got string (in ${a})`,
    ]);
  });
});
