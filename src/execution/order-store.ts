import type { Fill, LocalOrderState } from "../core/trading.js";
import type { Side } from "../core/types.js";
import { isTerminal, type OrderEvent, refreshFilled, type TrackedOrder, transition } from "./order-state.js";
import { MonotonicStamps, type OrderAges, wallAges } from "./order-store-ages.js";
import { type CancelledCount, CancelledIndex } from "./order-store-cancelled.js";
import { type UnappliedFills, UnappliedIndex } from "./order-store-unapplied.js";

export type { OrderAges } from "./order-store-ages.js";
export type { UnappliedFills } from "./order-store-unapplied.js";

/** What a new order needs; everything else starts empty. */
export interface NewOrder {
  readonly clientOrderId: string;
  readonly tokenId: string;
  readonly marketId: string;
  readonly side: Side;
  readonly level: number;
  readonly priceMicro: number;
  readonly sizeMicro: bigint;
}

/** The reconciler's verdict on one order (see reconcile-*.ts): the exchange's view, applied as authority. */
export interface OrderUpdate {
  readonly clientOrderId: string;
  readonly orderId?: string | undefined;
  readonly state: LocalOrderState;
  readonly remoteFilledMicro?: bigint | undefined;
  /** Why, for the log. */
  readonly reason: string;
}

/** Options of an OrderStore. */
export interface OrderStoreOptions {
  /**
   * A clock that never steps (Clock.monotonic; see monotonicSource), read when an order is created,
   * sent and changed: the ages the unknown-order grace is measured by (agesAt, prune) are then
   * elapsed time, so a step of the wall clock neither ends the grace at once (an
   * order resting at the exchange dropped) nor stretches it by the step. Without it (a SimClock, which
   * never steps) ages are taken from the wall stamps.
   */
  readonly monotonic?: (() => number) | undefined;
  /**
   * Called with a token whose orders changed in any way (its version moved): what caches a figure of
   * them (the engine's worst-case exposure of the other tokens, PositionBook) re-reads it.
   */
  readonly onChange?: ((tokenId: string) => void) | undefined;
}

/**
 * Every order of this session, by clientOrderId and by exchange orderId, plus the fills seen per
 * exchange orderId (so a fill that arrives before its order's id is known still counts once it is).
 * Never throws on a bad transition: it is ignored and counted in `illegalTransitions`.
 */
export class OrderStore {
  readonly #byClient = new Map<string, TrackedOrder>();
  readonly #byOrderId = new Map<string, TrackedOrder>();
  // Per token, in creation order: every order (until pruned), and the non-terminal ones. live(tokenId)
  // runs on every quoting step while terminal orders stay until pruned (a busy replay holds tens of
  // thousands of superseded placements), so it must not scan them. Every change of an order goes
  // through a method of this class, which re-files it (#file) and bumps its token's version.
  readonly #byToken = new Map<string, TrackedOrder[]>();
  readonly #liveByToken = new Map<string, TrackedOrder[]>();
  readonly #versions = new Map<string, number>();
  readonly #fills = new Map<string, Map<string, bigint>>();
  // Fills the exchange reported that no intake has recorded yet (order-store-unapplied.ts).
  readonly #unapplied = new UnappliedIndex();
  readonly #cancelled = new CancelledIndex((t) => this.#bump(t));
  /** Orders confirmed cancelled whose fills up to the cancel may be on their way (order-store-cancelled.ts). */
  readonly cancelled: CancelledCount = this.#cancelled;
  #illegal = 0;
  readonly #stamps: MonotonicStamps | undefined;
  readonly #onChange: ((tokenId: string) => void) | undefined;

  constructor(opts: OrderStoreOptions = {}) {
    this.#stamps = opts.monotonic === undefined ? undefined : new MonotonicStamps(opts.monotonic);
    this.#onChange = opts.onChange;
  }

  /** Transitions refused by the table in order-state.ts (or conflicting ids) since start. */
  get illegalTransitions(): number {
    return this.#illegal;
  }

