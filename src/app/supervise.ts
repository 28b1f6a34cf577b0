import { ConfigError } from "../config/errors.js";
import { MmError } from "../core/errors.js";
import { GatewayFatalError, upgradeAnswer, wrongGatewayUrl } from "../gateway/errors.js";
import { runUntilStopped, type Stoppable, type StopRequests } from "./lifecycle.js";
import { DAEMON_EXIT, fatalAuthCode, fatalAuthReason, RefusedStartError, restingText } from "./outcome.js";
import { StartReadError } from "./start-errors.js";

/** What a long-running command injects (tests replace the process signals and process.exit). */
export interface SuperviseDeps {
  readonly requests: StopRequests;
  /** Ends the process now; default none (the command returns its exit code). */
  readonly forceExit?: (code: number) => void;
}

/**
 * Runs `mm <name>`'s daemon to its end and maps the outcome to the exit code (see DAEMON_EXIT),
 * with a last line on stderr naming why it stopped. ConfigErrors propagate (main prints them,
 * exit 2); a key the exchange refuses at start-up is exit 3; a start-up read that fails (markets,
 * positions, open orders, trades: StartReadError, the line names what was read, exchange.baseUrl,
 * the URL read and the cause) exit 1, the exchange may just be down or the setting point elsewhere;
 * anything else propagates (exit 1).
 * When `forceExit` is given it is also armed, unref'd, one second after the outcome, so a handle
 * left open by accident cannot keep a stopped daemon's process alive.
 * @example return superviseDaemon("run", (onStopping, stopRequested) => startDaemon(config, { logger, onStopping, stopRequested }), 10_000, io.stderr, deps);
 */
export async function superviseDaemon(
  name: string,
  start: (onStopping: (reason: string) => void, stopRequested: AbortSignal) => Promise<Stoppable>,
  shutdownTimeoutMs: number,
  stderr: (text: string) => void,
  deps: SuperviseDeps,
): Promise<number> {
  const notify = (line: string) => stderr(`mm ${name}: ${line}\n`);
  let code: number;
  try {
    const outcome = await runUntilStopped(start, {
      shutdownTimeoutMs,
      requests: deps.requests,
      notify,
      ...(deps.forceExit === undefined ? {} : { forceExit: deps.forceExit }),
    });
    code = outcome.exitCode;
    if (code === DAEMON_EXIT.fatal) {
      notify(
        `the exchange refused the API key for good (${outcome.reason}); ${restingText(outcome.resting)}; exit 3`,
      );
    } else {
      notify(`stopped (${outcome.reason}); exit ${code}`);
    }
  } catch (err) {
    if (err instanceof StartReadError) {
      notify(
        `could not read ${err.subject} at start: ${err.message}; nothing was quoted; exit 1${codeOf(err.code)}`,
      );
      return finish(DAEMON_EXIT.failed, deps);
    }
    if (err instanceof GatewayFatalError && wrongGatewayUrl(err)) {
      notify(
        `could not open /ws/${err.gateway} at start: exchange.wsUrl: ${upgradeAnswer(err)}; check the setting; nothing was quoted; exit 1${codeOf(err.code)}`,
      );
      return finish(DAEMON_EXIT.failed, deps);
    }
    const auth = fatalAuthCode(err);
    if (auth === undefined && err instanceof MmError && err.code === "engine_start_failed") {
      // The engine's own start-up checks (the exchange's failed reads are StartReadErrors above).
      const cause = err.cause instanceof Error ? `: ${err.cause.message}` : "";
      notify(`could not start: ${err.message}${cause}; nothing was quoted; exit 1${codeOf(err.code)}`);
      return finish(DAEMON_EXIT.failed, deps);
    }
    if (err instanceof ConfigError || auth === undefined) throw err;
    const left = err instanceof RefusedStartError ? `; ${restingText(err.resting)}` : "";
    notify(
      `the exchange refused the API key (${fatalAuthReason(err) ?? auth}) at start-up; nothing was quoted${left}; exit 3${codeOf(auth)}`,
    );
    code = DAEMON_EXIT.fatal;
  }
  return finish(code, deps);
}

/**
 * A failed start's line ends with the error's code, as every mm error line does (src/cli/command.ts
 * errorLine), for a grep or a log shipper to key on.
 */
function codeOf(code: string): string {
  return ` (code ${code})`;
}

/** Arms the backstop exit (see superviseDaemon) and returns `code`. */
function finish(code: number, deps: SuperviseDeps): number {
  const { forceExit } = deps;
  if (forceExit !== undefined) setTimeout(() => forceExit(code), 1_000).unref();
  return code;
}
