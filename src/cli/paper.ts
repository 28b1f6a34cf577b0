import { resolve } from "node:path";
import type { DestinationStream } from "pino";
import { processRequests } from "../app/lifecycle.js";
import { stdoutLogDestination } from "../app/lost-output.js";
import { observed } from "../app/observed.js";
import { askedPortIssues, PAPER_PORT, paperConfigFile, paperTicksEnv } from "../app/paper.js";
import { paperCredentials } from "../app/paper-credentials.js";
import { startPaperDaemon } from "../app/paper-daemon.js";
import { rearmOnSignal } from "../app/rearm-signal.js";
import { NO_MARKETS_ISSUE } from "../app/start-settings.js";
import { superviseDaemon } from "../app/supervise.js";
import { ConfigError, type ConfigIssue } from "../config/errors.js";
import { loadConfig } from "../config/load.js";
import { loggerOptions } from "../config/logger-options.js";
import type { MmConfig } from "../config/types.js";
import { defaultScenarioPath, loadScenario } from "../mock/scenario/load.js";
import type { Scenario } from "../mock/scenario/types.js";
import { createLogger, scrubbingWriter } from "../observability/logger.js";
import { type CliIo, type Command, EXIT, flagsOrHelp, UsageError } from "./command.js";
import {
  CONFIG_OPTION,
  CONFIG_OPTION_HELP,
  warnSettings,
  warnUnknownEnv,
  withoutSecrets,
} from "./config-option.js";
import { DAEMON_EXIT_HELP, type DaemonCommandDeps } from "./run.js";

const OPTIONS = {
  ...CONFIG_OPTION,
  port: { type: "string", short: "p" },
  scenario: { type: "string", short: "s" },
  "no-flow": { type: "boolean" },
  journal: { type: "string", short: "j" },
  help: { type: "boolean", short: "h" },
} as const;

const HELP = [
  "Usage: mm paper [--config FILE ...] [--port N] [--scenario FILE] [--no-flow] [--journal FILE]",
  "",
  "Paper trading: starts the mock exchange in this process on 127.0.0.1 (its default scenario, with",
  "simulated market activity and the /__admin fault-injection API) and runs the market maker against",
  "it over real HTTP and WebSocket with config/paper.json (every market, the bands strategy) and the",
  "scenario's paper wallet and API key (held in memory only). `npm start` runs this. Logs say where",
  "the mock listens, what is quoted and every fill. SIGINT/SIGTERM/SIGHUP (SIGHUP: the terminal closed)",
  "cancel every quote, check that the mock holds none of the wallet's orders, and exit. Its journal is a",
  "fresh temp file per run (named in the last log line), or --journal FILE: never journal.path, from a",
  "--config file or MM_JOURNAL_PATH, which names the live journal.",
  "",
  "Options:",
  CONFIG_OPTION_HELP.replace("config/default.json", "config/default.json and config/paper.json"),
  `  -p, --port N        Port of the mock (default ${PAPER_PORT}, or a free one when it is busy; 0 = a free`,
  "                      one). A busy --port N is an error (exit 2), as a busy metrics.port set by a",
  "                      --config file or MM_METRICS_PORT is; the default 9464 falls back to a free one.",
  "  -s, --scenario FILE Scenario of the mock (default config/mock/default.json).",
  "      --no-flow       No simulated market activity (books stay empty: nothing gets quoted).",
  "  -j, --journal FILE  Keep paper history in FILE (default: a fresh temp file per run).",
  "  -h, --help          Show this help.",
  "",
  DAEMON_EXIT_HELP,
  "",
].join("\n");

/**
 * The `mm paper` command over injectable stop requests and log destination.
 * @example await createPaperCommand({ requests: abortRequests(ac.signal) }).run(["--port", "0"], io);
 */
