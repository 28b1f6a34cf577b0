import { describe, expect, it } from "vitest";
import { loadConfigFromFlags } from "../../../src/cli/config-option.js";
import { loadConfig } from "../../../src/config/load.js";
import { configWarnings } from "../../../src/config/warnings.js";
import { configError, PRIVATE_KEY, PRIVATE_KEY_ADDRESS } from "./support.js";

/*
 * Settings each valid alone but meaningless together, which the loader used to accept silently:
 * refused (exit 2, the field named) where no valid setup writes them, warned about where refusing
 * would break one (config/warnings.ts says which and why).
 */
const linesOf = (env: NodeJS.ProcessEnv) => configError(() => loadConfig({ env })).lines();
const warningsOf = (env: NodeJS.ProcessEnv) =>
  configWarnings(loadConfig({ env })).map((w) => `${w.field}: ${w.message}`);
const ZERO = "0x0000000000000000000000000000000000000000";
const strategy = (params: unknown, name = "bands") => JSON.stringify({ name, params });

describe("wallet settings the chosen mode never uses", () => {
  it("refuses exchange.userWallet under single_wallet (it is never sent)", () => {
    expect(linesOf({ MM_EXCHANGE_USER_WALLET: PRIVATE_KEY_ADDRESS })).toEqual([
      "exchange.userWallet: must be empty when exchange.partnerKind is single_wallet: it is sent (as X-User-Wallet) only for multi_wallet, and a single_wallet key acts for the partner's associated wallet whatever this says",
    ]);
    const multi = {
      MM_EXCHANGE_PARTNER_KIND: "multi_wallet",
      MM_EXCHANGE_USER_WALLET: PRIVATE_KEY_ADDRESS,
      MM_PRIVATE_KEY: PRIVATE_KEY,
    };
    expect(loadConfig({ env: multi }).exchange.userWallet).toBe(PRIVATE_KEY_ADDRESS);
  });

  it("refuses signing.vaultAddress while signing.maker is wallet (orders would name the wallet)", () => {
    const vault = "0x00000000000000000000000000000000000000aa";
    expect(linesOf({ MM_SIGNING_VAULT_ADDRESS: vault })).toEqual([
      "signing.vaultAddress: must be empty when signing.maker is wallet: the vault is the maker only when signing.maker is vault, so orders would be made by the wallet and not by this vault",
    ]);
  });

  it("refuses the zero address for every contract and wallet setting", () => {
    const env = {
      MM_SIGNING_EXCHANGE_CONTRACT: ZERO,
      MM_SIGNING_MAKER: "vault",
      MM_SIGNING_VAULT_ADDRESS: ZERO,
      MM_EXCHANGE_PARTNER_KIND: "multi_wallet",
      MM_EXCHANGE_USER_WALLET: ZERO,
    };
    const zero =
      "must not be the zero address (0x0000000000000000000000000000000000000000): no contract or wallet lives there (from env";
    expect(linesOf(env)).toEqual([
      `exchange.userWallet: ${zero} MM_EXCHANGE_USER_WALLET)`,
      `signing.exchangeContract: ${zero} MM_SIGNING_EXCHANGE_CONTRACT)`,
      `signing.vaultAddress: ${zero} MM_SIGNING_VAULT_ADDRESS)`,
    ]);
  });
});

