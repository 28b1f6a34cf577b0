import { createServer } from "node:net";
import { join } from "node:path";
import { ConfigError, type ConfigIssue } from "../config/errors.js";
import { loadConfig } from "../config/load.js";
import { packageRoot } from "../config/paths.js";
import type { MmConfig } from "../config/types.js";
import { createMockExchange, type MockExchange } from "../mock/mock-exchange.js";
import { defaultScenarioPath, loadScenario } from "../mock/scenario/load.js";
import type { Scenario } from "../mock/scenario/types.js";
import type { Logger } from "../observability/logger.js";
import { type PaperCredentials, paperCredentials } from "./paper-credentials.js";

/** The port paper mode tries first (the one `mm mock` uses); a free one is taken when it is busy. */
export const PAPER_PORT = 8080;

/**
 * Secret-file settings a paper run must ignore: its key comes from the scenario, in memory. Set to
 * "" (unset) in the env, which wins over every file: a --config file made for live trading names
 * key files that paper must neither read nor see collide with the scenario's keys.
 */
const DROPPED_ENV = ["MM_API_KEY_FILE", "MM_PRIVATE_KEY_FILE"];

export interface PaperExchangeOptions {
  /** Config files layered after config/paper.json. */
  readonly files?: readonly string[];
  /** MM_* overrides (the process environment); the connection, keys and domain are paper's. */
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Port to try first; default 8080 with a fallback to a free port; 0 = a free port. */
  readonly port?: number;
  /**
   * The operator asked for `port` (`mm paper --port N`): busy, it is a ConfigError on `--port`
   * (exit 2) instead of a free port, as a busy metrics.port is: whatever was pointed at it (a
   * browser, a second bot, `mm run` against this mock) would otherwise miss it without a word.
   */
  readonly portAsked?: boolean;
  /** A scenario or its file; default config/mock/default.json. */
  readonly scenario?: Scenario | string;
  /** Simulated market activity; default on. */
  readonly flow?: boolean;
  readonly logger: Logger;
}

/** A mock exchange in this process and a configuration pointing the daemon at it. */
export interface PaperExchange {
  readonly mock: MockExchange;
  readonly config: MmConfig;
  /** The paper wallet (lowercase), the scenario's first wallet. */
  readonly wallet: `0x${string}`;
}

/**
 * Starts the mock exchange on 127.0.0.1 (default scenario, flow on, fault-injection admin API on)
 * and loads config/paper.json (+ `files`, + env) pointed at it with the paper credentials (the first
 * wallet's private key and the API key of its single_wallet partner: see paperCredentials), the
 * scenario's EIP-712 domain and tick sizes, and the mock's default fee. The credentials only ever
 * live in memory (the config's secrets, scrubbed from logs). A scenario paper cannot trade with is a
 * ConfigError on `scenario`, thrown before the mock starts.
 * @example const { mock, config } = await startPaperExchange({ env: process.env, cwd, logger });
 */
export async function startPaperExchange(o: PaperExchangeOptions): Promise<PaperExchange> {
  const scenario =
    typeof o.scenario === "object" ? o.scenario : loadScenario(o.scenario ?? defaultScenarioPath());
  // Before the mock starts: a scenario paper cannot trade with fails as configuration (exit 2).
  const credentials = paperCredentials(scenario, Date.now());
  const wanted = o.port ?? PAPER_PORT;
  const port = o.portAsked === true ? wanted : await paperPort(wanted);
  if (port !== wanted) {
    o.logger.info({ busy: wanted }, `paper: port ${wanted} on 127.0.0.1 is busy: the mock takes a free port`);
  }
  const mock = await createMockExchange({
    scenario,
    port,
    host: "127.0.0.1",
    admin: true,
    flow: o.flow ?? true,
    logger: o.logger.child({ component: "mock" }, { level: "warn" }),
  }).catch((err: unknown) => {
    // Taken between the CLI's check and this listen: the same exit 2 as the check's.
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") throw new ConfigError([busyPortIssue(port)]);
    throw err;
  });
  try {
    const env: NodeJS.ProcessEnv = { ...o.env, ...paperEnv(mock, scenario, credentials) };
    for (const name of DROPPED_ENV) env[name] = "";
    const config = loadConfig({ files: [paperConfigFile(), ...(o.files ?? [])], env, cwd: o.cwd });
    return { mock, config, wallet: credentials.wallet };
  } catch (err) {
    await mock.close();
    throw err;
  }
}

