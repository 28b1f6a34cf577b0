import type { DestinationStream } from "pino";
import { startDaemon } from "../app/daemon.js";
import { runJournalSettings } from "../app/journal-settings.js";
import { processRequests } from "../app/lifecycle.js";
import { stdoutLogDestination } from "../app/lost-output.js";
import { observed } from "../app/observed.js";
import { rearmOnSignal } from "../app/rearm-signal.js";
import { claimBeforeStart } from "../app/start-claim.js";
import { startSettingsIssues } from "../app/start-settings.js";
import { type SuperviseDeps, superviseDaemon } from "../app/supervise.js";
import { loggerOptions } from "../config/logger-options.js";
import { LiveClock } from "../core/live-clock.js";
import { createLogger, scrubbingWriter } from "../observability/logger.js";
import { type CliIo, type Command, EXIT, flagsOrHelp } from "./command.js";
import { CONFIG_OPTION, CONFIG_OPTION_HELP, loadConfigFromFlags } from "./config-option.js";

const OPTIONS = { ...CONFIG_OPTION, help: { type: "boolean", short: "h" } } as const;

/** Exit codes of the trading commands, for their help texts. */
export const DAEMON_EXIT_HELP = [
  "Exit codes:",
  "  0  stopped on SIGINT/SIGTERM/SIGHUP with every quote cancelled",
  "  1  unexpected error (an uncaught one first cancels every quote, like a stop), or the stop could",
  "     not confirm every quote cancelled within shutdown.timeoutMs",
  "  2  configuration or usage error (nothing was sent)",
  "  3  the exchange refused the API key for good (revoked, expired, suspended, or lacking a scope",
  "     mm needs such as orders:write…): quotes cancelled where possible; the reason is named on",
  "     stderr, and so are the orders left resting (they stay until cancelled with a key holding",
  "     orders:write)",
].join("\n");

const HELP = [
  "Usage: mm run [--config FILE ...]",
  "",
  "Runs the market maker against the configured exchange: subscribes the books of engine.markets,",
  "reconciles with the exchange (reconcile.onStart: cancel or adopt the wallet's open orders), then",
  "quotes every token with its strategy within the risk limits and the rate budget. Logs go to stdout",
  "(JSON lines, or human-readable on a terminal). SIGINT/SIGTERM cancel every quote and exit; a",
  "second signal exits at once. SIGHUP (the terminal or ssh session closed) stops the same way, and",
  "a repeated SIGHUP never cuts that stop short.",
  "",
  "Options:",
  CONFIG_OPTION_HELP,
  "  -h, --help          Show this help.",
  "",
  "The API key comes from MM_API_KEY or secrets.apiKeyFile, the wallet key from MM_PRIVATE_KEY or",
  "secrets.privateKeyFile; `mm config` shows the effective settings.",
  "",
  "Every order intent, send outcome, fill and fee goes to the journal (journal.path; default",
  "~/.local/share/mm/journal.sqlite), which a restart reads to carry PnL, fees and cost basis over and",
  "to recognise the orders an earlier run left; `mm report` prints PnL by market and day from it.",
  "",
  DAEMON_EXIT_HELP,
  "",
].join("\n");

/** What tests inject: stop requests instead of process signals, and where log lines go. */
export interface DaemonCommandDeps extends SuperviseDeps {
  readonly logDestination?: DestinationStream;
}

/**
 * The `mm run` command over injectable stop requests and log destination.
 * @example await createRunCommand({ requests: abortRequests(ac.signal) }).run(["--config", f], io);
 */
export function createRunCommand(deps: DaemonCommandDeps): Command {
  return {
    name: "run",
    summary: "Run the market maker against the configured exchange until SIGINT/SIGTERM/SIGHUP",
    help: HELP,
    async run(argv: readonly string[], io: CliIo): Promise<number> {
      const values = flagsOrHelp(argv, OPTIONS, HELP, io);
      if (values === undefined) return EXIT.ok;
      const config = loadConfigFromFlags(values.config, io);
      const options = loggerOptions(config);
      const logger = createLogger({
        ...options,
        base: { cmd: "run" },
        // Lines to stdout survive a closed terminal: the stop after its SIGHUP must not die on EIO.
        destination:
          deps.logDestination ?? stdoutLogDestination(options.pretty ?? process.stdout.isTTY === true),
      });
      const journal = runJournalSettings(config, io);
      // Checked with the metrics port before anything is logged or opened: all problems at once.
      const problems = startSettingsIssues(config);
      // A metrics port that cannot be bound names where it was set, as the load's issues do.
      const metricsSources = { host: config.setBy["metrics.host"], port: config.setBy["metrics.port"] };
      // Before the start: mm advises `kill -USR2` during it (a kill switch tripped in an earlier run).
      const rearm = rearmOnSignal(logger);
      try {
        return await superviseDaemon(
          "run",
          (onStopping, stopRequested) => {
            // The journal's account lock needs no request: taken before the metrics server, a
            // second mm on the account is refused with the other problems, before "metrics at".
            const { claim, issues } = claimBeforeStart(config, journal, new LiveClock(), problems);
            return observed(
              config,
              logger,
              false,
              (metrics) =>
                startDaemon(config, {
                  logger,
                  onStopping,
                  stopRequested,
                  metrics,
                  ...(journal === undefined ? {} : { journal }),
                  ...(claim === undefined ? {} : { claim }),
                }),
              issues,
              metricsSources,
            ).then(
              (d) => rearm.started(d),
              (err: unknown) => {
                // A metrics port that cannot be bound fails before the daemon owns the lock (its
                // own failed starts release it too: release is idempotent).
                claim?.lock?.release();
                throw err;
              },
            );
          },
          config.shutdown.timeoutMs,
          // A start failure may quote an exchange answer, which may echo the key (read from a file).
          scrubbingWriter(io.stderr, options.secrets),
          deps,
        );
      } finally {
        rearm.close();
      }
    },
  };
}

/** `mm run`, stopped by SIGINT/SIGTERM/SIGHUP, or by an uncaught error (exit 1). */
export const runCommand: Command = createRunCommand({
  requests: processRequests,
  forceExit: (code) => process.exit(code),
});
