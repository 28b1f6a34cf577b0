import type { TradingEngine } from "../engine/engine.js";
import type { Logger } from "../observability/logger.js";

/** What the signal drives: a started daemon's engine and its end. */
export interface Rearmable {
  readonly engine: Pick<TradingEngine, "rearmKillSwitch">;
  readonly done: Promise<unknown>;
}

/**
 * The operator's way to re-arm a tripped drawdown kill switch without a restart: `kill -USR2 <pid>`
 * (on an armed one it re-bases the drawdown to 0: TradingEngine.rearmKillSwitch). Listens until the
 * daemon is done; a signal while there is nothing to re-arm or re-base only logs that.
 * Returns the daemon, so it can wrap a start function's result.
 * @example const d = rearmOnSignal(await startDaemon(config, { logger }), logger);
 */
export function rearmOnSignal<D extends Rearmable>(
  daemon: D,
  logger: Logger,
  signal: NodeJS.Signals = "SIGUSR2",
): D {
  const onSignal = () => {
    if (!daemon.engine.rearmKillSwitch())
      logger.info(`${signal}: the kill switch is not tripped and has no drawdown; nothing to re-arm`);
  };
  process.on(signal, onSignal);
  void daemon.done.finally(() => process.off(signal, onSignal));
  return daemon;
}
