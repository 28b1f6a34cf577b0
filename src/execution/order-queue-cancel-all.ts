import type { QueueState } from "./order-queue-state.js";
import type { RateBudget } from "./rate-budget.js";

/** What the queue knows about one market when it considers replacing its single cancels. */
export interface CancelAllChoice {
  /** Single cancels queued for the market (each with an orderId). */
  pendingCancels: number;
  /**
   * Every order of ours that may rest in the market is on its way out (queued or in-flight cancel) or
   * not on the exchange yet (queued placement), so cancel-all removes nothing we want.
   */
  allCovered: boolean;
  /** Placements of the market sent and not answered: cancel-all could remove them as they land. */
  placementsInFlight: number;
  /** Tokens of the cancel and cancel-all buckets available now. */
  cancelTokensNow: number;
  cancelAllTokensNow: number;
  /** Per-second limits of the two buckets (the cost of one request is 1 / limit of a second's budget). */
  cancelPerSecond: number;
  cancelAllPerSecond: number;
  /** The exchange offers cancel-all (a 501 turns it off). */
  cancelAllAvailable: boolean;
}

/**
 * The cancel-all substitution rule. Replace a market's N single cancels by one cancel-all(marketId)
 * when it is safe and cheaper:
 * - safe: cancel-all is available, every resting order of ours in that market is being cancelled anyway
 *   (so nothing wanted is lost), and no placement of that market is in flight (it could land before the
 *   cancel-all and be removed behind the order manager's back);
 * - worth it: N ≥ 2 and a cancel-all token is free now;
 * - cheaper: N singles cost N / cancelLimit of a second's cancel budget and one cancel-all costs
 *   1 / cancelAllLimit of its own, so with the baseline 20/s and 5/s it pays from 5 cancels up; or the
 *   cancel bucket cannot send all N right now, so the singles would wait while cancel-all need not.
 * @example
 * preferCancelAll({ pendingCancels: 6, allCovered: true, placementsInFlight: 0, cancelTokensNow: 20,
 *   cancelAllTokensNow: 5, cancelPerSecond: 20, cancelAllPerSecond: 5, cancelAllAvailable: true }) // true
 */
export function preferCancelAll(c: CancelAllChoice): boolean {
  if (!c.cancelAllAvailable || !c.allCovered || c.placementsInFlight > 0) return false;
  if (c.pendingCancels < 2 || c.cancelAllTokensNow < 1) return false;
  const singlesCost = c.pendingCancels / c.cancelPerSecond;
  const cancelAllCost = 1 / c.cancelAllPerSecond;
  return singlesCost > cancelAllCost || c.pendingCancels > c.cancelTokensNow;
}

/** What {@link substituteCancelAlls} reads and changes. */
export interface SubstitutionInput {
  state: QueueState;
  budget: RateBudget;
  /** clientOrderIds of our orders that may rest in a market (from the order manager). */
  restingOrders: (marketId: string) => Iterable<string>;
  now: number;
  onSubstituted?: ((marketId: string, cancels: number) => void) | undefined;
}

/**
 * Applies {@link preferCancelAll} to every market with at least two queued cancels, unless a
 * cancel-all of it failed lately (QueueState.maySubstitute): where it holds, the market's cancels
 * move under a new cancel-all (reported as `covered` once it succeeds).
 */
export function substituteCancelAlls(input: SubstitutionInput): void {
  const { state, budget, now } = input;
  if (!state.cancelAllAvailable) return;
  let allTokens = budget.available("cancel_all", now);
  const blocked = state.blockedMarkets();
  const candidates = [...state.cancels.markets()].filter(
    ([m, n]) => n >= 2 && !blocked.has(m) && !blocked.has("*") && state.maySubstitute(m, now),
  );
  for (const [marketId, n] of candidates) {
    const ok = preferCancelAll({
      pendingCancels: n,
      allCovered: allCovered(state, input.restingOrders(marketId)),
      placementsInFlight: placementsInFlight(state, marketId),
      cancelTokensNow: budget.available("cancel", now),
      cancelAllTokensNow: allTokens,
      cancelPerSecond: budget.ratePerSecond("cancel"),
      cancelAllPerSecond: budget.ratePerSecond("cancel_all"),
      cancelAllAvailable: true,
    });
    if (!ok) continue;
    allTokens--;
    const covered = state.cancels.takeMarket(marketId);
    state.cancelAlls.push({
      intents: [],
      marketId,
      covered,
      seq: state.nextSeq(),
      enqueuedAt: now,
      attempts: 0,
    });
    state.stats.substitutions++;
    input.onSubstituted?.(marketId, covered.length);
  }
}

function allCovered(state: QueueState, resting: Iterable<string>): boolean {
  for (const coid of resting) {
    const going = state.cancels.has(coid) || state.inFlightCancels.has(coid);
    if (!going && state.places.byClientOrderId(coid) === undefined) return false;
  }
  return true;
}

function placementsInFlight(state: QueueState, marketId: string): number {
  let n = 0;
  for (const p of state.inFlightPlaces.values()) if (p.intent.marketId === marketId) n++;
  return n;
}