  /** Registers a placement the order manager just issued: state `placing`, queued (not yet sent). */
  track(init: NewOrder, now: number): TrackedOrder {
    const existing = this.#byClient.get(init.clientOrderId);
    if (existing !== undefined) {
      this.#illegal++;
      return existing;
    }
    // One literal with every field (not a spread of `init`): spreading and then adding a dozen fields
    // costs ~15 µs an order in V8 and leaves a slow object shape that every later read pays for.
    const o: TrackedOrder = {
      clientOrderId: init.clientOrderId,
      tokenId: init.tokenId,
      marketId: init.marketId,
      side: init.side,
      level: init.level,
      priceMicro: init.priceMicro,
      sizeMicro: init.sizeMicro,
      orderId: undefined,
      filledMicro: 0n,
      state: "placing",
      updatedAtMs: now,
      queued: true,
      sentAtMs: undefined,
      createdAtMs: now,
      adopted: false,
      fillSumMicro: 0n,
      remoteFilledMicro: 0n,
      needsReconcile: false,
      lastCode: undefined,
      cancelDoubted: false,
      cancelFirst: false,
    };
    this.#byClient.set(o.clientOrderId, o);
    this.#stamps?.sent(o);
    const list = this.#byToken.get(o.tokenId);
    if (list === undefined) this.#byToken.set(o.tokenId, [o]);
    else list.push(o);
    this.#file(o);
    return o;
  }

  /**
   * Takes over an order found on the exchange (adoption of an orphan). Refused when its clientOrderId
   * or orderId is already tracked.
   */
  adopt(init: NewOrder & { orderId: string; filledMicro: bigint }, now: number): TrackedOrder | undefined {
    if (this.#byClient.has(init.clientOrderId) || this.#byOrderId.has(init.orderId)) {
      this.#illegal++;
      return undefined;
    }
    const o = this.track(init, now);
    o.queued = false;
    o.adopted = true;
    o.state = "open";
    o.remoteFilledMicro = init.filledMicro;
    this.#unapplied.adopted(o, init.filledMicro);
    this.#bind(o, init.orderId, now);
    this.#file(o);
    return o;
  }

  /** Applies one event; false when it was illegal (ignored, counted) or the order is not tracked. */
  apply(clientOrderId: string, ev: OrderEvent, now: number): boolean {
    const o = this.#byClient.get(clientOrderId);
    if (o === undefined || !transition(o, ev, now)) {
      this.#illegal++;
      return false;
    }
    if (ev.kind === "sent") this.#stamps?.sent(o);
    if (ev.kind === "cancel_confirmed") this.#cancelled.confirmed(o);
    if (o.orderId !== undefined) this.#bind(o, o.orderId, now);
    this.#file(o);
    return true;
  }

  /**
   * Records a fill against its exchange orderId (and binds that id to the order named by the fill's
   * clientOrderId, when it was unknown). Idempotent by tradeId. Does not touch inventory. A fill that
   * completes the order stamps its change time with the fill's own time (`tsMs`): that is when it
   * changed, and it keeps the store free of any clock.
   * @returns the order the fill belongs to, when tracked.
   */
  recordFill(fill: Fill): TrackedOrder | undefined {
    let perOrder = this.#fills.get(fill.orderId);
    if (perOrder === undefined) {
      perOrder = new Map();
      this.#fills.set(fill.orderId, perOrder);
    }
    perOrder.set(fill.tradeId, fill.sizeMicro);
    this.#unapplied.recorded(fill.orderId, fill.tradeId);
    let o = this.#byOrderId.get(fill.orderId);
    if (o === undefined && fill.clientOrderId !== undefined) {
      const named = this.#byClient.get(fill.clientOrderId);
      if (named !== undefined && named.orderId === undefined) o = named;
    }
    if (o === undefined) return undefined;
    this.#bind(o, fill.orderId, fill.tsMs);
    this.#file(o);
    return o;
  }

  /**
   * Adds fills of an order read from the exchange's own list of them (GET /api/orders/{id}/fills) to
   * its recorded fills, by tradeId like every other fill: an adopted order's fills from before this
   * run reach no fill intake, so without them its filled quantity could only be the larger of two
   * partial figures (its filledQty when listed, the fills seen since) and never complete. `at` stamps
   * the change when they complete the order.
   * @returns the order, when tracked.
   */
  seedFills(
    orderId: string,
    fills: Iterable<{ tradeId: string; sizeMicro: bigint }>,
    at: number,
  ): TrackedOrder | undefined {
    let perOrder = this.#fills.get(orderId);
    if (perOrder === undefined) {
      perOrder = new Map();
      this.#fills.set(orderId, perOrder);
    }
    for (const f of fills) {
      if (perOrder.has(f.tradeId)) continue; // recorded already (by an intake: inventory has it)
      perOrder.set(f.tradeId, f.sizeMicro);
      this.#unapplied.seeded(orderId, f.tradeId);
    }
    const o = this.#byOrderId.get(orderId);
    if (o === undefined) return undefined;
    this.#bind(o, orderId, at);
    this.#file(o);
    return o;
  }

