import { MARKET_STATUSES } from "../../core/types.js";
import { FEE_TOO_HIGH_STATUS } from "../../engine/fee-cap.js";
import { REFUSED_STATUS } from "../../engine/market-refusals.js";
import { NOT_FOUND_STATUS } from "../../engine/sweep-words.js";
import type { GateReason, RiskDecision } from "../../risk/decision.js";

/**
 * The halts the risk guard can take, by scope: wallet-wide (every quote cancelled, then a cancel-all
 * of the wallet) and market-wide (a cancel-all of one market). Token-scoped gates (book_crossed,
 * book_resyncing, book_stale) are counted as decisions, not halts.
 */
export const GATE_REASONS_BY_SCOPE: Readonly<Record<"wallet" | "market", readonly GateReason[]>> = {
  wallet: ["kill_switch", "platform_frozen", "error_rate_halt"],
  market: ["market_not_open", "market_unquotable"],
};

/** A market status that is none of the spec's nor the engine's (the label stays bounded). */
export const OTHER_STATUS = "other";

/**
 * Every `status` label a market halt can carry: the spec's statuses but OPEN (which halts nothing),
 * NOT_OPEN (a placement refused `market_not_open` with no word on the status: market-refusals.ts),
 * NOT_FOUND (a quoted market the open-market sweep found neither listed nor by its slug: gone from
 * the exchange, which an operator must tell from a status the exchange sent outside the spec),
 * FEE_TOO_HIGH (`market_unquotable`: an OPEN market whose feeTakerBps is above the cap, fee-cap.ts)
 * and `other`.
 */
export const HALT_STATUSES: readonly string[] = [
  ...MARKET_STATUSES.filter((s) => s !== "OPEN"),
  REFUSED_STATUS,
  NOT_FOUND_STATUS,
  FEE_TOO_HIGH_STATUS,
  OTHER_STATUS,
];
const KNOWN = new Set(HALT_STATUSES);

/**
 * The `status` labels a market halt of `reason` can carry: market_unquotable's are its whys
 * (FEE_TOO_HIGH), market_not_open's every other one (its zero series are made for these only).
 * @example haltStatusesOf("market_unquotable") // ["FEE_TOO_HIGH", "other"]
 */
export function haltStatusesOf(reason: GateReason): readonly string[] {
  const unquotable = reason === "market_unquotable";
  return HALT_STATUSES.filter((s) => s === OTHER_STATUS || (s === FEE_TOO_HIGH_STATUS) === unquotable);
}

/**
 * The `status` label of a halt: for a market halt, the status that gated the market (its closesAt
 * passing counts as CLOSED), so that alerts can tell a market's ordinary lifecycle (closed,
 * resolved) from a pause or an unexplained refusal; undefined for a wallet halt.
 * @example haltStatus(marketDecision("market_not_open", "m1", { status: "RESOLVED" })) // "RESOLVED"
 */
export function haltStatus(d: Pick<RiskDecision, "scope" | "detail">): string | undefined {
  if (d.scope !== "market") return undefined;
  const status = d.detail.status;
  return typeof status === "string" && KNOWN.has(status) ? status : OTHER_STATUS;
}
