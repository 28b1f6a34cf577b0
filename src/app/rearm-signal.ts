import type { TradingEngine } from "../engine/engine.js";
import type { Logger } from "../observability/logger.js";
import { takeEarlySignals } from "./early-signals.js";

/** What the signal drives: a started daemon's engine and its end. */
export interface Rearmable {
  readonly engine: Pick<TradingEngine, "rearmKillSwitch"> & {
    status(): Pick<ReturnType<TradingEngine["status"]>, "started">;
  };
  readonly done: Promise<unknown>;
}

/** The re-arm signal's listener, installed before the daemon starts (see rearmOnSignal). */
export interface RearmSignal {
  /** Hands over the started daemon (applying a re-arm asked for during its start); returns it. */
  started<D extends Rearmable>(daemon: D): D;
  /** Stops listening (the daemon is done, or its start failed). Idempotent. */
  close(): void;
}

/**
 * The operator's way to re-arm a tripped drawdown kill switch without a restart: `kill -USR2 <pid>`
 * (on an armed one it re-bases the drawdown to 0: TradingEngine.rearmKillSwitch). Install it before
 * the daemon starts: without a listener the signal's default action kills the process, and the
 * start is exactly when mm advises it (a trip carried over from an earlier run is logged while the
 * journal opens). A signal during the start (or held since the process began, holdEarlySignals)
 * is remembered and applied once, when `started` hands over the daemon; not if its engine never
 * started (a stop was requested meanwhile). Listens until the daemon is done or `close`; a signal
 * while there is nothing to re-arm or re-base only logs that.
 * @example const rearm = rearmOnSignal(logger); try { … startDaemon(config, { logger }).then((d) => rearm.started(d)) … } finally { rearm.close(); }
 */
export function rearmOnSignal(logger: Logger, signal: NodeJS.Signals = "SIGUSR2"): RearmSignal {
  let daemon: Rearmable | undefined;
  let pending = false;
  let closed = false;
  const rearm = (d: Rearmable) => {
    if (!d.engine.rearmKillSwitch())
      logger.info(`${signal}: the kill switch is not tripped and has no drawdown; nothing to re-arm`);
  };
  const onSignal = () => {
    if (daemon !== undefined) return rearm(daemon);
    if (!pending)
      logger.warn(`${signal} during start-up: the kill switch is re-armed once the daemon has started`);
    pending = true;
  };
  process.on(signal, onSignal);
  // Only now that this listener exists (a process without one dies of the signal).
  if (takeEarlySignals([signal]).length > 0) onSignal();
  const close = () => {
    if (closed) return;
    closed = true;
    process.off(signal, onSignal);
  };
  return {
    started(d) {
      if (closed) return d;
      daemon = d;
      void d.done.finally(close);
      if (!pending) return d;
      pending = false;
      if (d.engine.status().started) rearm(d);
      else logger.warn(`${signal} during start-up: not applied, the daemon stopped before it started`);
      return d;
    },
    close,
  };
}
