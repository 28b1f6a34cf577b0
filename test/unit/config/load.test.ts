import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import { marketParams } from "../../../src/config/market-params.js";
import { defaultConfigFile, packageRoot } from "../../../src/config/paths.js";
import { hasCode } from "../../../src/core/errors.js";
import { configError, fields, tempDirPerTest } from "./support.js";

const tmp = tempDirPerTest();

describe("loadConfig: layering", () => {
  it("gives the safe defaults with no file and no env", () => {
    const c = loadConfig({ env: {} });
    expect(c.files).toEqual([defaultConfigFile()]);
    expect(c.exchange).toEqual({
      baseUrl: "http://127.0.0.1:8080",
      wsUrl: "ws://127.0.0.1:8080",
      partnerKind: "single_wallet",
      userWallet: null,
      requestTimeoutMs: 10_000,
      wsSubscriptionCheckMs: 60_000,
    });
    expect(c.retry).toEqual({ baseDelayMs: 200, maxDelayMs: 10_000, maxAttempts: 3 });
    expect(c.circuitBreaker).toEqual({
      windowMs: 30_000,
      failureRatio: 0.5,
      minRequests: 10,
      openMs: 60_000,
    });
    expect(c.markets.defaultTickSize).toBe("0.01");
    expect(c.log).toEqual({ level: "info", pretty: "auto" });
    expect(c.secrets).toEqual({ apiKeyFile: null, privateKeyFile: null });
    expect(c.secrets.apiKey).toBeUndefined();
  });

  it("finds config/default.json from the package root whatever the cwd", () => {
    const c = loadConfig({ env: {}, cwd: tmp.dir });
    expect(c.files[0]).toBe(join(packageRoot(), "config", "default.json"));
  });

  it("layers files in order: the later file wins, earlier settings survive", () => {
    const a = tmp.file("a.json", {
      exchange: { baseUrl: "https://a.example.invalid", requestTimeoutMs: 1234 },
    });
    const b = tmp.file("b.json", {
      exchange: { baseUrl: "https://b.example.invalid/" },
      log: { level: "debug" },
    });
    const c = loadConfig({ files: [a, b], env: {} });
    expect(c.exchange.baseUrl).toBe("https://b.example.invalid"); // b wins, trailing slash trimmed
    expect(c.exchange.requestTimeoutMs).toBe(1234); // from a, untouched by b
    expect(c.log.level).toBe("debug");
    expect(c.files).toEqual([defaultConfigFile(), a, b]);
    const reversed = loadConfig({ files: [b, a], env: {} });
    expect(reversed.exchange.baseUrl).toBe("https://a.example.invalid");
  });

  it("resolves relative config paths against cwd", () => {
    const a = tmp.file("a.json", { log: { level: "warn" } });
    const c = loadConfig({ files: ["a.json"], env: {}, cwd: tmp.dir });
    expect(c.log.level).toBe("warn");
    expect(c.files[1]).toBe(a);
    expect(relative(tmp.dir, c.files[1] ?? "")).toBe("a.json");
  });

  it("lets an MM_* env var win over every file, with typed coercion", () => {
    const a = tmp.file("a.json", { retry: { maxAttempts: 5 }, log: { level: "debug" } });
    const c = loadConfig({
      files: [a],
      env: {
        MM_RETRY_MAX_ATTEMPTS: "2",
        MM_LOG_LEVEL: "error",
        MM_LOG_PRETTY: "false",
        MM_CIRCUIT_BREAKER_FAILURE_RATIO: "0.75",
        MM_MARKETS_TICK_SIZES: '{"will-it-rain":"0.001"}',
        UNRELATED: "x",
      },
    });
    expect(c.retry.maxAttempts).toBe(2);
    expect(c.log).toEqual({ level: "error", pretty: false });
    expect(c.circuitBreaker.failureRatio).toBe(0.75);
    expect(c.markets.tickSizes).toEqual({ "will-it-rain": "0.001" });
  });

  it("merges per-market maps slug by slug across files", () => {
    const a = tmp.file("a.json", {
      markets: { tickSizes: { x: "0.001", y: "0.01" }, minOrderSizes: { x: "5" } },
    });
    const b = tmp.file("b.json", { markets: { tickSizes: { y: "0.05" } } });
    const c = loadConfig({ files: [a, b], env: {} });
    expect(c.markets.tickSizes).toEqual({ x: "0.001", y: "0.05" });
    expect(marketParams(c.markets, "x")).toEqual({ tickSize: "0.001", minOrderSize: "5" });
    expect(marketParams(c.markets, "y")).toEqual({ tickSize: "0.05", minOrderSize: "1" });
    expect(marketParams(c.markets, "other")).toEqual({ tickSize: "0.01", minOrderSize: "1" });
    expect(marketParams(c.markets, "constructor")).toEqual({ tickSize: "0.01", minOrderSize: "1" });
  });

  it("returns a deeply frozen object with checksummed addresses", () => {
    const a = tmp.file("a.json", {
      exchange: { partnerKind: "multi_wallet", userWallet: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" },
    });
    const c = loadConfig({ files: [a], env: {} });
    expect(c.exchange.userWallet).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.exchange)).toBe(true);
    expect(Object.isFrozen(c.markets.tickSizes)).toBe(true);
    expect(() => {
      (c.exchange as { baseUrl: string }).baseUrl = "http://evil.invalid";
    }).toThrow(TypeError);
  });

  it("accepts config/live.example.json once its key files exist", () => {
    const apiKeyFile = tmp.file(
      "api-key",
      `mm_live_0123456789abcdef_${Buffer.alloc(32, 7).toString("base64url")}\n`,
    );
    const c = loadConfig({
      files: [join(packageRoot(), "config", "live.example.json")],
      env: { MM_API_KEY_FILE: apiKeyFile, MM_PRIVATE_KEY_FILE: "" },
    });
    expect(c.exchange.baseUrl).toBe("https://api.example.invalid");
    expect(c.exchange.wsUrl).toBe("wss://ws.example.invalid");
    expect(c.log.pretty).toBe(false);
    expect(c.secrets.apiKey?.keyId).toBe("0123456789abcdef");
  });

  it("config/default.json sets every non-secret setting to exactly the schema default", async () => {
    const { settings } = await import("../../../src/config/schema.js");
    const json = JSON.parse(readFileSync(defaultConfigFile(), "utf8")) as unknown;
    // Settings sit at any depth (`risk` is a top-level setting, `exchange.baseUrl` a nested one).
    const at = (path: string): unknown =>
      path
        .split(".")
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], json);
    for (const { path, spec } of settings()) {
      if (spec.envOnly === true) expect(at(path)).toBeUndefined();
      else expect(at(path), path).toEqual(spec.default);
    }
  });
});