export function createPaperCommand(deps: DaemonCommandDeps): Command {
  return {
    name: "paper",
    summary: "Paper trading: the mock exchange in process and the market maker against it (npm start)",
    help: HELP,
    async run(argv: readonly string[], io: CliIo): Promise<number> {
      const values = flagsOrHelp(argv, OPTIONS, HELP, io);
      if (values === undefined) return EXIT.ok;
      const port = values.port === undefined ? PAPER_PORT : Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) {
        throw new UsageError(`--port: not a port: ${values.port}`);
      }
      const scenario = loadScenario(resolve(io.cwd, values.scenario ?? defaultScenarioPath()));
      // The log settings come from the same layers before the mock exists; the rest is loaded against
      // it. The same layers: a check made at load (risk limits against the scenario's ticks) must not
      // refuse here what the daemon's own load accepts.
      const files = values.config ?? [];
      warnUnknownEnv(io);
      warnLiveJournalEnv(io);
      const early = loadConfig({
        files: [paperConfigFile(), ...files],
        env: { ...withoutSecrets(io.env), ...paperTicksEnv(scenario) },
        cwd: io.cwd,
      });
      warnSettings(early, io);
      // Checked with the metrics port before anything is logged or started: all problems at once.
      const portAsked = values.port !== undefined;
      const problems = [...paperProblems(early, scenario), ...(portAsked ? await askedPortIssues(port) : [])];
      // A busy metrics.port the operator set is an error naming where, as for mm run; the default
      // (config/default.json's 9464 is not a request), a free port.
      const metricsSources = { host: early.setBy["metrics.host"], port: early.setBy["metrics.port"] };
      const metricsPortFree = metricsSources.port === undefined;
      // Well-known development keys, but keys all the same: never in a log line, nor on stderr.
      const secrets = [
        ...scenario.apiKeys.map((k) => k.key),
        ...scenario.wallets.flatMap((w) => (w.privateKey === undefined ? [] : [w.privateKey])),
      ];
      const logger = createLogger({
        ...loggerOptions(early),
        secrets,
        base: { cmd: "paper" },
        ...destinationOf(deps, early.log.pretty),
      });
      // Before the start: mm advises `kill -USR2` during it (a kill switch tripped in an earlier run).
      const rearm = rearmOnSignal(logger);
      try {
        return await superviseDaemon(
          "paper",
          (onStopping, stopRequested) =>
            observed(
              early,
              logger,
              metricsPortFree,
              (metrics) =>
                startPaperDaemon({
                  files,
                  env: io.env,
                  cwd: io.cwd,
                  port,
                  portAsked,
                  flow: values["no-flow"] !== true,
                  ...(values.journal === undefined ? {} : { journalPath: values.journal }),
                  logger,
                  onStopping,
                  stopRequested,
                  scenario,
                  metrics,
                }),
              problems,
              metricsSources,
            ).then((d) => rearm.started(d)),
          early.shutdown.timeoutMs,
          scrubbingWriter(io.stderr, secrets),
          deps,
        );
      } finally {
        rearm.close();
      }
    },
  };
}

/**
 * What would stop the paper daemon's start as configuration (exit 2), found before the mock or the
 * metrics server start: a scenario paper cannot trade with (paperCredentials, checked again at the
 * start) and an empty engine.markets. The keys come from the scenario, so they are not missing.
 */
function paperProblems(config: MmConfig, scenario: Scenario): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  try {
    paperCredentials(scenario, Date.now());
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    issues.push(...e.issues);
  }
  if (config.engine.markets.length === 0) issues.push(NO_MARKETS_ISSUE);
  return issues;
}

/**
 * One stderr line when MM_JOURNAL_PATH is set: an operator who sourced the live env file before
 * `mm paper` has it naming the live journal, which paper never writes (its fills would count in the
 * live PnL of `mm report`). Said before anything starts, where a terminal shows it.
 */
function warnLiveJournalEnv(io: CliIo): void {
  const named = io.env.MM_JOURNAL_PATH ?? "";
  if (named === "") return;
  io.stderr(
    `config warning: MM_JOURNAL_PATH: ignored by mm paper (${named} may be the live journal); ` +
      "paper journals to a fresh temp file, or to --journal FILE\n",
  );
}

/**
 * Where paper mode's log lines go: the injected destination, else stdout (surviving a closed
 * terminal): on a terminal (or with log.pretty true) one readable line per event — the message,
 * then its fields as `key=value` — else JSON lines.
 */
function destinationOf(deps: DaemonCommandDeps, mode: boolean | "auto"): { destination: DestinationStream } {
  if (deps.logDestination !== undefined) return { destination: deps.logDestination };
  const human = mode === "auto" ? process.stdout.isTTY === true : mode;
  return { destination: stdoutLogDestination(human) };
}

/** `mm paper`, stopped by SIGINT/SIGTERM/SIGHUP, or by an uncaught error (exit 1). */
export const paperCommand: Command = createPaperCommand({
  requests: processRequests,
  forceExit: (code) => process.exit(code),
});
