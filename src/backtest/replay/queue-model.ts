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
}

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
 *   it are not counted twice (hftbacktest's cum_trade_qty).
 * Pure: no venue, no clock, no randomness.
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

  constructor(spec: QueueModelSpec = DEFAULT_QUEUE_MODEL) {
    this.spec = spec;
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
    const place: Place = { orderId, price, order, ahead, traded: 0n };
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
   * The recorded level went from `before` to `after` (< before). When the decrease is taken as a
   * trade (at the touch, trades inferred for the token) it comes off the front, goes through the
   * orders at better prices, and what it fills is returned (see the class); otherwise it is a
   * cancel, attributed by the model, and 0 is returned.
   */
  decrease(
    tokenId: string,
    side: Side,
    price: bigint | number,
    before: bigint,
    after: bigint,
    atTouch: boolean,
  ): bigint {
    const delta = before - after;
    if (atTouch && this.#infers(tokenId)) return this.#trade(tokenId, side, BigInt(price), delta, false);
    const level = this.#level(tokenId, side, price);
    if (level === undefined) return 0n;
    for (const place of level) this.#cancel(place, before, after, delta);
    return 0n;
  }

  /** The recorded level grew: nothing moves ahead of the orders; pending trades are settled. */
  increase(tokenId: string, side: Side, price: bigint | number): void {
    if (!this.usesPrints) return; // nothing is pending without prints
    const level = this.#level(tokenId, side, price);
    if (level !== undefined) for (const place of level) place.traded = 0n;
  }

  /**
   * A recorded trade print of `qty` against resting `side` orders at `price` (ignored when trades
   * are inferred). Orders at the price: the trade comes off the front. Orders at better prices
   * were traded through (the aggressor went past them to reach `price`): nothing of the recorded
   * size there was ahead. Returns what the print fills of the bot's orders (see the class).
   */
  trade(tokenId: string, side: Side, price: bigint, qty: bigint): bigint {
    if (!this.usesPrints) return 0n;
    this.#printed.add(tokenId);
    return this.#trade(tokenId, side, price, qty, true);
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
  // `printed`: a recorded print, whose quantity is netted out of the level's next change.
  #trade(tokenId: string, side: Side, price: bigint, qty: bigint, printed: boolean): bigint {
    const prices = this.#prices.get(tokenId)?.[side];
    if (prices === undefined || prices.size === 0) return 0n;
    const reached: bigint[] = [];
    for (const p of prices) if (p === price || (side === "buy" ? p > price : p < price)) reached.push(p);
    if (reached.length > 1)
      reached.sort(side === "buy" ? (a, b) => (a > b ? -1 : 1) : (a, b) => (a < b ? -1 : 1));
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
      }
    }
    return filled;
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
