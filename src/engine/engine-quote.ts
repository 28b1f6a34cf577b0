import type { StrategyContext } from "../../strategies/types.js";
import { sigma } from "../../strategies/volatility.js";
import type { BookState } from "../book/book-state.js";
import { bookWithout } from "../book/net-book.js";
import type { BookView } from "../book/order-book.js";
import type { DesiredQuote } from "../core/trading.js";
import type { Intent } from "../execution/intents.js";
import { type GateReason, type RiskDecision, type RiskReason, tokenDecision } from "../risk/decision.js";
import type { BookHealth } from "../risk/gates.js";
import type { InventoryExposure } from "../risk/inventory-caps.js";
import { namedCancels } from "./cancel-reasons.js";
import type { EngineCore } from "./engine-core.js";
import { fitToLiveOrders, NOTHING_HELD } from "./engine-in-flight.js";
import type { TokenSlot } from "./engine-tokens.js";
import { judgedQuotes } from "./judged-quotes.js";
import { IN_BOOK, openQuotes } from "./open-quotes.js";
import { type SideDemand, type StepInputs, TOUCH_READ } from "./quote-memo.js";
import { callStrategy } from "./strategy-call.js";
import { withUnapplied } from "./unapplied-exposure.js";

const WALLET_GATES: ReadonlySet<GateReason> = new Set(["kill_switch", "platform_frozen", "error_rate_halt"]);

/** How the risk guard judges a token whose tracker has not reported yet: waiting for its snapshot. */
const NO_BOOK: BookHealth = { status: "resyncing", crossed: false };

const NONE: readonly Intent[] = Object.freeze([]);
const NO_DECISIONS: readonly RiskDecision[] = Object.freeze([]);

/** What one step did, for its memo. */
interface Step {
  readonly intents: readonly Intent[];
  /** What the strategy read (QuoteMemo bits); 0 when it did not run. */
  readonly reads: number;
  /** Handed to the decision log; undefined when the step logged none. */
  readonly decisions: readonly RiskDecision[] | undefined;
  /** Which desired quotes the guard judged (judged-quotes.ts; true: all, as under a gate). */
  readonly judged: boolean | number;
  readonly failed: boolean;
  /** The in-flight fit changed a placement (its decisions are not the memo's to replay). */
  readonly fitted: boolean;
  /** What the quotes took of each side's limit, when no inventory limit cut them (QuoteMemo.within). */
  readonly demand: SideDemand | undefined;
}

/** A gated step reads no limit: any limits give the same step. */
const NO_DEMAND: SideDemand = Object.freeze({ buy: 0n, sell: 0n });

/** The inventory limits cut quotes with these reasons (inventory-caps.ts). */
const INVENTORY_REASONS: ReadonlySet<RiskReason> = new Set([
  "soft_cap_reduce_only",
  "hard_cap_size_clipped",
  "hard_cap_side_blocked",
  "insufficient_shares",
]);

/**
 * One quoting step for one token: strategy → risk → order manager → queue.
 * - Quoting disabled (before start, while stopping), or a risk gate holding (kill switch, platform
 *   frozen, error halt, market not OPEN, book crossed / resyncing / stale): the token's live quotes are
 *   cancelled and nothing is placed.
 * - Otherwise, with a quotable book (the tracker says synced and not crossed): the strategy quotes
 *   from the context (inventory relative to the baseline, σ, the clock's time), the risk guard
 *   filters, the placements are sized beside the orders still live on their side (a cancel-replace
 *   in flight: engine-in-flight.ts), and the order manager turns the difference with the live
 *   orders into intents.
 * - A book that is not quotable without a gate (one side empty) gives the strategy nothing to quote
 *   from; the desired set is empty, so live quotes go.
 * A strategy that throws is logged and treated as "no quote" (never a made-up price): strategy-call.ts.
 * A step whose inputs have not changed since the token's last step, when that step sent nothing,
 * would send nothing again: it is skipped (see QuoteMemo), its risk decisions reported again.
 * @returns the intents sent (for tests and the benchmark).
 */
