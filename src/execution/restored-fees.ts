import type { Fill } from "../core/trading.js";
import { RATE_LIMIT_RULES, scaledLimit } from "../exchange/rate-limits.js";
import type { Inventory } from "./inventory.js";
import {
  applyTrade,
  type FeeAmount,
  moveAtPrice,
  PICO_PER_MICRO,
  type TokenAccount,
} from "./inventory-math.js";

/**
 * Fills an earlier run applied whose fee had not settled when it stopped, as the backfill sees
 * them (ReconcileState.restored): their trades bring their fee, never the fill again.
 */
export interface RestoredFills {
  /** True when the trade (stamped `tsMs`) is one of them: its fill is already in the restored account. */
  holds(tradeId: string, orderId: string, tsMs: number): boolean;
  /** Attaches (or corrects) the fee of one of them; true when it changed anything. */
  setFee(tradeId: string, orderId: string, fee: FeeAmount): boolean;
  /**
   * Applies `fill` (with `fee` when known) when it is a trade no run applied of an order an earlier
   * run left, stamped before this session (made while mm was down): it then joins these fills, and
   * the baseline gives its shares back. Returns the fill taken (its clientOrderId from the restore
   * when the trade had none); undefined, changing nothing, for any other fill.
   */
  takeMissed?(fill: Fill, fee: FeeAmount | undefined): Fill | undefined;
  /** True when a trade of `orderId` stamped `tsMs` may be such a fill (takeMissed decides). */
  misses?(orderId: string, tsMs: number): boolean;
  /**
   * While the search is on: the token of a restored order, from the journal (a trade names none), and
   * whether this run trades it. Undefined for any other order, or when the journal did not know it.
   */
  tokenOf?(orderId: string): { readonly tokenId: string; readonly traded: boolean } | undefined;
  /**
   * A trade no run journaled of a restored order on a token this run does not trade (tokenOf's
   * `traded` false): registered as journaled, so it is handed over once, and returned with its
   * clientOrderId from the restore, for the journal alone to book under its token; undefined,
   * changing nothing, for any other fill.
   */
  takeForeign?(fill: Fill): Fill | undefined;
}

/** The orders an earlier run left (the journal's restore) whose fills made while mm was down are looked for. */
export interface MissedSearch {
  /** exchange orderId → clientOrderId. */
  readonly orders: ReadonlyMap<string, string>;
  /** Their fills already journaled (so in the restored accounts). */
  readonly journaled: readonly {
    readonly tradeId: string;
    readonly orderId: string;
    readonly tsMs: number;
  }[];
  /** When the oldest of them was placed (the journaling run's clock); undefined when unknown. */
  readonly sinceMs: number | undefined;
  /** Their tokens, as the journal has them (exchange orderId → tokenId); default none. */
  readonly tokens?: ReadonlyMap<string, string>;
  /** Whether this run trades a token (its inventory holds it); default: every token. */
  readonly traded?: (tokenId: string) => boolean;
}

/**
 * Slack before the oldest restored order's placement when paging back for its trades: the
 * exchange stamps them on its own clock (the same margin as the order-history search's).
 */
export const MISSED_SEARCH_SLACK_MS = 60_000;

/**
 * The trade pages (of up to 200) the start-up reconcile reads at most while it searches for fills
 * made while mm was down, or pages back to restored fills whose fee is awaited: ten times a periodic
 * reconcile's (DEFAULT_TRADE_PAGES), so a busy wallet's history back to an order placed hours before
 * the crash is read whole. 500 reads are under a third of the wallet's 1,800 a minute for its
 * portfolio reads (GET /api/me/trades) at the baseline rateLimitPerMin, spent once, before quoting
 * starts; a lower rateLimitPerMin lowers the bound (missedSearchPages). Reaching the bound leaves
 * older trades unsearched, with a warning and the reconcile's `tradePagesCapped`.
 */
export const MISSED_SEARCH_MAX_PAGES = 500;

const ME_READS = RATE_LIMIT_RULES.find((r) => r.bucket === "me-reads");

/**
 * The missed-fills search's page bound for a partner: MISSED_SEARCH_MAX_PAGES, and at most half of
 * the wallet's `me-reads` bucket (which GET /api/me/trades shares) for one window, so that a low
 * rateLimitPerMin does not make the start-up search draw 429s (and its retries fail the start).
 * @example missedSearchPages(600) // 500; missedSearchPages(60) // 90
 */
export function missedSearchPages(rateLimitPerMin: number): number {
  if (ME_READS === undefined) return MISSED_SEARCH_MAX_PAGES;
  return Math.max(
    1,
    Math.min(MISSED_SEARCH_MAX_PAGES, Math.floor(scaledLimit(ME_READS, rateLimitPerMin) / 2)),
  );
}

