import type { Side } from "../../core/types.js";
import { cancelFrontShare, DEFAULT_QUEUE_MODEL, type QueueModelSpec } from "./queue-model-spec.js";

/** A resting order's unfilled size, read when a trade reaches it (BotOrders keeps it current). */
export interface Resting {
  readonly remaining: bigint;
}

/** For callers that track queue places only: an order that no trade can fill whole. */
const UNBOUNDED: Resting = { remaining: 2n ** 128n };

interface Place {
  readonly orderId: string;
  readonly price: bigint;
  readonly order: Resting;
  /** Recorded size ahead of the order, micro-units. */
  ahead: bigint;
  /** Recorded trades at its level since the level last changed (netted out of the next decrease). */
  traded: bigint;
  /**
   * The last cancel at its level that no print explained yet (see PRINT_PAIRING_MS): when it was
   * (NaN: none), the place as it was just before it (`ahead`, `traded`) and the level's sizes.
   */
  pendAt: number;
  pendAhead: bigint;
  pendTraded: bigint;
  pendBefore: bigint;
  pendAfter: bigint;
}

/**
 * How long after a decrease of a level (ms of the replay's clock) a print at that level may still be
 * the trade that caused it. hftbacktest assumes a print arrives before the book change that carries
 * it, and nets it out of that change; a recording may carry them the other way round (two messages
 * of one instant, on two channels). Then the decrease, taken as a cancel, moved the queue and the
 * print would move it again: the order filled ahead of its place. Instead the print is applied as
 * if it had come first — the place as it was before the decrease, the print off its front (and
 * through it), then the decrease again, netted — which is exactly what the other order gives. A
 * print paired with a decrease it did not cause (a cancel, then another trade, within the window)
 * only moves the place before that cancel rather than after it: its own change, when it comes, is
 * a cancel, so the place ends about where it would; fills are judged against the larger queue.
 */
export const PRINT_PAIRING_MS = 5;

/**
 * Queue position of the bot's resting orders in the recorded L2 book, in the style of
 * hftbacktest. An order joins behind everything the recording shows at its price (`ahead` = the
 * level's size on arrival); liquidity added later queues behind it. Then:
 * - A trade at the level consumes the queue from the front: `ahead` falls by its quantity and
 *   what goes beyond `ahead` went through the order's place. Orders at better prices were traded
 *   through: the whole trade went past them. Trades are the recording's prints (`trade`), or —
 *   where the model infers them (`trades` "inferred", or "auto" on a token without prints) —
 *   decreases of the level while it is its side's best (`decrease` with `atTouch`).
 * - What a trade fills is walked in the venue's priority (better price first, then arrival), the
 *   aggressor's quantity used up as it goes: an order gets what went past its place less what the
 *   orders before it took, up to its remaining size, and the walk stops at the first order not
 *   filled whole (FIFO: nothing behind it can trade first). The sum is returned, for the mirror to
 *   send as one IOC, which the venue then hands out in that same order.
 * - Any other decrease is a cancel: it never fills the order; the spec's model says how much of
 *   it leaves ahead of the order (conservative: all, riskAverse: none, probabilistic: a share
 *   f(ahead) / (f(ahead) + f(behind)) and the like, see cancelFrontShare), the rest leaving
 *   behind it; what the back cannot hold comes off the front. Recorded trades already applied
 *   are netted out of the next change of the level, so a print and the book change that carries
 *   it are not counted twice (hftbacktest's cum_trade_qty). A print that comes instead just after
 *   the change it explains (PRINT_PAIRING_MS) acts as if it had come first; in "auto", a token's
 *   first print nets out the decrease just inferred as its trade.
 * Pure: no venue, no randomness; time only as given (`at`, or the clock it is built with).
 */
export class QueueModel {
  readonly spec: QueueModelSpec;
  readonly #orders = new Map<
    string,
    { readonly tokenId: string; readonly no: number; readonly side: Side; readonly place: Place }
  >();
  /** Per token, the orders of each level (by levelNo: numbers, not strings built per level change). */
  readonly #levels = new Map<string, Map<number, Set<Place>>>();
  /** Per token, the prices at which orders rest on each side (for trades through better prices). */
  readonly #prices = new Map<string, { readonly buy: Set<bigint>; readonly sell: Set<bigint> }>();
  readonly #printed = new Set<string>();
  /** "auto": per token not printed yet, its last decrease inferred as a trade (see #netInferred). */
  readonly #inferredAt = new Map<string, { side: Side; price: bigint; qty: bigint; at: number }>();