export function quoteToken(core: EngineCore, tokenId: string): readonly Intent[] {
  const slot = core.tokens.get(tokenId);
  if (slot === undefined) return NONE;
  const now = core.clock.now();
  const gate = core.risk.mustCancel(tokenId, now);
  // Read once per step: the memo's inputs, its limits check and the step itself all see this one.
  const inventory = stepExposure(core, tokenId);
  const inputs = stepInputs(core, slot, gate, now, inventory);
  const limits = () => core.risk.sideLimits({ market: slot.market, inventory });
  if (slot.memo.holds(inputs) || slot.memo.within(inputs, limits)) {
    const decisions = slot.memo.decisions;
    if (decisions !== undefined) core.decisions.step(tokenId, decisions, now, slot.memo.judged);
    return NONE;
  }
  const step = runStep(core, slot, gate, now, inputs.net, inventory);
  if (step.intents.length === 0 && !step.failed && !step.fitted) {
    slot.memo.remember(inputs, step.reads, step.decisions, step.judged, step.demand);
    // Its quotes may change with time alone: stepped again on the requote timer.
    if (slot.memo.timeBound) core.requoteTimer.want();
  } else slot.memo.forget(step.failed ? 0 : step.reads);
  return step.intents;
}

function stepInputs(
  core: EngineCore,
  slot: TokenSlot,
  gate: GateReason | undefined,
  now: number,
  exposure: InventoryExposure,
): StepInputs {
  const tokenId = slot.market.tokenId;
  const book = slot.book;
  return {
    enabled: core.quotingEnabled(),
    gate,
    market: slot.market,
    bookState: slot.bookState,
    book,
    // The strategy prices against the rest of the market: our own orders are taken out of it.
    net: book === undefined ? undefined : marketBook(core, slot, book),
    positionMicro: exposure.positionMicro,
    marketGrossMicro: exposure.marketGrossMicro,
    totalGrossMicro: exposure.totalGrossMicro,
    marketWorstMicro: exposure.marketWorstMicro,
    totalWorstMicro: exposure.totalWorstMicro,
    orders: core.store.version(tokenId),
    nowMs: now,
    volatility: sigma(slot.vol),
  };
}

/**
 * `book` as the rest of the market shows it: without our own resting orders when the feed shows
 * them (EngineOptions.feedShowsOwnOrders), else as it is. What the strategy prices from, σ follows
 * and positions are marked at, so that our own quotes never move any of them.
 *
 * Built once per change of our orders: a book update needs it twice (onBook for σ and the mark,
 * then the quoting step a microtask later), so the token's slot keeps the last one built and hands
 * it out again while the token's orders are as they were (the store's version); our orders changing
 * in between (an answer, a fill) builds a fresh one. The net book reads `book` live, so reusing it
 * across changes of the book itself answers exactly as a new one would.
 */
export function marketBook(core: EngineCore, slot: TokenSlot, book: BookView): BookView {
  if (!core.options.feedShowsOwnOrders) return book;
  const tokenId = slot.market.tokenId;
  const version = core.store.version(tokenId);
  const last = slot.net;
  // The sides too: a BookView may swap its sides for new objects.
  if (last?.version === version && last.book === book && last.bids === book.bids && last.asks === book.asks) {
    return last.view;
  }
  const view = bookWithout(book, openQuotes(core.store, tokenId, IN_BOOK));
  slot.net = { book, bids: book.bids, asks: book.asks, version, view };
  return view;
}

