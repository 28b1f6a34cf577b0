import { resolve } from "node:path";
import { LOG_LEVELS } from "../config/schema.js";
import { createMockExchange } from "../mock/mock-exchange.js";
import { defaultScenarioPath, loadScenario } from "../mock/scenario/load.js";
import { createLogger } from "../observability/logger.js";
import { type CliIo, type Command, EXIT, flagsOrHelp, UsageError } from "./command.js";

const OPTIONS = {
  port: { type: "string", short: "p" },
  host: { type: "string" },
  scenario: { type: "string", short: "s" },
  admin: { type: "boolean" },
  "no-flow": { type: "boolean" },
  "log-level": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const HELP = [
  "Usage: mm mock [--port N] [--host H] [--scenario FILE] [--admin] [--no-flow] [--log-level L]",
  "",
  "Runs the mock exchange: the Integrator Trading API over HTTP and WebSocket (/ws/market, /ws/user)",
  "on one port, with the scenario's partners, API keys, wallets and markets, and simulated market",
  "activity. Prints the base URLs, the API keys and the wallets, then serves until SIGINT or SIGTERM.",
  "",
  "Options:",
  "  -p, --port N         Port to listen on (default 8080; 0 picks a free one).",
  "      --host H         Address to bind (default 127.0.0.1).",
  "  -s, --scenario FILE  Scenario file (default config/mock/default.json; format in README).",
  "      --admin          Enable the /__admin/* fault-injection endpoints (loopback peers only).",
  "      --no-flow        No simulated market activity (books stay empty until someone trades).",
  "      --log-level L    Mock's own log level: fatal, error, warn, info (default), debug, trace, silent.",
  "  -h, --help           Show this help.",
  "",
].join("\n");

/** `mm mock`: serve the mock exchange until a signal. */
export const mockCommand: Command = {
  name: "mock",
  summary: "Run the mock exchange (HTTP + WebSocket) on 127.0.0.1 for paper trading and tests",
  help: HELP,
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const values = flagsOrHelp(argv, OPTIONS, HELP, io);
    if (values === undefined) return EXIT.ok;
    const port = values.port === undefined ? 8080 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new UsageError(`--port: not a port: ${values.port}`);
    const level = values["log-level"] ?? "info";
    if (!(LOG_LEVELS as readonly string[]).includes(level)) {
      throw new UsageError(
        `--log-level: must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(level)}`,
      );
    }
    const scenarioFile = resolve(io.cwd, values.scenario ?? defaultScenarioPath());
    const scenario = loadScenario(scenarioFile);
    const logger = createLogger({ level });
    const mock = await createMockExchange({
      scenario,
      port,
      host: values.host ?? "127.0.0.1",
      logger,
      admin: values.admin === true,
      flow: values["no-flow"] === true ? false : scenario.flow.enabled,
    });
    io.stdout(banner(mock.httpUrl, mock.wsUrl, scenarioFile, scenario, values.admin === true));
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    await mock.close();
    return EXIT.ok;
  },
};

function banner(
  httpUrl: string,
  wsUrl: string,
  file: string,
  scenario: ReturnType<typeof loadScenario>,
  admin: boolean,
): string {
  const lines = [
    `mock exchange listening (scenario ${file})`,
    `  HTTP  ${httpUrl}`,
    `  WS    ${wsUrl}/ws/market  ${wsUrl}/ws/user`,
    admin ? `  admin ${httpUrl}/__admin/* (loopback only)` : "  admin disabled (--admin to enable)",
    "",
    "API keys (mock only; never use these anywhere else):",
    ...scenario.apiKeys.map((k) => {
      const flags = [k.revoked ? "revoked" : "", k.expiresAt === undefined ? "" : `expires ${k.expiresAt}`]
        .filter(Boolean)
        .join(", ");
      return `  ${k.key}  partner=${k.partnerId} scopes=${k.scopes.join(",")}${flags === "" ? "" : ` (${flags})`}`;
    }),
    "",
    "Wallets (well-known development keys):",
    ...scenario.wallets.map(
      (w) =>
        `  ${w.address}  kyc=${w.kycTier}${w.banned ? " banned" : ""} usdc=${w.usdc}${w.privateKey === undefined ? "" : `  key=${w.privateKey}`}`,
    ),
    "",
  ];
  return `${lines.join("\n")}\n`;
}
