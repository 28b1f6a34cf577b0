import type { ChannelEvent } from "./schema/events.js";

/** A market's new status, and the resolution's payout numerators when the event carried them. */
export interface LifecycleChange {
  readonly conditionId: string;
  readonly status: string;
  readonly payouts?: Readonly<Record<string, string>>;
}

/**
 * The condition and the market status a condition_lifecycle event implies (paused → PAUSED,
 * unpaused → OPEN, resolved → RESOLVED, market_status → its status); undefined for other events.
 * Used by the daemon's feeds and the backtest's replay alike.
 * @example lifecycleStatus({ type: "market_paused", conditionId: "0xab…", … }) // { conditionId: "0xab…", status: "PAUSED" }
 */
export function lifecycleStatus(e: ChannelEvent): LifecycleChange | undefined {
  switch (e.type) {
    case "market_paused":
      return { conditionId: e.conditionId, status: "PAUSED" };
    case "market_unpaused":
      return { conditionId: e.conditionId, status: "OPEN" };
    case "market_resolved":
      return e.payouts === undefined
        ? { conditionId: e.conditionId, status: "RESOLVED" }
        : { conditionId: e.conditionId, status: "RESOLVED", payouts: e.payouts };
    case "market_status":
      return { conditionId: e.conditionId, status: e.status };
    default:
      return undefined;
  }
}
