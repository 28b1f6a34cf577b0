import type { EngineCore } from "./engine-core.js";
import { CIRCUIT_OPEN, EXCHANGE_UNAVAILABLE, PlatformWatch } from "./platform-watch.js";

/**
 * The engine's PlatformWatch: a status (pushed, or read from GET /api/platform/status when the
 * exchange port can) goes to the risk guard's platform gate, a thaw requotes every token, and an
 * `exchange_unavailable` answer the status does not explain counts towards the error-rate halt.
 * @example const platform = watchPlatform(core); await platform.check();
 */
export function watchPlatform(core: EngineCore): PlatformWatch {
  const { clock, log, risk, exchange } = core;
  return new PlatformWatch({
    clock,
    log,
    read: exchange.platformFrozen === undefined ? undefined : async () => exchange.platformFrozen?.(),
    frozen: () => risk.platformFrozen(),
    apply: (frozen) => {
      core.enforce(risk.onPlatformStatus(frozen));
      if (!frozen) core.requoteAll();
    },
    count: (code) => core.enforce(risk.onOrderError(code, clock.now())),
  });
}

/**
 * A request failed with `code`: counted towards the error-rate halt, except 503
 * `exchange_unavailable` and the breaker's `circuit_open` (which a freeze's 503s bring about): the
 * platform watch first checks them against the platform status (a frozen platform answers
 * placements so, and that says nothing of the bot's health).
 */
export function orderError(core: EngineCore, platform: PlatformWatch, code: string): void {
  if (code === EXCHANGE_UNAVAILABLE || code === CIRCUIT_OPEN) platform.unavailable(code);
  else core.enforce(core.risk.onOrderError(code, core.clock.now()));
}
