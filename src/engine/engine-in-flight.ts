import type { DesiredQuote } from "../core/trading.js";
import type { DiffPreview, QuotedToken } from "../execution/order-manager.js";
import type { TrackedOrder } from "../execution/order-state.js";
import type { RiskDecision } from "../risk/decision.js";
import type { CommittedSize } from "../risk/in-flight.js";
import type { InventoryExposure, SideLimits } from "../risk/inventory-caps.js";
import type { EngineCore } from "./engine-core.js";
import type { TokenSlot } from "./engine-tokens.js";

/** The desired quotes to hand the order manager, once fitted beside the orders still live. */
export interface InFlightFit {
  readonly desired: readonly DesiredQuote[];
  /** in_flight_clipped / in_flight_held decisions (empty when nothing had to change). */
  readonly decisions: readonly RiskDecision[];
  /** Sides with a placement held back: the token is requoted when an answer frees room there. */
  readonly held: Readonly<HeldSides>;
  /**
   * The order manager's diff of `desired`, when the fit had to work it out (hand it to
   * OrderManager.diff); undefined when the fit did not need it or changed the desired set.
   */
  readonly preview: DiffPreview | undefined;
}

/** Per side, whether a placement waits for the orders still live there. */
export interface HeldSides {
  buy: boolean;
  sell: boolean;
}

const NONE: readonly RiskDecision[] = Object.freeze([]);
const NO_SIZES: Readonly<CommittedSize> = Object.freeze({ buy: 0n, sell: 0n });
/** No side waits. */
export const NOTHING_HELD: Readonly<HeldSides> = Object.freeze({ buy: false, sell: false });

/**
 * The risk guard fits the desired quotes into each side's limit (hard cap, soft reduce-only, shares
 * held), but a requote is a cancel-replace: until the cancel lands, the old order can fill as well
 * as its replacement, and so can placements sent but unanswered and `unknown` orders. This sizes
 * the placements the order manager is about to make against the side's limit net of every other
 * order of ours on the side that stays live meanwhile (the guard's fitPlacements): clipped when
 * at least the minimum size is left, held back otherwise (removed from the desired set, so the
 * diff still cancels what it replaces; the engine requotes the token when an answer comes back).
 *
 * `inventory` counts the fills the exchange has reported but inventory has not taken yet
 * (withUnapplied, unapplied-exposure.ts): an order's remainder no longer counts them. An order
 * confirmed cancelled keeps its remainder on its side until a reconcile has read the trades matched
 * before the cancel (OrderStore.cancelled): a cancel's answer says nothing of what the order filled
 * first, and that fill's notice can come after it. When it is what holds a placement back or clips
 * it, a reconcile is asked for soon, and its end requotes the token.
 *
 * Cheap when nothing binds: if the live orders' remainders plus every desired quote fit each side,
 * no placement can overflow and the desired set goes through untouched. Otherwise the diff is
 * previewed (OrderManager.preview) to learn which placements it would make and which queued ones it
 * would retire (those never reach the exchange and do not count); when the fit changes nothing,
 * that preview is the step's diff (returned as `preview`).
 */
export function fitToLiveOrders(
  core: EngineCore,
  slot: TokenSlot,
  token: QuotedToken,
  inventory: InventoryExposure,
  allowed: readonly DesiredQuote[],
  now: number,
): InFlightFit {
  const live = core.store.live(token.tokenId);
  // Orders confirmed cancelled whose fills up to the cancel may be on their way still count.
  const cancelled = core.store.cancelled.sides(token.tokenId) ?? NO_SIZES;
  const ctx = { market: slot.market, inventory };
  const limits = core.risk.sideLimits(ctx);
  if (fitsAnyway(live, cancelled, allowed, limits)) return untouchedBy(allowed, undefined);
  const preview = core.om.preview(token, allowed, now);
  // Untouched, the order manager applies this very diff: it is not worked out twice.
  const { places: planned, superseded, withdrawn } = preview.result;
  if (planned.length === 0) return untouchedBy(allowed, preview);
  const retired = new Set([...superseded, ...withdrawn]);
  const committed = { buy: cancelled.buy, sell: cancelled.sell };
  for (const o of live) if (!retired.has(o)) committed[o.side] += remaining(o);
  const places = planned.map((p) => p.quote);
  const { fitted, decisions } = core.risk.fitPlacements(ctx, places, committed);
  if (decisions.length === 0) return untouchedBy(allowed, preview);
  // The diff's placement carries the desired quote object itself: swap it for its fitted version.
  const changed = new Map<DesiredQuote, DesiredQuote | undefined>();
  for (let i = 0; i < places.length; i++) {
    const q = places[i] as DesiredQuote;
    if (fitted[i] !== q) changed.set(q, fitted[i]);
  }
  const desired: DesiredQuote[] = [];
  for (const q of allowed) {
    const f = changed.has(q) ? changed.get(q) : q;
    if (f !== undefined) desired.push(f);
  }
  const held = { buy: false, sell: false };
  for (let i = 0; i < places.length; i++) {
    if (fitted[i] === undefined) held[(places[i] as DesiredQuote).side] = true;
  }
  // Those cancels' fills are settled by a reconcile's trade read: soon, rather than at the periodic
  // run, when they count on a side that had to keep a placement back or small. Once until a run
  // settles them: while runs fail or read short, the scheduler's backoff and periodic run pace them.
  for (const d of decisions) {
    if (d.side !== undefined && cancelled[d.side] > 0n) {
      if (core.store.cancelled.askReconcile()) core.reconcileSoon("unresolved");
      break;
    }
  }
  return { desired, decisions, held, preview: undefined };
}

function untouchedBy(allowed: readonly DesiredQuote[], preview: DiffPreview | undefined): InFlightFit {
  return { desired: allowed, decisions: NONE, held: NOTHING_HELD, preview };
}

/**
 * True when every live order's remainder, the unsettled cancelled ones' and every desired quote fit
 * each side's limit.
 */
function fitsAnyway(
  live: readonly TrackedOrder[],
  cancelled: CommittedSize,
  desired: readonly DesiredQuote[],
  limits: SideLimits,
): boolean {
  let buy = cancelled.buy;
  let sell = cancelled.sell;
  for (const o of live) {
    if (o.side === "buy") buy += remaining(o);
    else sell += remaining(o);
  }
  for (const q of desired) {
    if (q.side === "buy") buy += q.sizeMicro;
    else sell += q.sizeMicro;
  }
  return buy <= limits.buy.capMicro && sell <= limits.sell.capMicro;
}

function remaining(o: TrackedOrder): bigint {
  const r = o.sizeMicro - o.filledMicro;
  return r > 0n ? r : 0n;
}