/**
 * The fees of fills an earlier run applied and journaled without their fee (fees resolve after
 * settlement; a run's last fills stop before theirs do). Their fills are in the restored accounts
 * (Inventory.seed), so a fee found later for one of them is applied on its own, to the token's base:
 * a USDC fee is booked as a fee; a share fee also takes its shares out of the position at the fill's
 * price, as applyTrade would have with the fee known (total PnL is exactly that; how it splits between
 * realised PnL and the cost basis can differ when other fills came in between).
 *
 * Share fees and the baseline: a fill of an earlier run was matched before this session read the
 * wallet's positions, and the exchange credits the shares net of the fee (the mock does at match; a
 * settled fee is in any case), so the baseline already lacks those shares. `sharesOut` tells the
 * PositionBook how many to put back into it, so the absolute position stays the exchange's.
 * @example const r = new RestoredFees(inventory, restore.feePending, onFee); r.setFee("t1", "o1", fee);
 */
export class RestoredFees {
  readonly #inventory: Inventory;
  readonly #onFee: (fill: Fill, fee: FeeAmount) => void;
  readonly #awaited = new Map<string, Fill>();
  readonly #attached = new Map<string, { readonly fill: Fill; readonly fee: FeeAmount }>();
  readonly #sharesOut = new Map<string, bigint>();
  readonly #journaled = new Map<string, number>();
  readonly #orders: ReadonlyMap<string, string>;
  #ordersSinceMs: number | undefined;
  readonly #tokens: ReadonlyMap<string, string>;
  /** Orders (orderId → clientOrderId, tokenId) added at start by addOrders. */
  readonly #added = new Map<string, { readonly clientOrderId: string; readonly tokenId: string }>();
  readonly #traded: (tokenId: string) => boolean;
  /** Restored orders the store has held (see held()). */
  readonly #held = new Set<string>();
  #searching: boolean;

  /**
   * @param fills fills already in the seeded accounts of `inventory` whose fee is unknown.
   * @param onFee told of each fee attached, like Inventory's onFee (the journal, the PnL totals).
   * @param missed the restored orders whose fills made while mm was down are looked for, until
   *   endSearch (takeMissed).
   */
  constructor(
    inventory: Inventory,
    fills: readonly Fill[],
    onFee: (fill: Fill, fee: FeeAmount) => void,
    missed?: MissedSearch,
  ) {
    this.#inventory = inventory;
    this.#onFee = onFee;
    for (const f of fills) this.#awaited.set(keyOf(f.tradeId, f.orderId), f);
    this.#orders = missed?.orders ?? new Map();
    this.#ordersSinceMs = missed?.sinceMs;
    this.#tokens = missed?.tokens ?? new Map();
    this.#traded = missed?.traded ?? (() => true);
    for (const f of missed?.journaled ?? []) this.#journaled.set(keyOf(f.tradeId, f.orderId), f.tsMs);
    this.#searching = this.#orders.size > 0;
  }

