import { describe, expect, it } from "vitest";
import { bands } from "../../../strategies/bands.js";
import { StrategyParamsError } from "../../../strategies/params.js";
import {
  configureStrategy,
  getStrategy,
  parseStrategyConfig,
  STRATEGY_NAMES,
} from "../../../strategies/registry.js";
import { book, codeOf, compact, context, issuesOf } from "./helpers.js";

describe("registry", () => {
  it("knows the three strategies by name", () => {
    expect(STRATEGY_NAMES).toEqual(["bands", "avellaneda-stoikov", "glft"]);
    expect(getStrategy("glft")?.name).toBe("glft");
    expect(getStrategy("toString")).toBeUndefined();
  });

  it("binds validated params to a quote function", () => {
    const s = parseStrategyConfig({ name: "bands", params: { bands: [{ margin: "0.02", size: "10" }] } });
    expect(s.name).toBe("bands");
    // mid 0.50 ∓ 0.02 → 0.48 / 0.52
    expect(compact(s.quote(context(book([[0.49, 5]], [[0.51, 5]]))))).toEqual([
      ["buy", 0, 0.48, 10],
      ["sell", 0, 0.52, 10],
    ]);
  });

  it("prefixes params issues with params. and lists them all", () => {
    const raw = { name: "glft", params: { gamma: -1, k: 100, orderSize: "10", A: 1, maxInventory: 2, z: 0 } };
    expect(codeOf(() => parseStrategyConfig(raw))).toBe("strategy_params_invalid");
    expect(issuesOf(() => parseStrategyConfig(raw))).toEqual([
      "params.gamma: must be > 0",
      "params.z: unknown parameter",
    ]);
  });

  it("refuses an unknown name, unknown top-level keys, a non-object params", () => {
    expect(issuesOf(() => parseStrategyConfig({ name: "grid", params: {}, extra: 1 }))).toEqual([
      'name: must be one of "bands", "avellaneda-stoikov", "glft"',
      "extra: unknown parameter",
    ]);
    expect(issuesOf(() => parseStrategyConfig({ name: "bands", params: [] }))).toEqual([
      "params: must be a JSON object",
      "params.bands: must be a non-empty array",
    ]);
    expect(issuesOf(() => parseStrategyConfig(null))).toEqual([
      "strategy: must be a JSON object",
      'name: must be one of "bands", "avellaneda-stoikov", "glft"',
    ]);
  });

  it("the error carries code, strategy and issues, and a readable message", () => {
    try {
      parseStrategyConfig({ name: "avellaneda-stoikov", params: { gamma: 1, k: 1 } });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(StrategyParamsError);
      const e = err as StrategyParamsError;
      expect(e.code).toBe("strategy_params_invalid");
      expect(e.details.strategy).toBe("avellaneda-stoikov");
      expect(e.message).toBe(
        "invalid avellaneda-stoikov parameters:\nparams.orderSize: required (a decimal string)",
      );
    }
  });

  it("configureStrategy binds any strategy; its parser's issues come as they are, without params.", () => {
    const s = configureStrategy(bands, { bands: [{ margin: "0.02", size: "10" }] });
    expect(s.name).toBe("bands");
    expect(compact(s.quote(context(book([[0.49, 5]], [[0.51, 5]]))))).toEqual([
      ["buy", 0, 0.48, 10],
      ["sell", 0, 0.52, 10],
    ]);
    expect(issuesOf(() => configureStrategy(bands, { bands: [], x: 1 }))).toEqual([
      "bands: must be a non-empty array",
      "x: unknown parameter",
    ]);
  });
});
