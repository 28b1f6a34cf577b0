import { spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load.js";
import { configError, tempDirPerTest } from "./support.js";

// Values that load today but can never work, or that silently switch a safety off. Each must be
// refused at load, one line naming the field and saying what is allowed; the values the README
// documents as "off" (0) stay accepted.

const tmp = tempDirPerTest();

const risk = (tree: unknown): Record<string, string> => ({ MM_RISK: JSON.stringify(tree) });
const linesOf = (env: Record<string, string>, files: string[] = []): string[] =>
  configError(() => loadConfig({ files, env })).lines();

describe("error-rate halt (risk.errorRate)", () => {
  it("refuses maxErrors 0: the halt would trip on the first rejected order", () => {
    expect(linesOf(risk({ errorRate: { maxErrors: 0 } }))).toEqual([
      "risk.errorRate.maxErrors: must be an integer in [1, 1000000], got 0: quoting halts on more than maxErrors errors in the window, so 0 would halt every market on the first rejected order (from env MM_RISK)",
    ]);
  });

  it("refuses a window under a second (the halt could never trip) and a cool-down under a second (a halt in name only)", () => {
    const a = tmp.file("a.json", { risk: { errorRate: { windowMs: 1, coolDownMs: 999 } } });
    expect(linesOf({}, [a])).toEqual([
      `risk.errorRate.windowMs: must be an integer in [1000, 86400000], got 1: more than maxErrors errors almost never fall in a shorter window, so the halt would never trip (in ${a})`,
      `risk.errorRate.coolDownMs: must be an integer in [1000, 86400000], got 999: a shorter halt ends before the cancels it sent are answered, and quoting resumes as if nothing happened (in ${a})`,
    ]);
  });

  it("accepts the bounds themselves", () => {
    const c = loadConfig({ env: risk({ errorRate: { maxErrors: 1, windowMs: 1000, coolDownMs: 1000 } }) });
    expect(c.risk).toMatchObject({ errorRate: { maxErrors: 1, windowMs: 1000, coolDownMs: 1000 } });
  });
});

describe("circuit breaker", () => {
  it("refuses failureRatio 1: the breaker opens on MORE than this fraction, so it could never open", () => {
    expect(linesOf({ MM_CIRCUIT_BREAKER_FAILURE_RATIO: "1" })).toEqual([
      "circuitBreaker.failureRatio: must be < 1, got 1: the breaker opens when more than this fraction of the requests failed, so 1 would never open it (from env MM_CIRCUIT_BREAKER_FAILURE_RATIO)",
    ]);
    expect(
      loadConfig({ env: { MM_CIRCUIT_BREAKER_FAILURE_RATIO: "0.99" } }).circuitBreaker.failureRatio,
    ).toBe(0.99);
  });
});

describe("shutdown.timeoutMs", () => {
  it("refuses less than a second: the stop cannot cancel and confirm within it", () => {
    expect(linesOf({ MM_SHUTDOWN_TIMEOUT_MS: "100" })).toEqual([
      "shutdown.timeoutMs: must be ≥ 1000, got 100: the stop sends a cancel-all and reads the open orders back, two round trips to the exchange, within 80 % of it (from env MM_SHUTDOWN_TIMEOUT_MS)",
    ]);
    expect(loadConfig({ env: { MM_SHUTDOWN_TIMEOUT_MS: "1000" } }).shutdown.timeoutMs).toBe(1000);
  });
});

describe("journal.snapshotIntervalMs", () => {
  it("keeps 0 (snapshots only at stop, as documented) and refuses a period under a second", () => {
    expect(loadConfig({ env: { MM_JOURNAL_SNAPSHOT_INTERVAL_MS: "0" } }).journal.snapshotIntervalMs).toBe(0);
    expect(loadConfig({ env: { MM_JOURNAL_SNAPSHOT_INTERVAL_MS: "1000" } }).journal.snapshotIntervalMs).toBe(
      1000,
    );
    expect(linesOf({ MM_JOURNAL_SNAPSHOT_INTERVAL_MS: "5" })).toEqual([
      "journal.snapshotIntervalMs: must be 0 or ≥ 1000, got 5: 0 takes snapshots only at stop; a shorter period writes a PnL row to the journal on every tick of its timer (from env MM_JOURNAL_SNAPSHOT_INTERVAL_MS)",
    ]);
  });
});

describe("signing.orderExpirySeconds against exchange.requestTimeoutMs", () => {
  /*
   * A quote is replaced at half its lifetime at the latest (order-renewal.ts), and may expire 1 s
   * before creation + lifetime: the replacement needs a request timeout in between. The check was
   * requestTimeoutMs + 1 s, which let a renewal fall due at the old order's earliest expiry
   * (lifetime 2 s, timeout 1 s), a gap on the book every lifetime.
   */
  it("refuses an expiry its quotes cannot be replaced before; 0 (no expiry) stays valid", () => {
    expect(linesOf({ MM_SIGNING_ORDER_EXPIRY_SECONDS: "21" })).toEqual([
      "signing.orderExpirySeconds: must be 0 (no expiry) or ≥ 22 (2 × (exchange.requestTimeoutMs 10000 ms + 1 s)), got 21: a quote is replaced at half its lifetime at the latest, and its replacement needs a request timeout to rest before the old order's earliest expiry (lifetime − 1 s, as expiries are whole seconds); shorter, the book has a gap every lifetime and a placement in flight can arrive expired (400 expired)",
    ]);
    expect(loadConfig({ env: { MM_SIGNING_ORDER_EXPIRY_SECONDS: "22" } }).signing.orderExpirySeconds).toBe(
      22,
    );
    const fast = (s: string) => ({
      MM_SIGNING_ORDER_EXPIRY_SECONDS: s,
      MM_EXCHANGE_REQUEST_TIMEOUT_MS: "1000",
    });
    expect(linesOf(fast("3"))[0]).toMatch(/^signing\.orderExpirySeconds: must be 0 \(no expiry\) or ≥ 4 /);
    expect(loadConfig({ env: fast("4") }).signing.orderExpirySeconds).toBe(4);
    expect(loadConfig({ env: {} }).signing.orderExpirySeconds).toBe(0);
  });
});

describe("risk limits below what one quote needs on a market listed in engine.markets", () => {
  const markets = {
    MM_ENGINE_MARKETS: "a-b,c-d",
    MM_MARKETS_MIN_ORDER_SIZES: JSON.stringify({ "c-d": "5" }),
    MM_MARKETS_TICK_SIZES: JSON.stringify({ "c-d": "0.001" }),
  };

  it("refuses order.maxSize, order.maxNotional and both hard caps, naming the strictest market", () => {
    const env = {
      ...markets,
      ...risk({
        order: { maxSize: "2", maxNotional: "0.004" },
        inventory: { perMarket: { soft: "1", hard: "3" }, total: { soft: "0.5", hard: "0.5" } },
      }),
    };
    expect(linesOf(env)).toEqual([
      "risk.order.maxSize: must be ≥ 5 (the minimum order size on c-d), got 2: no quote could be placed on c-d",
      "risk.order.maxNotional: must be ≥ 0.01 (one minimum-size order at one tick on a-b), got 0.004: no quote could be placed on a-b, c-d",
      "risk.inventory.perMarket.hard: must be ≥ 5 (the minimum order size on c-d), got 3: from a flat position either side would pass it, so no quote could be placed on c-d; to only reduce a position, lower the soft cap instead (reduce-only above it)",
      "risk.inventory.total.hard: must be ≥ 5 (the minimum order size on c-d), got 0.5: from a flat position either side would pass it, so no quote could be placed on a-b, c-d; to only reduce a position, lower the soft cap instead (reduce-only above it)",
    ]);
  });

  it("accepts limits exactly at the need, and leaves ['*'] to the engine's warning at start (the exchange lists the markets)", () => {
    const atNeed = risk({
      order: { maxSize: "5", maxNotional: "0.01" },
      inventory: { perMarket: { soft: "5", hard: "5" } },
    });
    expect(() => loadConfig({ env: { ...markets, ...atNeed } })).not.toThrow();
    const all = { ...markets, MM_ENGINE_MARKETS: '["*"]', ...risk({ order: { maxSize: "0.5" } }) };
    expect(() => loadConfig({ env: all })).not.toThrow();
  });
});

describe("minimum order sizes whose smallest SELL is worth under 1 micro-USDC", () => {
  it("refuses them per setting, naming the strictest market; at ceil(1 / tick) micro-shares they load", () => {
    const env = {
      MM_ENGINE_MARKETS: "a-b,c-d,e-f",
      MM_MARKETS_MIN_ORDER_SIZE: "0.00005",
      MM_MARKETS_MIN_ORDER_SIZES: JSON.stringify({ "e-f": "0.5" }),
      MM_MARKETS_TICK_SIZES: JSON.stringify({ "c-d": "0.001", "e-f": "0.000001" }),
    };
    expect(linesOf(env)).toEqual([
      "markets.minOrderSize: must be ≥ 0.001 at tick 0.001, got 0.00005: a minimum-size SELL at one tick would be worth under 1 micro-USDC, signed proceeds 0, refused as invalid_amounts, on a-b, c-d",
      "markets.minOrderSizes: must be ≥ 1 at tick 0.000001, got 0.5: a minimum-size SELL at one tick would be worth under 1 micro-USDC, signed proceeds 0, refused as invalid_amounts, on e-f",
    ]);
    const atNeed = {
      ...env,
      MM_MARKETS_MIN_ORDER_SIZE: "0.001",
      MM_MARKETS_MIN_ORDER_SIZES: JSON.stringify({ "e-f": "1" }),
    };
    expect(() => loadConfig({ env: atNeed })).not.toThrow();
  });
});

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

describe("mm config", () => {
  it("exits 2 with one stderr line per refused field", async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("MM_")));
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "config"], {
      cwd: ROOT,
      env: {
        ...env,
        NO_COLOR: "1",
        MM_RISK: JSON.stringify({ errorRate: { maxErrors: 0 } }),
        MM_CIRCUIT_BREAKER_FAILURE_RATIO: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(code).toBe(2);
    expect(stderr.trimEnd().split("\n")).toEqual([
      "config error: circuitBreaker.failureRatio: must be < 1, got 1: the breaker opens when more than this fraction of the requests failed, so 1 would never open it (from env MM_CIRCUIT_BREAKER_FAILURE_RATIO) (code config_invalid)",
      "config error: risk.errorRate.maxErrors: must be an integer in [1, 1000000], got 0: quoting halts on more than maxErrors errors in the window, so 0 would halt every market on the first rejected order (from env MM_RISK) (code config_invalid)",
    ]);
  }, 30_000);
});