describe("strategy sizes against the minimum order size of the markets engine.markets names", () => {
  const markets = {
    MM_ENGINE_MARKETS: "a-b,c-d",
    MM_MARKETS_MIN_ORDER_SIZES: JSON.stringify({ "c-d": "30" }),
  };

  it("refuses a strategy every size of which is below a named market's minimum: nothing is ever quoted there", () => {
    expect(linesOf(markets)).toEqual([
      "engine.strategy.params.bands[1].size: must be ≥ 30 (the minimum order size on c-d), got 25: every size the strategy quotes is below it, so nothing would ever be quoted on c-d (a quote under a market's minimum is skipped)",
    ]);
    const byMarket = {
      ...markets,
      MM_ENGINE_STRATEGY_BY_MARKET: JSON.stringify({
        "c-d": { name: "avellaneda-stoikov", params: { gamma: 1, k: 10, orderSize: "20" } },
      }),
    };
    expect(linesOf(byMarket)).toEqual([
      "engine.strategyByMarket.c-d.params.orderSize: must be ≥ 30 (the minimum order size on c-d), got 20: every size the strategy quotes is below it, so nothing would ever be quoted on c-d (a quote under a market's minimum is skipped)",
    ]);
    const glft = strategy({ gamma: 1, k: 10, A: 1, maxInventory: 5, orderSize: "0.5" }, "glft");
    expect(linesOf({ MM_ENGINE_MARKETS: "a-b", MM_ENGINE_STRATEGY: glft })).toEqual([
      "engine.strategy.params.orderSize: must be ≥ 1 (the minimum order size on a-b), got 0.5: every size the strategy quotes is below it, so nothing would ever be quoted on a-b (a quote under a market's minimum is skipped)",
    ]);
  });

  it("only warns when some bands still fit, and checks neither ['*'] nor markets not named", () => {
    const partial = { ...markets, MM_MARKETS_MIN_ORDER_SIZES: JSON.stringify({ "c-d": "20" }) };
    expect(warningsOf(partial)).toEqual([
      "engine.strategy.params.bands[0].size: 10 is below the minimum order size 20 on c-d: that band is never quoted there (a quote under a market's minimum is skipped)",
    ]);
    expect(warningsOf({ MM_ENGINE_MARKETS: "a-b" })).toEqual([]);
    const star = { ...markets, MM_ENGINE_MARKETS: '["*"]' };
    expect(() => loadConfig({ env: star })).not.toThrow();
    const unnamed = { ...markets, MM_ENGINE_MARKETS: "a-b" };
    expect(() => loadConfig({ env: unnamed })).not.toThrow();
  });
});

describe("inventory caps that can never bind", () => {
  const risk = (r: unknown) => ({ MM_RISK: JSON.stringify(r) });

  it("warns (does not refuse) when a per-market cap is above the wallet's total cap", () => {
    // Valid and safe: a small wallet-wide cap with the per-market defaults (hard 2000) left as they are.
    const env = risk({ inventory: { total: { soft: "500", hard: "1000" } } });
    expect(warningsOf(env)).toEqual([
      "risk.inventory.perMarket.soft: 1000 is above risk.inventory.total.soft 500: one market's gross is never above the wallet's, so the total cap binds first and this one never applies",
      "risk.inventory.perMarket.hard: 2000 is above risk.inventory.total.hard 1000: one market's gross is never above the wallet's, so the total cap binds first and this one never applies",
    ]);
    expect(warningsOf({})).toEqual([]);
  });

  it("still refuses a soft cap above its hard cap", () => {
    expect(linesOf(risk({ inventory: { perMarket: { soft: "300", hard: "200" } } }))).toEqual([
      "risk.inventory.perMarket.soft: must be <= hard (from env MM_RISK)",
    ]);
  });
});

describe("the CLI's config warnings", () => {
  it("prints each warning on stderr as `config warning: <field>: <message>` and loads the config", () => {
    let stderr = "";
    const env = { MM_RISK: JSON.stringify({ inventory: { total: { soft: "1000", hard: "1000" } } }) };
    const stderrOf = (t: string) => {
      stderr += t;
    };
    const io = { stdout: () => undefined, stderr: stderrOf, env, cwd: "/" };
    expect(loadConfigFromFlags(undefined, io).risk).toBeDefined();
    expect(stderr).toBe(
      "config warning: risk.inventory.perMarket.hard: 2000 is above risk.inventory.total.hard 1000: one market's gross is never above the wallet's, so the total cap binds first and this one never applies\n",
    );
  });
});