  /**
   * Applies the reconciler's verdict. A terminal local state is final (the exchange itself said so),
   * so only its filled quantity may rise; any other state takes the verdict.
   */
  reconcile(u: OrderUpdate, now: number): boolean {
    const o = this.#byClient.get(u.clientOrderId);
    if (o === undefined || (u.orderId !== undefined && o.orderId !== undefined && o.orderId !== u.orderId)) {
      this.#illegal++;
      return false;
    }
    if (u.orderId !== undefined) this.#bind(o, u.orderId, now);
    if (u.remoteFilledMicro !== undefined && u.remoteFilledMicro > o.remoteFilledMicro) {
      o.remoteFilledMicro = u.remoteFilledMicro;
    }
    if (!isTerminal(o.state) && o.state !== u.state) {
      // A cancel found still resting (failed, or unanswered past the reconciler's grace): whatever
      // its late answer says, it is in doubt, so the order's replacement waits for its next cancel.
      if (o.state === "cancelling" && u.state === "open") o.cancelDoubted = true;
      o.state = u.state;
      o.queued = false;
      o.updatedAtMs = now;
    }
    if (isTerminal(o.state) || u.state === o.state) o.needsReconcile = false;
    refreshFilled(o, now);
    this.#file(o);
    return true;
  }

  /**
   * Marks an order cancel-then-place (TrackedOrder.cancelFirst); false when it already was. Its
   * token's version moves: a diff worked out before no longer describes it.
   */
  markCancelFirst(o: TrackedOrder): boolean {
    if (o.cancelFirst || this.#byClient.get(o.clientOrderId) !== o) return false;
    o.cancelFirst = true;
    this.#bump(o.tokenId);
    return true;
  }

  /** The order with this clientOrderId. */
  get(clientOrderId: string): TrackedOrder | undefined {
    return this.#byClient.get(clientOrderId);
  }

  /** The order with this exchange id. */
  byOrderId(orderId: string): TrackedOrder | undefined {
    return this.#byOrderId.get(orderId);
  }

  /** Non-terminal orders of a token (what the order manager diffs against), in creation order. */
  live(tokenId: string): TrackedOrder[] {
    const list = this.#liveByToken.get(tokenId);
    return list === undefined ? [] : list.slice();
  }

  /**
   * Per side, the shares the exchange reports filled on the token's orders (live and terminal ones
   * still tracked) that inventory has not taken yet; undefined when there are none (the usual case).
   *
   * Why: a placement answered FILLED or PARTIAL, or a reconcile's filledQty, lowers an order's
   * remainder at once, while inventory moves only when the fill itself arrives: in between, those
   * shares are in neither figure (see order-store-unapplied.ts for the account).
   * @example const u = store.unapplied(tokenId); const committedBuy = (u?.buy ?? 0n) + remainders;
   */
  unapplied(tokenId: string): UnappliedFills | undefined {
    return this.#unapplied.sides(tokenId);
  }

  /**
   * A number that changes whenever any order of the token changes (state, ids, fills, a new order):
   * equal versions mean live(tokenId) and every field of its orders are as they were.
   */
  version(tokenId: string): number {
    return this.#versions.get(tokenId) ?? 0;
  }

  /** Every tracked order, in creation order. */
  all(): IterableIterator<TrackedOrder> {
    return this.#byClient.values();
  }

  /**
   * Orders' ages as of `now` (the caller's wall reading; the monotonic clock, when the store has
   * one, is read here, so take it in the same synchronous run as `now`): elapsed time on the
   * monotonic clock when the store has one, else `now` minus the wall stamps.
   * @example const ages = store.agesAt(clock.now()); if (ages.sentMs(o) >= graceMs) … // it had its grace
   */
  agesAt(now: number): OrderAges {
    return this.#stamps?.agesAt(now) ?? wallAges(now);
  }

  /**
   * Forgets terminal orders last changed before `beforeMs` (bounding memory in a long run). Their
   * recorded fills go too, so prune well after late fills and trade backfills can still arrive.
   * Terminal orders the exchange never gave an id (placements dropped before sending, or rejected)
   * go once last changed before `unboundBeforeMs` (default `beforeMs`): no fill or trade can name
   * them, and most placements of a busy run are superseded in the queue, never sent. A late answer
   * to one that was sent after all finds it gone; the order is then an orphan to the next reconcile.
   * Given `now` (the instant the cut-offs were taken from) and a monotonic clock, an unbound order's
   * cut-off is an age instead: it goes once it last changed more than `now - cutoff` ago in elapsed
   * time (agesAt), so a forward step of the wall clock does not forget it before its late answer.
   */
  prune(beforeMs: number, unboundBeforeMs = beforeMs, now?: number): number {
    let n = 0;
    const touched = new Set<string>();
    const unboundCutoff = Math.max(beforeMs, unboundBeforeMs);
    // Wall cut-offs are `now` minus a horizon: with a monotonic clock, the unbound one is kept as that horizon.
    const ages = now === undefined ? undefined : this.#stamps?.agesAt(now);
    const unboundHorizon = now === undefined ? 0 : now - unboundCutoff;
    for (const o of [...this.#byClient.values()]) {
      if (!isTerminal(o.state)) continue;
      if (o.orderId === undefined && ages !== undefined) {
        if (ages.changedMs(o) <= unboundHorizon) continue;
      } else if (o.updatedAtMs >= (o.orderId === undefined ? unboundCutoff : beforeMs)) continue;
      this.#byClient.delete(o.clientOrderId);
      if (o.orderId !== undefined) {
        this.#byOrderId.delete(o.orderId);
        this.#fills.delete(o.orderId);
      }
      touched.add(o.tokenId);
      this.#unapplied.forget(o);
      this.#cancelled.forget(o);
      n++;
    }
    for (const t of touched) {
      const kept = (this.#byToken.get(t) ?? []).filter((o) => this.#byClient.get(o.clientOrderId) === o);
      if (kept.length === 0) this.#byToken.delete(t);
      else this.#byToken.set(t, kept);
      // A pruned order takes its unapplied fills with it: what read them must read again.
      this.#bump(t);
    }
    return n;
  }

  // The token's orders changed: a new version, and whoever caches a figure of them is told.
  #bump(tokenId: string): void {
    this.#versions.set(tokenId, (this.#versions.get(tokenId) ?? 0) + 1);
    this.#onChange?.(tokenId);
  }

  // Files the order in its token's live list, or takes it out, after any change of it. A placement
  // dropped while queued and answered after all (order-state.ts) is live again, in its creation place.
  #file(o: TrackedOrder): void {
    this.#stamps?.changed(o);
    const t = o.tokenId;
    this.#cancelled.update(o);
    this.#bump(t);
    // filledQty never falls: an order never reported filled has nothing unapplied, nor had it before.
    if (o.remoteFilledMicro > 0n) {
      this.#unapplied.update(o, o.orderId === undefined ? undefined : this.#fills.get(o.orderId));
    }
    let list = this.#liveByToken.get(t);
    const at = list === undefined ? -1 : list.lastIndexOf(o);
    if (isTerminal(o.state)) {
      if (at < 0 || list === undefined) return;
      list.splice(at, 1);
      if (list.length === 0) this.#liveByToken.delete(t);
    } else if (at < 0) {
      if (list === undefined) {
        list = [];
        this.#liveByToken.set(t, list);
      }
      const all = this.#byToken.get(t) ?? [];
      if (all[all.length - 1] === o) list.push(o);
      else
        this.#liveByToken.set(
          t,
          all.filter((x) => !isTerminal(x.state)),
        );
    }
  }

  // `at`: the time of the change that revealed the id or the fills (stamped if they complete the order).
  #bind(o: TrackedOrder, orderId: string, at: number): void {
    if (o.orderId === undefined) o.orderId = orderId;
    if (!this.#byOrderId.has(orderId)) this.#byOrderId.set(orderId, o);
    let sum = 0n;
    for (const q of this.#fills.get(orderId)?.values() ?? []) sum += q;
    o.fillSumMicro = sum;
    refreshFilled(o, at);
  }
}