  readonly #clock: { now(): number } | undefined;
  /** The print-pairing window (spec.printPairingMs, else PRINT_PAIRING_MS). */
  readonly #pairingMs: number;

  /**
   * `clock`: the exchange's time, read when a decrease or print does not say when it was (`at`);
   * without either, a print is never paired with the decrease before it.
   */
  constructor(spec: QueueModelSpec = DEFAULT_QUEUE_MODEL, clock?: { now(): number }) {
    this.spec = spec;
    this.#clock = clock;
    this.#pairingMs = spec.printPairingMs ?? PRINT_PAIRING_MS;
  }

  /** Whether recorded trade prints count at all (`trades` other than "inferred"). */
  get usesPrints(): boolean {
    return this.spec.trades !== "inferred";
  }

  /**
   * An order starts resting at (token, side, price) behind `ahead` of recorded size; `order` is read
   * for its remaining size when a trade reaches it (default: never filled whole).
   */
  join(
    orderId: string,
    tokenId: string,
    side: Side,
    price: bigint,
    ahead: bigint,
    order: Resting = UNBOUNDED,
  ): void {
    const no = levelNo(side, price);
    const place: Place = {
      orderId,
      price,
      order,
      ahead,
      traded: 0n,
      pendAt: Number.NaN,
      pendAhead: 0n,
      pendTraded: 0n,
      pendBefore: 0n,
      pendAfter: 0n,
    };
    this.#orders.set(orderId, { tokenId, no, side, place });
    let token = this.#levels.get(tokenId);
    if (token === undefined) {
      token = new Map();
      this.#levels.set(tokenId, token);
    }
    let level = token.get(no);
    if (level === undefined) {
      level = new Set();
      token.set(no, level);
      let prices = this.#prices.get(tokenId);
      if (prices === undefined) {
        prices = { buy: new Set(), sell: new Set() };
        this.#prices.set(tokenId, prices);
      }
      prices[side].add(price);
    }
    level.add(place);
  }

  /** An order stopped resting. */
  leave(orderId: string): void {
    const o = this.#orders.get(orderId);
    if (o === undefined) return;
    this.#orders.delete(orderId);
    const token = this.#levels.get(o.tokenId);
    const level = token?.get(o.no);
    level?.delete(o.place);
    if (token !== undefined && level?.size === 0) {
      token.delete(o.no);
      if (token.size === 0) this.#levels.delete(o.tokenId);
      const prices = this.#prices.get(o.tokenId);
      prices?.[o.side].delete(o.place.price);
      if (prices?.buy.size === 0 && prices.sell.size === 0) this.#prices.delete(o.tokenId);
    }
  }

