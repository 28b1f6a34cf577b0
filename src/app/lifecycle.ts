import { withCode } from "../core/error-code.js";
import type { Daemon } from "./daemon.js";
import { takeEarlySignals } from "./early-signals.js";
import { FailureNotes } from "./failure-notes.js";
import { DAEMON_EXIT, type DaemonOutcome } from "./outcome.js";
import { StartStoppedError } from "./start-errors.js";

/**
 * Where stop requests come from: a callback per request with its reason, and with the error when
 * the request is a failure (an uncaught error: the stop then ends with exit code 1); returns the
 * removal.
 */
export type StopRequests = (onStop: (reason: string, failure?: unknown) => void) => () => void;

/**
 * The reason a hangup request carries: SIGHUP, which a closed terminal or ssh session sends. It
 * stops the daemon like SIGTERM, but never counts as a second request: a hangup usually comes
 * twice (the shell relays one to its jobs, then the kernel sends one to the foreground job when
 * the shell exits), and an operator who is gone cannot be asking to abandon the quotes.
 */
export const HANGUP = "SIGHUP";

/**
 * SIGINT, SIGTERM and SIGHUP of this process as stop requests (each delivery is one request),
 * including those held since the process began (holdEarlySignals): they are requested at once.
 */
export const processSignals: StopRequests = (onStop) => {
  const signals = ["SIGINT", "SIGTERM", HANGUP] as const;
  const handlers = signals.map((sig) => {
    const h = () => onStop(sig);
    process.on(sig, h);
    return [sig, h] as const;
  });
  // Only now that these handlers exist: the process must never be without one (PID 1 drops signals).
  for (const sig of takeEarlySignals(signals)) onStop(sig);
  return () => {
    for (const [sig, h] of handlers) process.off(sig, h);
  };
};

/**
 * An uncaught exception or unhandled rejection of this process as a failed stop request (reason
 * `uncaughtException` / `unhandledRejection`, with the error). Heard, they no longer end the process
 * at once, with Node's stack printout (which no secret scrubbing sees) and every quote left resting:
 * the lifecycle runs the usual bounded stop (cancel every quote), then exits with code 1.
 */
export const processFailures: StopRequests = (onStop) => {
  const onException = (err: unknown) => onStop("uncaughtException", err);
  // `Promise.reject()` has no reason: still a failure, never a plain request (exit 0).
  const onRejection = (err: unknown) =>
    onStop("unhandledRejection", err ?? "a promise rejected without a reason");
  process.on("uncaughtException", onException);
  process.on("unhandledRejection", onRejection);
  return () => {
    process.off("uncaughtException", onException);
    process.off("unhandledRejection", onRejection);
  };
};

/** Both: the stop signals (processSignals) and the uncaught errors (processFailures). */
export const processRequests: StopRequests = (onStop) => {
  const offSignals = processSignals(onStop);
  const offFailures = processFailures(onStop);
  return () => {
    offFailures();
    offSignals();
  };
};

/** Stop requests from an AbortSignal (tests, embedding programs): one request when it aborts. */
export function abortRequests(signal: AbortSignal): StopRequests {
  return (onStop) => {
    const h = () => onStop("aborted");
    if (signal.aborted) queueMicrotask(h);
    else signal.addEventListener("abort", h, { once: true });
    return () => signal.removeEventListener("abort", h);
  };
}

/** What the lifecycle drives: a daemon's stop and its end. */
export type Stoppable = Pick<Daemon, "stop" | "done">;

export interface LifecycleOptions {
  /** The whole stop, from its request to the last socket closed, must fit in this (shutdown.timeoutMs). */
  readonly shutdownTimeoutMs: number;
  readonly requests: StopRequests;
  /** Told once when a stop overran its bound or a second request came: the process must end now. */
  readonly forceExit?: (code: number) => void;
  readonly notify: (line: string) => void;
}