  /**
   * Adds orders an earlier run left whose ids the restore did not have (placements without a
   * definite answer, found by clientOrderId at start): their fills made while mm was down are looked
   * for as the other restored orders'. Only before endSearch.
   */
  addOrders(
    orders: readonly {
      readonly orderId: string;
      readonly clientOrderId: string;
      readonly tokenId: string;
      readonly placedAtMs: number;
    }[],
  ): void {
    for (const o of orders) {
      const first = this.#orders.size + this.#added.size === 0;
      this.#added.set(o.orderId, { clientOrderId: o.clientOrderId, tokenId: o.tokenId });
      // Undefined with orders restored means "page back to all": kept so.
      if (first || (this.#ordersSinceMs !== undefined && o.placedAtMs < this.#ordersSinceMs)) {
        this.#ordersSinceMs = o.placedAtMs;
      }
    }
    if (orders.length > 0) this.#searching = true;
  }

  /** exchange orderId → clientOrderId of the restored orders (the restore's and those added). */
  orders(): ReadonlyMap<string, string> {
    if (this.#added.size === 0) return this.#orders;
    return new Map([...this.#orders, ...[...this.#added].map(([id, a]) => [id, a.clientOrderId] as const)]);
  }

  /**
   * The restored orders (orders()) the engine's order store holds now or held at an earlier call
   * (adopted at start, live or ended since), by exchange id. Called before the store forgets ended
   * orders (OrderStore.prune) as well as when read, so that one adopted, ended and pruned stays
   * known as this run's: the stop's count must not take it again for one the journal says may rest
   * (StopCount.held). Bounded by the restore's orders.
   * @example const held = restored.held(store); // before store.prune(…), and at the stop
   */
  held(store: { byOrderId(orderId: string): unknown }): ReadonlySet<string> {
    for (const id of this.orders().keys()) {
      if (!this.#held.has(id) && store.byOrderId(id) !== undefined) this.#held.add(id);
    }
    return this.#held;
  }

  /**
   * While fills made while mm was down are looked for: how far back their trades may go (the oldest
   * restored order's placement, less MISSED_SEARCH_SLACK_MS; -Infinity when unknown). Undefined
   * once the search is over or when there is nothing to look for.
   */
  searchFromMs(): number | undefined {
    if (!this.#searching) return undefined;
    const since = this.#ordersSinceMs;
    return since === undefined ? Number.NEGATIVE_INFINITY : since - MISSED_SEARCH_SLACK_MS;
  }

  /** True while the search is on and `orderId` is an order an earlier run left: its older trades are wanted. */
  searches(orderId: string): boolean {
    return this.#searching && this.#cidOf(orderId) !== undefined;
  }

  /**
   * Ends the search (after the first reconcile that paged back to searchFromMs): a later trade of
   * those orders is this session's, and an older one was found then or is left in the baseline.
   */
  endSearch(): void {
    this.#searching = false;
  }

  /** How many restored orders the search for fills made while mm was down covers (0 once over). */
  get searching(): number {
    return this.#searching ? this.#orders.size + this.#added.size : 0;
  }

  /** Fills whose fee is still awaited. */
  get awaiting(): number {
    return this.#awaited.size;
  }

  /** The time of the oldest fill whose fee is awaited (the backfill pages back to it); undefined when none. */
  oldestAwaitedMs(): number | undefined {
    let oldest: number | undefined;
    for (const f of this.#awaited.values()) if (oldest === undefined || f.tsMs < oldest) oldest = f.tsMs;
    return oldest;
  }

  /** True while the fee of the fill (tradeId, orderId) is awaited. */
  awaits(tradeId: string, orderId: string): boolean {
    return this.#awaited.has(keyOf(tradeId, orderId));
  }

  /**
   * The backfill's view: the trades that are these fills (awaited or with their fee attached), by
   * (tradeId, orderId) and time: stamped before `sessionStartMs`, or within a second of the fill (an
   * exchange clock a little ahead of ours). A trade of this session reusing the ids (a paper mock
   * with a kept journal replays its seeded ids) is a new fill.
   */
  before(sessionStartMs: number): RestoredFills {
    return {
      holds: (tradeId, orderId, tsMs) => {
        const key = keyOf(tradeId, orderId);
        const at =
          this.#awaited.get(key)?.tsMs ?? this.#attached.get(key)?.fill.tsMs ?? this.#journaled.get(key);
        return at !== undefined && (tsMs < sessionStartMs || Math.abs(tsMs - at) <= SAME_TRADE_MS);
      },
      setFee: (tradeId, orderId, fee) => this.setFee(tradeId, orderId, fee),
      takeMissed: (fill, fee) => this.#takeMissed(fill, fee, sessionStartMs),
      misses: (orderId, tsMs) => tsMs < sessionStartMs && this.searches(orderId),
      tokenOf: (orderId) => this.#tokenOf(orderId),
      takeForeign: (fill) => this.#takeForeign(fill),
    };
  }

  #tokenOf(orderId: string): { tokenId: string; traded: boolean } | undefined {
    const tokenId = this.searches(orderId)
      ? (this.#tokens.get(orderId) ?? this.#added.get(orderId)?.tokenId)
      : undefined;
    return tokenId === undefined ? undefined : { tokenId, traded: this.#traded(tokenId) };
  }

  /**
   * A fill of a restored order on a token this run does not trade, no run journaled: this run's
   * inventory, baseline and PnL know nothing of that token, so it is only handed over (once) for the
   * journal to book under its token, where the next run that trades it restores it. Whether it was
   * made before or after the session start does not matter there: the baseline of that next run is
   * read then.
   */
  #takeForeign(fill: Fill): Fill | undefined {
    if (!this.searches(fill.orderId) || this.#traded(fill.tokenId)) return undefined;
    const key = keyOf(fill.tradeId, fill.orderId);
    if (this.#awaited.has(key) || this.#attached.has(key) || this.#journaled.has(key)) return undefined;
    this.#journaled.set(key, fill.tsMs);
    return { ...fill, clientOrderId: fill.clientOrderId ?? this.#cidOf(fill.orderId) };
  }

  /**
   * A fill of a restored order made before this session that no run applied: the exchange's
   * positions at the session start hold it, so it goes where the restored fills are, into the
   * token's base (before every fill of this session), and the shares it moved go into sharesOut
   * (negative for a BUY), for the baseline to give back; its fee then follows setFee's path (now,
   * or from a later reconcile that pages back to it while it is awaited).
   */
  #takeMissed(fill: Fill, fee: FeeAmount | undefined, sessionStartMs: number): Fill | undefined {
    if (!this.searches(fill.orderId) || !(fill.tsMs < sessionStartMs)) return undefined;
    const key = keyOf(fill.tradeId, fill.orderId);
    if (this.#awaited.has(key) || this.#attached.has(key) || this.#journaled.has(key)) return undefined;
    const f: Fill = { ...fill, clientOrderId: fill.clientOrderId ?? this.#cidOf(fill.orderId) };
    this.#inventory.amendBase(f.tokenId, (base) => applyTrade(base, f.side, f.priceMicro, f.sizeMicro));
    const moved = f.side === "buy" ? -f.sizeMicro : f.sizeMicro;
    this.#sharesOut.set(f.tokenId, this.sharesOut(f.tokenId) + moved);
    this.#awaited.set(key, f);
    if (fee !== undefined) this.setFee(f.tradeId, f.orderId, fee);
    return f;
  }

  #cidOf(orderId: string): string | undefined {
    return this.#orders.get(orderId) ?? this.#added.get(orderId)?.clientOrderId;
  }

  /** Attaches the fee of a restored fill (or corrects it); true when it changed anything. */
  setFee(tradeId: string, orderId: string, fee: FeeAmount): boolean {
    const key = keyOf(tradeId, orderId);
    const prior = this.#attached.get(key);
    const fill = this.#awaited.get(key) ?? prior?.fill;
    if (fill === undefined) return false;
    if (prior !== undefined && prior.fee.asset === fee.asset && prior.fee.amountMicro === fee.amountMicro) {
      return false;
    }
    this.#inventory.amendBase(fill.tokenId, (base) => {
      const undone = prior === undefined ? base : feeAlone(base, fill, prior.fee, -1n);
      return feeAlone(undone, fill, fee, 1n);
    });
    const moved = sharesPaid(fill, fee) - (prior === undefined ? 0n : sharesPaid(fill, prior.fee));
    if (moved !== 0n) this.#sharesOut.set(fill.tokenId, this.sharesOut(fill.tokenId) + moved);
    this.#awaited.delete(key);
    this.#attached.set(key, { fill, fee });
    this.#onFee(fill, fee);
    return true;
  }

  /**
   * Stops waiting for the fees of fills stamped before `ms` (a fee that has not settled by then is
   * taken as never coming: the backfill stops paging back for it). Returns those fills.
   */
  expire(ms: number): Fill[] {
    const out: Fill[] = [];
    for (const [key, f] of this.#awaited) {
      if (f.tsMs >= ms) continue;
      this.#awaited.delete(key);
      out.push(f);
    }
    return out;
  }

  /**
   * Shares taken out of the token's position (relative to the baseline) by what this object applied
   * that the exchange's positions at the session start already held: attached share fees, and
   * (negative for a BUY) the fills taken by takeMissed.
   */
  sharesOut(tokenId: string): bigint {
    return this.#sharesOut.get(tokenId) ?? 0n;
  }
}

/** The shares a fee takes from a position (applyTrade's rule: a buyer pays at most what it receives). */
function sharesPaid(fill: Fill, fee: FeeAmount): bigint {
  if (fee.asset !== "shares" || fee.amountMicro <= 0n) return 0n;
  return fill.side === "buy" && fee.amountMicro > fill.sizeMicro ? fill.sizeMicro : fee.amountMicro;
}

/**
 * The fee of `fill` applied on its own to an account that already holds the fill (sign 1), or taken
 * back out (sign -1): what applyTrade(…, fee) adds to applyTrade(…) without it.
 */
export function feeAlone(acc: TokenAccount, fill: Fill, fee: FeeAmount, sign: 1n | -1n): TokenAccount {
  if (fee.amountMicro <= 0n) return acc;
  const price = BigInt(fill.priceMicro);
  if (fee.asset === "usdc")
    return { ...acc, feesPico: acc.feesPico + sign * fee.amountMicro * PICO_PER_MICRO };
  const paid = sharesPaid(fill, fee);
  const moved = moveAtPrice(acc, -sign * paid, price);
  return {
    ...moved,
    feesPico: acc.feesPico + sign * price * paid,
    feeSharesMicro: acc.feeSharesMicro + sign * paid,
  };
}

/** A trade record's createdAt and its fill's tsMs are taken as one instant, within this. */
const SAME_TRADE_MS = 1_000;

function keyOf(tradeId: string, orderId: string): string {
  return `${tradeId}\u0000${orderId}`;
}
