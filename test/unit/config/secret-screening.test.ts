import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load.js";
import { secretShape } from "../../../src/config/secret-shapes.js";
import { configError, fields, PRIVATE_KEY, tempDirPerTest } from "./support.js";

const tmp = tempDirPerTest();

/** Lowercase kebab-case, as the exchange's slugs are, and exactly as long as a bare API key secret. */
const SLUG_43 = "will-the-fed-cut-interest-rates-in-sept-202";
/** A bare API key secret's shape: 43 base64url characters (a fixed one, not a real key). */
const BARE_SECRET = "Qx7_kZ2-mN8pL4vR9tY1wE6uI3oA5sD0fG-hJ_cB2nM";
const HEX = PRIVATE_KEY.slice(2);

describe("a 43-character market slug is not a secret", () => {
  it("is not shaped like an API key, while a bare secret of the same length is", () => {
    expect(SLUG_43).toHaveLength(43);
    expect(BARE_SECRET).toHaveLength(43);
    expect(secretShape(SLUG_43)).toBeNull();
    expect(secretShape(BARE_SECRET)).toBe("an API key");
    // Still a secret: anything outside lowercase kebab-case (an upper-case letter, _, a doubled -).
    expect(secretShape(SLUG_43.replace("w", "W"))).toBe("an API key");
    expect(secretShape(SLUG_43.replace("-", "_"))).toBe("an API key");
    expect(secretShape(`-${SLUG_43.slice(1)}`)).toBe("an API key");
  });

  it("is accepted in engine.markets from a config file", () => {
    const file = tmp.file("markets.json", { engine: { markets: [SLUG_43, "other-market"] } });
    const c = loadConfig({ files: [file], env: {}, cwd: tmp.dir });
    expect(c.engine.markets).toEqual([SLUG_43, "other-market"]);
  });

  it("is accepted in engine.markets from MM_ENGINE_MARKETS", () => {
    const c = loadConfig({ env: { MM_ENGINE_MARKETS: `${SLUG_43},other-market` }, cwd: tmp.dir });
    expect(c.engine.markets).toEqual([SLUG_43, "other-market"]);
  });

  it("a bare secret in engine.markets is still refused, in a file and in the env, without echo", () => {
    const file = tmp.file("markets.json", { engine: { markets: [BARE_SECRET] } });
    const fromFile = configError(() => loadConfig({ files: [file], env: {}, cwd: tmp.dir }));
    expect(fields(fromFile)).toEqual(["engine.markets.0"]);
    const fromEnv = configError(() => loadConfig({ env: { MM_ENGINE_MARKETS: BARE_SECRET }, cwd: tmp.dir }));
    expect(fromEnv.lines()).toEqual([
      "engine.markets: looks like an API key, which belongs only in its secret setting (from env MM_ENGINE_MARKETS)",
    ]);
    expect(JSON.stringify(fromFile) + fromEnv.message).not.toContain(BARE_SECRET);
  });
});

describe("secret-shaped values inside JSON-valued MM_* variables, at any depth", () => {
  it("refuses a private key nested in MM_RISK, as a config file would", () => {
    const e = configError(() =>
      loadConfig({ env: { MM_RISK: JSON.stringify({ errorRate: { ignoreCodes: [PRIVATE_KEY] } }) } }),
    );
    expect(e.lines()).toEqual([
      "risk: looks like a private key, which belongs only in its secret setting (from env MM_RISK)",
    ]);
  });

  it("refuses a key where a decimal is expected without echoing any of it", () => {
    const e = configError(() =>
      loadConfig({ env: { MM_RISK: JSON.stringify({ order: { maxSize: HEX } }) } }),
    );
    expect(fields(e)).toEqual(["risk"]);
    expect(e.message).not.toContain(HEX.slice(0, 16));
  });

  it("refuses a key nested in a strategy's parameters", () => {
    const strategy = { name: "bands", params: { bands: [{ margin: "0.01", size: HEX }] } };
    const e = configError(() =>
      loadConfig({
        env: {
          MM_ENGINE_STRATEGY: JSON.stringify(strategy),
          MM_ENGINE_STRATEGY_BY_MARKET: JSON.stringify({ m: strategy }),
        },
      }),
    );
    expect(fields(e)).toEqual(["engine.strategy", "engine.strategyByMarket"]);
    expect(e.message).not.toContain(HEX.slice(0, 16));
  });

  it("refuses a key pasted as a market slug (a map key), naming the setting, never the key", () => {
    const e = configError(() =>
      loadConfig({ env: { MM_MARKETS_TICK_SIZES: JSON.stringify({ [HEX]: "x" }) } }),
    );
    expect(e.lines()).toEqual([
      "markets.tickSizes: looks like a private key, which belongs only in its secret setting (from env MM_MARKETS_TICK_SIZES)",
    ]);
    const file = tmp.file("ticks.json", { markets: { tickSizes: { [HEX]: "x" } } });
    const f = configError(() => loadConfig({ files: [file], env: {}, cwd: tmp.dir }));
    expect(fields(f)).toEqual(["markets.tickSizes"]);
    expect(f.issues[0]?.message).toMatch(/^has a key that looks like a private key: secrets are never read/);
    const top = tmp.file("top.json", { [HEX]: 1 });
    expect(fields(configError(() => loadConfig({ files: [top], env: {}, cwd: tmp.dir })))).toEqual([top]);
    expect(JSON.stringify(e) + JSON.stringify(f)).not.toContain(HEX.slice(0, 16));
  });

  it("still loads ordinary nested values", () => {
    const c = loadConfig({
      env: {
        MM_RISK: JSON.stringify({ order: { maxSize: "100" }, errorRate: { ignoreCodes: ["rate_limited"] } }),
      },
    });
    expect(c.risk).toMatchObject({ order: { maxSize: "100" } });
  });
});
