import type { TrackedOrder } from "./order-state.js";

/** Per side, shares filled on the exchange that inventory has not taken yet (OrderStore.unapplied). */
export interface UnappliedFills {
  readonly buy: bigint;
  readonly sell: bigint;
}

/**
 * The OrderStore's account of fills the exchange reported (an order's filledQty: a placement's
 * answer, a reconcile's listing) that no fill intake has recorded yet, per order, indexed by token
 * for the orders where it is above 0 (a handful at most: the in-flight fit reads it every step).
 *
 * An order's figure is filledQty − Σ fills an intake recorded − what an adopted order had filled
 * when taken over, floored at 0. It is never more than the truth, or a side would stay held for
 * ever: fills stamped before the session are the only ones no intake records (FillIntake ignores
 * them, a backfill pages back to the session start only), and they are all in an adopted order's
 * filledQty when listed (the start-up reconcile lists after the baseline positions are read) and
 * in its fills read from the exchange's list (seedFills: not an intake's, so not subtracted); an
 * order this session placed has none. Fills counted twice over (an adopted order's fills after the
 * baseline but before its listing, both in its filledQty then and recorded by an intake) only make
 * it smaller: the fit is then as it was before this account.
 */
export class UnappliedIndex {
  readonly #byToken = new Map<string, Map<TrackedOrder, bigint>>();
  // What an adopted order had filled when taken over (its filledQty when listed): in the baseline.
  readonly #adoptedFilled = new Map<TrackedOrder, bigint>();
  // Per exchange orderId, the tradeIds recorded only from the exchange's list of the order's fills
  // (seedFills), never by an intake.
  readonly #seedOnly = new Map<string, Set<string>>();

  /** An order taken over with `filledMicro` already filled (its filledQty when listed). */
  adopted(o: TrackedOrder, filledMicro: bigint): void {
    if (filledMicro > 0n) this.#adoptedFilled.set(o, filledMicro);
  }

  /** A fill recorded from the exchange's list of an order's fills only (not yet by an intake). */
  seeded(orderId: string, tradeId: string): void {
    let ids = this.#seedOnly.get(orderId);
    if (ids === undefined) {
      ids = new Set();
      this.#seedOnly.set(orderId, ids);
    }
    ids.add(tradeId);
  }

  /** A fill recorded by an intake (it went to inventory as well). */
  recorded(orderId: string, tradeId: string): void {
    this.#seedOnly.get(orderId)?.delete(tradeId);
  }

  /**
   * Recomputes an order's figure after a change of it (the store skips orders never reported
   * filled: filledQty never falls, so they have nothing here). `fills`: its recorded fills by
   * tradeId (the store's), read only for an order with seeded fills.
   */
  update(o: TrackedOrder, fills: ReadonlyMap<string, bigint> | undefined): void {
    let recorded = o.fillSumMicro;
    const seedOnly = o.orderId === undefined ? undefined : this.#seedOnly.get(o.orderId);
    if (seedOnly !== undefined) for (const id of seedOnly) recorded -= fills?.get(id) ?? 0n;
    const u = o.remoteFilledMicro - recorded - (this.#adoptedFilled.get(o) ?? 0n);
    this.#set(o, u > 0n ? u : 0n);
  }

  /** Forgets a pruned order. */
  forget(o: TrackedOrder): void {
    this.#adoptedFilled.delete(o);
    if (o.orderId !== undefined) this.#seedOnly.delete(o.orderId);
    this.#set(o, 0n);
  }

  /** Per side, the token's total; undefined when it has none. */
  sides(tokenId: string): UnappliedFills | undefined {
    const perOrder = this.#byToken.get(tokenId);
    if (perOrder === undefined) return undefined;
    let buy = 0n;
    let sell = 0n;
    for (const [o, q] of perOrder) {
      if (o.side === "buy") buy += q;
      else sell += q;
    }
    return { buy, sell };
  }

  #set(o: TrackedOrder, q: bigint): void {
    const t = o.tokenId;
    let perOrder = this.#byToken.get(t);
    if (q === 0n) {
      if (perOrder?.delete(o) === true && perOrder.size === 0) this.#byToken.delete(t);
      return;
    }
    if (perOrder === undefined) {
      perOrder = new Map();
      this.#byToken.set(t, perOrder);
    }
    perOrder.set(o, q);
  }
}
