import type { CancelReason, Intent } from "../execution/intents.js";
import type { OrderStore } from "../execution/order-store.js";
import { GATE_REASONS, type GateReason, type RiskDecision } from "../risk/decision.js";
import type { EngineEvent } from "./engine-events.js";

/* Built from the gate list itself, which CANCEL_REASONS (intents.ts) spreads: a new gate needs no edit. */
const GATES: ReadonlySet<string> = new Set(GATE_REASONS);

/**
 * The cancel reason of an enforced risk decision: a gate's own reason (every wallet, market and
 * token decision is a gate's: decision.ts walletDecision/marketDecision/tokenDecision), anything
 * else a risk limit.
 * @example gateCancelReason(walletDecision("kill_switch")) // "kill_switch"
 */
export function gateCancelReason(d: Pick<RiskDecision, "reason">): CancelReason {
  return GATES.has(d.reason) ? (d.reason as GateReason) : "risk_limit";
}

/**
 * The diff's cancels named by what emptied their level: the diff sees only the desired quotes that
 * came through, so an order whose level the risk guard dropped (a limit, a price check) or whose
 * replacement the in-flight fit held back (engine-in-flight.ts: the level is still requoted, its
 * placement waits) is `not_desired` there. Such a cancel becomes `risk_limit`, respectively
 * `requote` — or, for a queued placement never sent (withdrawn: its cancel has no orderId),
 * `risk_limit`, respectively `superseded` (a newer quote for the level replaced it; it waits).
 * Returns `intents` itself when nothing changes (the usual step: no drop), else a copy.
 */
export function namedCancels(
  intents: readonly Intent[],
  store: OrderStore,
  guard: readonly RiskDecision[],
  fit: readonly RiskDecision[],
): readonly Intent[] {
  if (!hasDrop(guard) && !hasDrop(fit)) return intents;
  let out: Intent[] | undefined;
  for (let i = 0; i < intents.length; i++) {
    const c = intents[i] as Intent;
    if (c.kind !== "cancel" || c.reason !== "not_desired") continue;
    const o = store.get(c.clientOrderId);
    if (o === undefined) continue;
    const reason = levelReason(guard, fit, o.side, o.level, c.orderId === undefined);
    if (reason === undefined) continue;
    out ??= [...intents];
    out[i] = { ...c, reason };
  }
  return out ?? intents;
}

function hasDrop(ds: readonly RiskDecision[]): boolean {
  for (const d of ds) if (d.action === "drop") return true;
  return false;
}

function levelReason(
  guard: readonly RiskDecision[],
  fit: readonly RiskDecision[],
  side: string,
  level: number,
  unsent: boolean,
): CancelReason | undefined {
  for (const d of guard) if (d.action === "drop" && d.side === side && d.level === level) return "risk_limit";
  for (const d of fit) {
    if (d.action === "drop" && d.side === side && d.level === level) return unsent ? "superseded" : "requote";
  }
  return undefined;
}

/** The `cancel_requested` event of each cancel and cancel-all among `intents` (none: nothing emitted). */
export function emitCancelRequests(
  intents: readonly Intent[],
  atMs: number,
  emit: (e: EngineEvent) => void,
): void {
  for (const i of intents) {
    if (i.kind === "cancel") {
      emit({
        type: "cancel_requested",
        atMs,
        reason: i.reason,
        scope: "order",
        marketId: i.marketId,
        clientOrderId: i.clientOrderId,
      });
    } else if (i.kind === "cancel_all") {
      emit({
        type: "cancel_requested",
        atMs,
        reason: i.reason,
        scope: i.marketId === undefined ? "wallet" : "market",
        marketId: i.marketId,
        clientOrderId: undefined,
      });
    }
  }
}