  /**
   * The recorded level went from `before` to `after` (< before) at `at` (ms; default the clock's,
   * if any: without a time no print is paired with it). When the decrease is taken as a trade (at
   * the touch, trades inferred for the token) it comes off the front, goes through the orders at
   * better prices, and what it fills is returned (see the class); otherwise it is a cancel,
   * attributed by the model, and 0 is returned.
   */
  decrease(
    tokenId: string,
    side: Side,
    price: bigint | number,
    before: bigint,
    after: bigint,
    atTouch: boolean,
    at?: number,
  ): bigint {
    const delta = before - after;
    // Times matter only with prints (pairing); the default, inferred trades, never reads the clock.
    const t = this.usesPrints ? (at ?? this.#clock?.now()) : undefined;
    if (atTouch && this.#infers(tokenId)) {
      if (t !== undefined && this.spec.trades === "auto")
        this.#noteInferred(tokenId, side, BigInt(price), delta, t);
      return this.#trade(tokenId, side, BigInt(price), delta, false, undefined);
    }
    const level = this.#level(tokenId, side, price);
    if (level === undefined) return 0n;
    for (const place of level) {
      if (t !== undefined) pend(place, before, after, t, this.#pairingMs);
      this.#cancel(place, before, after, delta);
    }
    return 0n;
  }

  /** The recorded level grew: nothing moves ahead of the orders; pending trades are settled. */
  increase(tokenId: string, side: Side, price: bigint | number): void {
    if (!this.usesPrints) return; // nothing is pending without prints
    const level = this.#level(tokenId, side, price);
    if (level !== undefined) for (const place of level) place.traded = 0n;
  }

  /**
   * A recorded trade print of `qty` against resting `side` orders at `price` at `at` (ms; default
   * the clock's, if any: without a time it is not paired with a decrease before it), ignored when
   * trades are inferred. Orders at the price: the trade comes off the front. Orders at better prices were traded through (the aggressor went
   * past them to reach `price`): nothing of the recorded size there was ahead. A print following
   * the decrease it explains (PRINT_PAIRING_MS) acts as if it had come first. Returns what the
   * print fills of the bot's orders (see the class).
   */
  trade(tokenId: string, side: Side, price: bigint, qty: bigint, at?: number): bigint {
    if (!this.usesPrints) return 0n;
    this.#printed.add(tokenId);
    const t = at ?? this.#clock?.now();
    const left = this.#inferredAt.size === 0 ? qty : this.#netInferred(tokenId, side, price, qty, t);
    if (left === 0n) return 0n;
    return this.#trade(tokenId, side, price, left, true, t);
  }

  /** Recorded size ahead of an order, if it rests. */
  ahead(orderId: string): bigint | undefined {
    return this.#orders.get(orderId)?.place.ahead;
  }

  /** Number of orders tracked. */
  get size(): number {
    return this.#orders.size;
  }

  #level(tokenId: string, side: Side, price: bigint | number): Set<Place> | undefined {
    return this.#levels.get(tokenId)?.get(levelNo(side, price));
  }

  // A trade of `qty` at `price` against resting `side` orders: every order at the price or better
  // moves up (see trade), and the fill is walked in the venue's priority (see the class).
  // `printed`: a recorded print, whose quantity is netted out of the level's next change, and which
  // (at `at`) is paired with the change it follows (PRINT_PAIRING_MS).
  #trade(
    tokenId: string,
    side: Side,
    price: bigint,
    qty: bigint,
    printed: boolean,
    at: number | undefined,
  ): bigint {
    const prices = this.#prices.get(tokenId)?.[side];
    if (prices === undefined || prices.size === 0) return 0n;
    const reached: bigint[] = [];
    for (const p of prices) if (p === price || (side === "buy" ? p > price : p < price)) reached.push(p);
    if (reached.length > 1)
      reached.sort(side === "buy" ? (a, b) => (a > b ? -1 : 1) : (a, b) => (a < b ? -1 : 1));
    const unwound = at === undefined ? undefined : this.#unwind(tokenId, side, price, at);
    let filled = 0n;
    let open = true;
    for (const p of reached) {
      for (const place of this.#level(tokenId, side, p) ?? []) {
        const atPrice = p === price;
        const past = atPrice ? qty - place.ahead : qty;
        if (open) {
          const remaining = place.order.remaining;
          const allowed = past - filled;
          const take = allowed <= 0n ? 0n : allowed < remaining ? allowed : remaining;
          filled += take;
          open = take === remaining;
        }
        if (printed) place.traded += atPrice ? qty : place.ahead;
        place.ahead = past >= 0n ? 0n : -past;
        // Traded through, or an inferred trade after it: the cancel before is no print's to explain.
        if (!atPrice || !printed) place.pendAt = Number.NaN;
      }
    }
    if (unwound !== undefined) for (const place of unwound) this.#replay(place);
    return filled;
  }

  // The places at `price` whose last cancel a print at `at` explains, put back as they were before
  // it (the print then comes off their front as if it had come first); undefined: none.
  #unwind(tokenId: string, side: Side, price: bigint, at: number): Place[] | undefined {
    let unwound: Place[] | undefined;
    const level = this.#level(tokenId, side, price);
    for (const place of level ?? []) {
      if (Number.isNaN(place.pendAt)) continue;
      if (!paired(place.pendAt, at, this.#pairingMs)) {
        place.pendAt = Number.NaN;
        continue;
      }
      place.ahead = place.pendAhead;
      place.traded = place.pendTraded;
      if (unwound === undefined) unwound = [place];
      else unwound.push(place);
    }
    return unwound;
  }