/**
 * Runs a daemon until it stops: a stop request (SIGINT/SIGTERM/SIGHUP) makes it cancel every quote
 * and close; a second request, or a stop that overruns `shutdownTimeoutMs`, ends with exit code 1
 * at once (through `forceExit`, since whatever hangs may keep the process alive), its line ending
 * `(code stop_abandoned)` or `(code stop_overran)`. A hangup while
 * stopping is not a second request (see HANGUP): the stop goes on. A request that
 * arrives while the daemon is still starting aborts `stopRequested`, which `start` hands to the
 * daemon: it quotes nothing (an engine still starting stops there), and it is stopped as soon as
 * it is up. A failure (an uncaught error, see processFailures) is named with its stack and stops
 * the daemon the same way, but ends with exit code 1; one while stopping does not cut the cancels
 * short, and is named briefly once per distinct message, its recurrences counted and the count
 * written when the stop ends (FailureNotes: a per-frame throw recurs hundreds of times a second). `start` also receives the hook the daemon
 * calls when it begins stopping on its own (a fatal auth close), so that stop is bounded too. A start that gives up on the request before it
 * had opened anything (StartStoppedError) ends with the request's outcome, exit 0. Other errors
 * thrown by `start` propagate.
 * @example const outcome = await runUntilStopped((onStopping) => startDaemon(config, { logger, onStopping }), opts);
 */
export async function runUntilStopped(
  start: (onStopping: (reason: string) => void, stopRequested: AbortSignal) => Promise<Stoppable>,
  o: LifecycleOptions,
): Promise<DaemonOutcome> {
  const stopRequest = new AbortController();
  let daemon: Stoppable | undefined;
  let requested: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let overran: (outcome: DaemonOutcome) => void = () => undefined;
  const deadline = new Promise<DaemonOutcome>((resolve) => {
    overran = resolve;
  });
  const arm = () => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      const outcome = { exitCode: DAEMON_EXIT.failed, reason: `the stop overran ${o.shutdownTimeoutMs} ms` };
      failures.flush();
      o.notify(
        withCode(`${outcome.reason}: exiting with code 1; some quotes may still be open`, "stop_overran"),
      );
      overran(outcome);
      o.forceExit?.(outcome.exitCode);
    }, o.shutdownTimeoutMs);
    timer.unref();
  };
  let failed = false;
  const failures = new FailureNotes(o.notify);
  let toldGoesOn = false;
  // A failure's exit code is 1 even when the stop left nothing open.
  const failing = (outcome: DaemonOutcome): DaemonOutcome =>
    failed && outcome.exitCode === DAEMON_EXIT.ok ? { ...outcome, exitCode: DAEMON_EXIT.failed } : outcome;
  const off = o.requests((reason, failure) => {
    if (failure !== undefined) {
      const stopping = requested !== undefined;
      failed = true;
      failures.failed(reason, failure);
      if (stopping) {
        // Once: a recurring throw is counted (FailureNotes), and the count said when the stop ends.
        if (!toldGoesOn) o.notify(`${reason} while stopping: the stop goes on, then exits with code 1`);
        toldGoesOn = true;
        return;
      }
    } else if (requested !== undefined && reason === HANGUP) {
      o.notify(`${reason} while stopping: the stop goes on (a hangup never abandons the quotes)`);
      return;
    }
    if (requested !== undefined) {
      failures.flush();
      // Its own code: the operator cut the stop short, unlike a stop that overran on its own.
      o.notify(
        withCode(
          `second ${reason} while stopping: exiting now with code 1; some quotes may still be open`,
          "stop_abandoned",
        ),
      );
      overran({ exitCode: DAEMON_EXIT.failed, reason: `second ${reason}` });
      o.forceExit?.(DAEMON_EXIT.failed);
      return;
    }
    requested = reason;
    stopRequest.abort(reason);
    const exiting = failed ? "exiting with code 1" : "exiting";
    o.notify(`${reason}: cancelling every quote, then ${exiting} (at most ${o.shutdownTimeoutMs} ms)`);
    arm();
    if (daemon !== undefined) void daemon.stop(reason);
  });
  try {
    const starting = start(() => arm(), stopRequest.signal).catch((err: unknown) => {
      // Nothing was opened or placed: the stop asked for is complete.
      if (requested !== undefined && err instanceof StartStoppedError) {
        return failing({ exitCode: DAEMON_EXIT.ok, reason: requested });
      }
      throw err;
    });
    const started = await Promise.race([starting, deadline]);
    if (!("done" in started)) return started;
    daemon = started;
    if (requested !== undefined) void daemon.stop(requested);
    return failing(await Promise.race([daemon.done, deadline]));
  } finally {
    off();
    if (timer !== undefined) clearTimeout(timer);
    failures.flush();
  }
}
