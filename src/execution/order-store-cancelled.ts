import type { TrackedOrder } from "./order-state.js";

/** Per side, share micro-units. */
export interface SideSizes {
  readonly buy: bigint;
  readonly sell: bigint;
}

/** What the OrderStore shows of its CancelledIndex (OrderStore.cancelled). */
export interface CancelledCount {
  /**
   * Per side, the remainders of the token's orders confirmed cancelled whose fills up to the cancel
   * may still be on their way: they count against the caps as if the orders still rested, until
   * `settle`. Undefined when none is above 0 (the usual case).
   */
  sides(tokenId: string): SideSizes | undefined;
  /** Take before a reconcile's trade read; hand to `settle` once its trades are applied. */
  mark(): number;
  /**
   * Stops counting the cancels confirmed up to `mark`; returns the tokens whose figure moved and
   * those still counting later cancels (a step of theirs may ask for the next reconcile).
   */
  settle(mark: number): string[];
  /**
   * True when no reconcile was asked for since the last `settle`: the caller asks for one (and the
   * next call answers false). One ask per settling run, not one per quoting step: a run that fails
   * or stops short of the trades' end settles nothing, and a step asking again at each book update
   * ran a reconcile every debounce past the scheduler's failure backoff.
   */
  askReconcile(): boolean;
}

/**
 * The OrderStore's account of orders the exchange confirmed cancelled (a cancel's answer, a
 * cancel-all's) whose fills up to the cancel are not known yet, per token: each order's remainder
 * (size − filledMicro) as the store last saw it.
 *
 * Why: a cancel's answer says the order is off the book, not what it filled first; neither the
 * spec's answer nor a cancel-all's carries a filled quantity. A fill matched just before the cancel
 * can still be on its way on /ws/user (the spec does not order the HTTP answer and the push, and a
 * dropped user socket delivers it only through the next reconcile's trade backfill). Once the order
 * leaves `live` its remainder no longer counts, and the position has not moved: those shares are in
 * neither figure, and a replacement sized into the room they left rests beyond the hard cap once the
 * fill lands. So the remainder keeps counting against its side until a reconcile that began after
 * the confirmation has read the trades (`settle`): every fill matched before the cancel is then in
 * the position. A fill arriving meanwhile moves shares from here into the position (filledMicro
 * rises, the remainder falls by as much): their sum is unchanged.
 */
export class CancelledIndex implements CancelledCount {
  /**
   * Per token, each order's remainder counted with its confirmation's sequence number, and the
   * running sums per side: `sides` runs on every quoting step that has to fit its placements, and
   * a saturated replay confirms hundreds of cancels per token between two reconciles.
   */
  readonly #byToken = new Map<string, TokenCancels>();
  #seq = 0;
  /** A reconcile was asked for (askReconcile) and no run has settled since. */
  #asked = false;
  readonly #moved: (tokenId: string) => void;

  /** @param moved told of each token `settle` moved (the store's version bump). */
  constructor(moved: (tokenId: string) => void) {
    this.#moved = moved;
  }

  /** An order just confirmed cancelled (its state already moved). */
  confirmed(o: TrackedOrder): void {
    let t = this.#byToken.get(o.tokenId);
    if (t === undefined) {
      t = { orders: new Map(), buy: 0n, sell: 0n };
      this.#byToken.set(o.tokenId, t);
    }
    const remainder = remainderOf(o);
    const before = t.orders.get(o);
    if (before !== undefined) add(t, o.side, -before.remainder);
    t.orders.set(o, { remainder, seq: ++this.#seq });
    add(t, o.side, remainder);
  }

  /** Re-reads an order's remainder after a change of it (a late fill, a complete one: 0). */
  update(o: TrackedOrder): void {
    const t = this.#byToken.get(o.tokenId);
    const e = t?.orders.get(o);
    if (t === undefined || e === undefined) return;
    const remainder = remainderOf(o);
    add(t, o.side, remainder - e.remainder);
    e.remainder = remainder;
  }

  /** Forgets a pruned order. */
  forget(o: TrackedOrder): void {
    const t = this.#byToken.get(o.tokenId);
    const e = t?.orders.get(o);
    if (t === undefined || e === undefined) return;
    t.orders.delete(o);
    add(t, o.side, -e.remainder);
    if (t.orders.size === 0) this.#byToken.delete(o.tokenId);
  }

  /** The sequence number of the last confirmation: `settle(mark)` clears it and every earlier one. */
  mark(): number {
    return this.#seq;
  }

  /**
   * Clears the confirmations up to `mark` (taken before a reconcile's trade read that has now been
   * applied). Returns the tokens whose figure moved, then those whose later confirmations still
   * count: a step of theirs asked for a reconcile while this run was under way, and that ask is
   * spent (askReconcile), so they are stepped again to ask for the run that settles them.
   */
  settle(mark: number): string[] {
    this.#asked = false;
    const touched: string[] = [];
    const still: string[] = [];
    for (const [tokenId, t] of this.#byToken) {
      let moved = false;
      for (const [o, e] of t.orders) {
        if (e.seq > mark) continue;
        t.orders.delete(o);
        add(t, o.side, -e.remainder);
        if (e.remainder > 0n) moved = true;
      }
      if (t.orders.size === 0) this.#byToken.delete(tokenId);
      if (moved) touched.push(tokenId);
      else if (t.buy > 0n || t.sell > 0n) still.push(tokenId);
    }
    for (const t of touched) this.#moved(t);
    return [...touched, ...still];
  }

  askReconcile(): boolean {
    if (this.#asked) return false;
    this.#asked = true;
    return true;
  }

  /** Per side, the token's remainders still counted; undefined when none is above 0 (the usual case). */
  sides(tokenId: string): SideSizes | undefined {
    const t = this.#byToken.get(tokenId);
    if (t === undefined || (t.buy === 0n && t.sell === 0n)) return undefined;
    return { buy: t.buy, sell: t.sell };
  }
}

/** One token's cancels counted, with their sums per side. */
interface TokenCancels {
  readonly orders: Map<TrackedOrder, { remainder: bigint; seq: number }>;
  buy: bigint;
  sell: bigint;
}

function add(t: TokenCancels, side: TrackedOrder["side"], delta: bigint): void {
  if (side === "buy") t.buy += delta;
  else t.sell += delta;
}

function remainderOf(o: TrackedOrder): bigint {
  if (o.state !== "cancelled") return 0n;
  const r = o.sizeMicro - o.filledMicro;
  return r > 0n ? r : 0n;
}