/** Absolute path of config/paper.json. */
export function paperConfigFile(): string {
  return join(packageRoot(), "config", "paper.json");
}

/**
 * The scenario's tick sizes as MM_MARKETS_TICK_SIZES: every load of a paper config takes them, so
 * that the checks made at load (risk limits against one minimum order at one tick) see the ticks
 * the daemon will trade at.
 * @example loadConfig({ files: [paperConfigFile()], env: { ...process.env, ...paperTicksEnv(scenario) } })
 */
export function paperTicksEnv(s: Scenario): NodeJS.ProcessEnv {
  return {
    MM_MARKETS_TICK_SIZES: JSON.stringify(Object.fromEntries(s.markets.map((m) => [m.slug, m.tickSize]))),
  };
}

/** The settings that tie the daemon to this mock, as MM_* variables (they win over every file). */
function paperEnv(mock: MockExchange, s: Scenario, credentials: PaperCredentials): NodeJS.ProcessEnv {
  return {
    ...paperTicksEnv(s),
    MM_EXCHANGE_BASE_URL: mock.httpUrl,
    MM_EXCHANGE_WS_URL: mock.wsUrl,
    MM_EXCHANGE_PARTNER_KIND: "single_wallet",
    MM_EXCHANGE_USER_WALLET: "",
    MM_SIGNING_DOMAIN_NAME: s.eip712.name,
    MM_SIGNING_DOMAIN_VERSION: s.eip712.version,
    MM_SIGNING_CHAIN_ID: String(s.eip712.chainId),
    MM_SIGNING_EXCHANGE_CONTRACT: s.eip712.exchangeContract.toLowerCase(),
    MM_SIGNING_NEG_RISK_EXCHANGE_CONTRACT: s.eip712.negRiskExchangeContract.toLowerCase(),
    MM_SIGNING_MAKER: "wallet",
    // A live config's vault is not the paper wallet's, and a vault with maker wallet is refused.
    MM_SIGNING_VAULT_ADDRESS: "",
    // A live config's default is the live platform's: the mock checks signatures against its own.
    MM_SIGNING_DEFAULT_FEE_RATE_BPS: String(mockDefaultFeeBps(mock, s)),
    MM_API_KEY: credentials.apiKey,
    MM_PRIVATE_KEY: credentials.privateKey,
  };
}

/**
 * The feeRateBps the mock expects on a market whose feeTakerBps is null: its venue's fee in force
 * on such a market (what the placement check rebuilds the signed struct with). With no such market
 * the setting is never used; 0 then, the setting's own default.
 */
function mockDefaultFeeBps(mock: MockExchange, s: Scenario): number {
  const unset = s.markets.find((m) => m.feeTakerBps === null);
  return unset === undefined ? 0 : (mock.context.venue.market(unset.id)?.effectiveTakerBps ?? 0);
}

/** `wanted` when it is free on 127.0.0.1 (or 0), else 0 (a free port picked at listen). */
async function paperPort(wanted: number): Promise<number> {
  return wanted === 0 || (await portFree(wanted)) ? wanted : 0;
}

/** Whether `port` can be listened on at 127.0.0.1 now (0 always can). */
function portFree(port: number): Promise<boolean> {
  if (port === 0) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** The problem of a busy `mm paper --port N`, naming the option and the ways out. */
function busyPortIssue(port: number): ConfigIssue {
  return {
    field: "--port",
    message: `port ${port} on 127.0.0.1 is in use: leave --port out (${PAPER_PORT}, or a free port when it is busy) or use --port 0 for a free one`,
  };
}

/**
 * The problem with an explicit `mm paper --port N`, found before anything starts (so it is named
 * with every other one, exit 2): none for 0 or a free port.
 * @example issues.push(...(await askedPortIssues(8080)));
 */
export async function askedPortIssues(port: number): Promise<ConfigIssue[]> {
  return (await portFree(port)) ? [] : [busyPortIssue(port)];
}
