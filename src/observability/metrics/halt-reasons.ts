import type { GateReason } from "../../risk/decision.js";

/**
 * The halts the risk guard can take, by scope: wallet-wide (every quote cancelled, then a cancel-all
 * of the wallet) and market-wide (a cancel-all of one market). Token-scoped gates (book_crossed,
 * book_resyncing, book_stale) are counted as decisions, not halts.
 */
export const GATE_REASONS_BY_SCOPE: Readonly<Record<"wallet" | "market", readonly GateReason[]>> = {
  wallet: ["kill_switch", "platform_frozen", "error_rate_halt"],
  market: ["market_not_open"],
};