function runStep(
  core: EngineCore,
  slot: TokenSlot,
  gate: GateReason | undefined,
  now: number,
  net: BookView | undefined,
  inventory: InventoryExposure,
): Step {
  const tokenId = slot.market.tokenId;
  const token = { tokenId, marketId: slot.market.marketId, tickMicro: slot.market.tickMicro };
  if (!core.quotingEnabled() || gate !== undefined || slot.strategy === undefined) {
    slot.quoting = false;
    const reason = gate ?? (core.quotingEnabled() ? "no_strategy" : "quoting_disabled");
    let decisions: RiskDecision[] | undefined;
    // Wallet-wide gates were logged once when they tripped; token and market gates are logged per token.
    if (gate !== undefined && !WALLET_GATES.has(gate)) {
      decisions = [tokenDecision(gate, tokenId, token.marketId)];
      core.decisions.step(tokenId, decisions, now);
    }
    slot.awaiting = NOTHING_HELD;
    core.decisions.inFlight(tokenId, NO_DECISIONS, now);
    const intents = finish(core, tokenId, core.om.cancelAllFor(tokenId, reason, now), 0, now);
    return { intents, reads: 0, decisions, judged: true, failed: false, fitted: false, demand: NO_DEMAND };
  }
  const health: BookHealth = slot.bookState ?? NO_BOOK;
  const quoted =
    net === undefined || !isQuotable(slot.bookState)
      ? undefined
      : strategyQuotes(core, slot, net, now, inventory.positionMicro);
  const desired = quoted?.quotes ?? [];
  // Whatever the strategy, none of its quotes goes through the touch of the book it was given (the
  // guard drops it): read only when there is a quote to judge, no allocation either way.
  const touched = net !== undefined && desired.length > 0;
  const { allowed, decisions } = core.risk.filter(
    {
      market: slot.market,
      book: health,
      inventory,
      bestBidMicro: touched ? net.bids.bestPrice() : undefined,
      bestAskMicro: touched ? net.asks.bestPrice() : undefined,
    },
    desired,
    now,
  );
  // A quote the strategy did not desire (a one-sided book, a band skipped at the price edge) was not
  // judged: it does not end a standing limit on it.
  const judged = quoted === undefined ? 0 : judgedQuotes(quoted.quotes);
  core.decisions.step(tokenId, decisions, now, judged);
  slot.quoting = allowed.length > 0;
  // Sized beside the orders that stay live through the cancel-replace (engine-in-flight.ts).
  const fit = fitToLiveOrders(core, slot, token, inventory, allowed, now);
  core.decisions.inFlight(tokenId, fit.decisions, now);
  slot.awaiting = fit.held;
  const diffed = core.om.diff(token, fit.desired, now, fit.preview);
  const intents = finish(
    core,
    tokenId,
    namedCancels(diffed, core.store, decisions, fit.decisions),
    allowed.length,
    now,
  );
  return {
    intents,
    // The guard's touch check makes the step depend on the best prices, read by the strategy or not.
    reads: (quoted?.reads ?? 0) | (touched ? TOUCH_READ : 0),
    decisions,
    judged,
    failed: quoted?.failed === true,
    fitted: fit.decisions.length > 0,
    demand: demandOf(allowed, decisions),
  };
}

/** What the risk caps see for the token in a step. */
function stepExposure(core: EngineCore, tokenId: string): InventoryExposure {
  // Fills the exchange reported that inventory has not taken yet count as position (unapplied-exposure.ts).
  return withUnapplied(core.positions.exposure(tokenId), core.store.unapplied(tokenId));
}

/** Each side's total of the allowed quotes; undefined when an inventory limit cut some. */
function demandOf(
  allowed: readonly DesiredQuote[],
  decisions: readonly RiskDecision[],
): SideDemand | undefined {
  for (const d of decisions) if (INVENTORY_REASONS.has(d.reason)) return undefined;
  let buy = 0n;
  let sell = 0n;
  for (const q of allowed) {
    if (q.side === "buy") buy += q.sizeMicro;
    else sell += q.sizeMicro;
  }
  return { buy, sell };
}

function finish(
  core: EngineCore,
  tokenId: string,
  intents: readonly Intent[],
  desired: number,
  now: number,
): readonly Intent[] {
  if (intents.length === 0) return intents;
  let places = 0;
  for (const i of intents) if (i.kind === "place") places++;
  // Reported before sending: the queue may start signing synchronously, and this marks the step's end.
  core.emit({ type: "quote", atMs: now, tokenId, desired, places, cancels: intents.length - places });
  // New orders created now: replaced before their expiry even on a quiet book (order-renewal.ts).
  if (places > 0) core.orderRenewal.placed(now);
  core.send(intents);
  return intents;
}

function isQuotable(state: BookState | undefined): boolean {
  return state?.quotable === true;
}

/**
 * The strategy's quotes from `net` (the book without our orders), with what it read (the memo's
 * dependencies). `positionMicro` is the step's position, fills the exchange reported but inventory
 * has not taken yet included: the one the risk guard judges, so a strategy's own inventory bound
 * and skew never run one fill behind it.
 */
function strategyQuotes(
  core: EngineCore,
  slot: TokenSlot,
  net: BookView,
  now: number,
  positionMicro: bigint,
): { quotes: DesiredQuote[]; reads: number; failed: boolean } {
  const { market, bookState, strategy } = slot;
  if (bookState === undefined || strategy === undefined) {
    return { quotes: [], reads: 0, failed: false };
  }
  const watched = slot.watched;
  watched.watch(net);
  const vol = slot.vol;
  const ctx: StrategyContext = {
    market,
    book: watched,
    bookState: bookState.status,
    quotable: true,
    inventory: positionMicro,
    openQuotes: openQuotes(core.store, market.tokenId),
    get nowMs() {
      watched.noteTime();
      return now;
    },
    get volatility() {
      watched.noteVolatility();
      return sigma(vol);
    },
  };
  const quotes = callStrategy(core.strategies, market.tokenId, strategy, ctx, now);
  return { quotes: quotes ?? [], reads: watched.reads, failed: quotes === undefined };
}