  // After the print: the unwound decrease again, netted by what was printed; kept pending while
  // some of it is still unexplained (a later print in the window may explain more).
  #replay(place: Place): void {
    place.pendAhead = place.ahead;
    place.pendTraded = place.traded;
    const delta = place.pendBefore - place.pendAfter;
    if (place.traded >= delta) place.pendAt = Number.NaN;
    this.#cancel(place, place.pendBefore, place.pendAfter, delta);
  }

  // "auto", a token not printed yet: its last decrease inferred as a trade (one entry per token, reused).
  #noteInferred(tokenId: string, side: Side, price: bigint, qty: bigint, at: number): void {
    const e = this.#inferredAt.get(tokenId);
    if (e === undefined) this.#inferredAt.set(tokenId, { side, price, qty, at });
    else {
      e.side = side;
      e.price = price;
      e.qty = qty;
      e.at = at;
    }
  }

  // "auto": a token's first prints may be the trade that a decrease at its touch was just inferred
  // as (the token had not printed yet): that much of them moved the queue already. Returns the rest.
  #netInferred(tokenId: string, side: Side, price: bigint, qty: bigint, at: number | undefined): bigint {
    const inferred = this.#inferredAt.get(tokenId);
    if (inferred === undefined) return qty;
    if (at === undefined || !paired(inferred.at, at, this.#pairingMs)) {
      this.#inferredAt.delete(tokenId);
      return qty;
    }
    if (inferred.side !== side || inferred.price !== price) return qty;
    const netted = inferred.qty < qty ? inferred.qty : qty;
    inferred.qty -= netted;
    if (inferred.qty === 0n) this.#inferredAt.delete(tokenId);
    return qty - netted;
  }

  #infers(tokenId: string): boolean {
    const t = this.spec.trades;
    return t === "inferred" || (t === "auto" && !this.#printed.has(tokenId));
  }

  #cancel(place: Place, before: bigint, after: bigint, delta: bigint): void {
    const cancelled = delta > place.traded ? delta - place.traded : 0n;
    place.traded = 0n;
    const ahead = place.ahead;
    const behind = before > ahead ? before - ahead : 0n;
    let front = frontPart(this.spec, cancelled, ahead, behind);
    if (cancelled - front > behind) front = cancelled - behind;
    const left = front >= ahead ? 0n : ahead - front;
    place.ahead = left < after ? left : after;
  }
}

// Whether a print at `at` may be the trade of a decrease at `decreasedAt` (NaN: none), `windowMs` apart at most.
function paired(decreasedAt: number, at: number, windowMs: number): boolean {
  return at >= decreasedAt && at - decreasedAt <= windowMs;
}

// Notes a cancel of the place's level from `before` to `after` at `at`, before it is applied, for a
// print that may follow (PRINT_PAIRING_MS). A change that recorded prints already explain whole
// leaves nothing to pair; one right after a pending one (same window, no growth between) extends it.
function pend(place: Place, before: bigint, after: bigint, at: number, windowMs: number): void {
  if (place.traded >= before - after) {
    place.pendAt = Number.NaN;
    return;
  }
  if (!(paired(place.pendAt, at, windowMs) && place.pendAfter === before)) {
    place.pendAhead = place.ahead;
    place.pendTraded = place.traded;
    place.pendBefore = before;
  }
  place.pendAfter = after;
  place.pendAt = at;
}

// How much of a cancel of `cancelled` leaves ahead of the order (before the back-overflow rule).
function frontPart(spec: QueueModelSpec, cancelled: bigint, ahead: bigint, behind: bigint): bigint {
  if (cancelled === 0n || ahead === 0n) return 0n;
  if (spec.type === "conservative") return cancelled;
  if (spec.type === "riskAverse") return 0n;
  const share = cancelFrontShare(spec, Number(ahead), Number(behind));
  return BigInt(Math.round(Number(cancelled) * share));
}

// A level of a token as a number: prices are micro-units in [0, 1], one range per side.
function levelNo(side: Side, price: bigint | number): number {
  return (side === "buy" ? 0 : 1_000_001) + Number(price);
}
