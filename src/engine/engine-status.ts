import type { EngineStatus } from "./engine-api.js";
import type { EngineCore } from "./engine-core.js";

/**
 * The engine's status (TradingEngine.status: /ready and the metrics' scrape-time gauges), read from
 * its core: `started` and `reconciled` are the engine's own (its start and its
 * reconcile scheduler's runs).
 */
export function engineStatus(core: EngineCore, started: boolean, reconciled: boolean): EngineStatus {
  const { store, queue, risk, tokens, positions } = core;
  let openOrders = 0;
  for (const o of store.all()) if (o.state === "open" || o.state === "cancelling") openOrders++;
  const depth = queue.depth();
  let quotingTokens = 0;
  for (const s of tokens.slots()) if (s.quoting) quotingTokens++;
  return {
    started,
    reconciled,
    quotingTokens,
    openOrders,
    queuedPlacements: depth.place,
    oldestPlacementAgeMs: queue.oldestPlacementAgeMs(),
    inFlight: depth.inFlight,
    killSwitch: risk.killSwitchActive(),
    pnlMicro: positions.pnlMicro,
    drawdownMicro: risk.killSwitchDrawdownMicro,
    backedOffLevels: core.requoteTimer.backedOff(),
  };
}