describe("loadConfig: refusals", () => {
  it("refuses an unknown key, naming it and the file", () => {
    const a = tmp.file("a.json", { exchange: { baseUrll: "http://127.0.0.1:1" }, extra: { x: 1 } });
    const e = configError(() => loadConfig({ files: [a], env: {} }));
    expect(e).toBeInstanceOf(ConfigError);
    expect(hasCode(e, "config_invalid")).toBe(true);
    expect(e.lines()).toEqual([
      `exchange.baseUrll: unknown setting (in ${a}): did you mean exchange.baseUrl?`,
      `extra: unknown setting (in ${a})`,
    ]);
  });

  it("reports several bad fields together, one line each, in the message too", () => {
    const a = tmp.file("a.json", {
      exchange: { baseUrl: "ftp://x.invalid", wsUrl: "http://127.0.0.1:1" },
      retry: { maxAttempts: 0 },
      log: { level: "loud" },
    });
    const e = configError(() =>
      loadConfig({ files: [a], env: { MM_SIGNING_CHAIN_ID: "abc", MM_SIGNING_EXCHANGE_CONTRACT: "0x12" } }),
    );
    expect(fields(e)).toEqual([
      "exchange.baseUrl",
      "exchange.wsUrl",
      "retry.maxAttempts",
      "signing.chainId",
      "signing.exchangeContract",
      "log.level",
    ]);
    const lines = e.message.split("\n");
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(
      `exchange.baseUrl: must start with http:// or https://, got "ftp://x.invalid" (in ${a})`,
    );
    expect(lines[2]).toBe(`retry.maxAttempts: must be ≥ 1, got 0 (in ${a})`);
    expect(lines[3]).toBe('signing.chainId: must be an integer, got "abc" (from env MM_SIGNING_CHAIN_ID)');
    expect(e.details).toEqual({ issues: e.issues.map((i) => ({ ...i })) });
  });

  it("gives one line per field even when two files break the same setting", () => {
    const a = tmp.file("a.json", { nope: 1 });
    const b = tmp.file("b.json", { nope: 2 });
    const e = configError(() => loadConfig({ files: [a, b], env: {} }));
    expect(e.lines()).toEqual([`nope: unknown setting (in ${a}); unknown setting (in ${b})`]);
  });

  it("refuses multi_wallet without a user wallet", () => {
    const e = configError(() => loadConfig({ env: { MM_EXCHANGE_PARTNER_KIND: "multi_wallet" } }));
    expect(e.lines()).toEqual([
      "exchange.userWallet: required when exchange.partnerKind is multi_wallet (it is sent as X-User-Wallet)",
    ]);
  });

  it("refuses a vault maker without a vault address, and accepts it with one", () => {
    const e = configError(() => loadConfig({ env: { MM_SIGNING_MAKER: "vault" } }));
    expect(e.lines()).toEqual(["signing.vaultAddress: required when signing.maker is vault"]);
    const vault = "0x00000000000000000000000000000000000000aa";
    const c = loadConfig({ env: { MM_SIGNING_MAKER: "vault", MM_SIGNING_VAULT_ADDRESS: vault } });
    expect(c.signing.vaultAddress?.toLowerCase()).toBe(vault);
  });

  it("skips a cross-field rule when one of its settings is already bad", () => {
    const e = configError(() =>
      loadConfig({ env: { MM_EXCHANGE_PARTNER_KIND: "multi_wallet", MM_EXCHANGE_USER_WALLET: "nope" } }),
    );
    expect(fields(e)).toEqual(["exchange.userWallet"]);
    expect(e.issues[0]?.message).toMatch(/^must be an address/);
  });

  it("refuses equal binary and neg-risk contracts and a max delay below the base delay", () => {
    const e = configError(() =>
      loadConfig({
        env: {
          MM_SIGNING_NEG_RISK_EXCHANGE_CONTRACT: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
          MM_RETRY_BASE_DELAY_MS: "500",
          MM_RETRY_MAX_DELAY_MS: "400",
        },
      }),
    );
    expect(fields(e)).toEqual(["signing.negRiskExchangeContract", "retry.maxDelayMs"]);
  });

  it.each([
    ["0.0000001", "finer than 1e-6"],
    ["0.6", "above 0.5"],
    ["0", "zero"],
    ["-0.01", "negative"],
    ["1e-2", "exponent form"],
    ["abc", "not a number"],
    [" 0.01", "padded"],
  ])("refuses tick size %j (%s)", (tick) => {
    const e = configError(() => loadConfig({ env: { MM_MARKETS_DEFAULT_TICK_SIZE: tick } }));
    expect(fields(e)).toEqual(["markets.defaultTickSize"]);
    expect(e.issues[0]?.message).toContain("multiple of 0.000001 in (0, 0.5]");
  });

  it.each(["0.001", "0.5", "0.000001", "0.05"])("accepts tick size %j", (tick) => {
    expect(loadConfig({ env: { MM_MARKETS_DEFAULT_TICK_SIZE: tick } }).markets.defaultTickSize).toBe(tick);
  });

  it("refuses a bad per-market tick or minimum size, naming the slug", () => {
    const a = tmp.file("a.json", {
      markets: { tickSizes: { good: "0.01", bad: "0.7" }, minOrderSizes: { m: "0" } },
    });
    const e = configError(() => loadConfig({ files: [a], env: {} }));
    expect(e.lines()).toEqual([
      `markets.tickSizes: "bad" must be a decimal string, a multiple of 0.000001 in (0, 0.5], got "0.7" (in ${a})`,
      `markets.minOrderSizes: "m" must be a positive decimal string with at most 6 decimals, got "0" (in ${a})`,
    ]);
  });

  it("refuses wrong JSON types in a file (no silent string → number coercion)", () => {
    const a = tmp.file("a.json", {
      retry: { maxAttempts: "3" },
      exchange: "x",
      markets: { tickSizes: { a: 1 } },
    });
    const e = configError(() => loadConfig({ files: [a], env: {} }));
    expect(e.lines()).toEqual([
      `retry.maxAttempts: must be a JSON number, got string (in ${a})`,
      `exchange: must be an object of settings (in ${a})`,
      `markets.tickSizes: "a" must map to a decimal string (in ${a})`,
    ]);
  });

  it("refuses a non-integer env number instead of truncating it", () => {
    for (const v of ["3abc", "3.5", ""]) {
      const e = configError(() => loadConfig({ env: { MM_RETRY_MAX_ATTEMPTS: v } }));
      expect(fields(e)).toEqual(["retry.maxAttempts"]);
    }
  });

  it("refuses URLs with credentials or a query string without echoing them", () => {
    const e = configError(() =>
      loadConfig({
        env: {
          MM_EXCHANGE_BASE_URL: "https://user:hunter22@x.invalid",
          MM_EXCHANGE_WS_URL: "wss://x.invalid/?key=abc",
        },
      }),
    );
    expect(e.lines()).toEqual([
      "exchange.baseUrl: must not contain credentials (from env MM_EXCHANGE_BASE_URL)",
      "exchange.wsUrl: must not contain a query string or fragment (the API key travels in a header, never in a URL) (from env MM_EXCHANGE_WS_URL)",
    ]);
    expect(e.message).not.toContain("hunter22");
  });

  it("refuses an address with a wrong EIP-55 checksum", () => {
    const e = configError(() =>
      loadConfig({ env: { MM_SIGNING_EXCHANGE_CONTRACT: "0x5FbDB2315678afecb367f032d93F642f64180aA3" } }),
    );
    expect(e.lines()[0]).toMatch(/^signing\.exchangeContract: has an invalid EIP-55 checksum/);
  });

  it("reports a missing file and invalid JSON without quoting the content", () => {
    const missing = join(tmp.dir, "missing.json");
    const broken = tmp.file("broken.json", '{"exchange": {"baseUrl": "secret-ish-content"');
    const e = configError(() => loadConfig({ files: [missing, broken], env: {} }));
    expect(e.lines()).toEqual([
      `${missing}: cannot read config file (ENOENT)`,
      `${broken}: is not valid JSON: it ends before it is complete (a missing bracket or quote?)`,
    ]);
    expect(e.message).not.toContain("secret-ish-content");
  });

  it("refuses a file whose top level is not an object", () => {
    const a = tmp.file("a.json", "[1, 2]");
    expect(configError(() => loadConfig({ files: [a], env: {} })).lines()).toEqual([
      `${a}: must contain a JSON object of settings`,
    ]);
  });

  it("reports __proto__ and constructor keys as unknown rather than polluting prototypes", () => {
    const a = tmp.file("a.json", '{"__proto__": {"polluted": true}, "exchange": {"constructor": {"x": 1}}}');
    const e = configError(() => loadConfig({ files: [a], env: {} }));
    expect(fields(e)).toEqual(["__proto__", "exchange.constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
