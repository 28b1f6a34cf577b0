import { clientOrderId } from "../core/ids.js";
import type { DesiredQuote } from "../core/trading.js";
import type { CancelAllIntent, CancelIntent, CancelReason, Intent } from "./intents.js";
import { DEFAULT_TOLERANCE, type DiffResult, diffQuotes, type QuoteTolerance } from "./order-manager-diff.js";
import type { TrackedOrder } from "./order-state.js";
import type { OrderStore } from "./order-store.js";

/** The token being quoted, as the order manager needs it. */
export interface QuotedToken {
  readonly tokenId: string;
  readonly marketId: string;
  readonly tickMicro: number;
}

/** A diff worked out ahead by OrderManager.preview (read, then handed back to diff()). */
export interface DiffPreview {
  readonly token: QuotedToken;
  readonly desired: readonly DesiredQuote[];
  /** The store's version of the token's orders it was worked out on. */
  readonly version: number;
  /** The time it was worked out at (which orders were expiring). */
  readonly now: number;
  /** Its placements' clientOrderIds are empty: they are minted when it is applied. */
  readonly result: DiffResult<TrackedOrder>;
}

export interface OrderManagerOptions {
  /** Session tag of this process run (see core/ids.ts): ids never repeat across restarts. */
  readonly session: string;
  readonly store: OrderStore;
  readonly tolerance?: QuoteTolerance;
  /** First sequence number (default 1). */
  readonly firstSeq?: number;
  /**
   * Whether an open order is close enough to its on-chain expiry at `now` to be replaced whatever
   * its price (the engine's OrderRenewal); absent: orders are never replaced for their age.
   */
  readonly expiring?: (o: TrackedOrder, now: number) => boolean;
}

/**
 * Turns desired quotes into intents and keeps the order store in step with what it asked for, so a
 * second diff before the first intents are answered never repeats them:
 * - a new placement is tracked at once as `placing` (queued) under a fresh deterministic clientOrderId
 *   (session, token, side, level, seq; seq is per manager and only ever grows);
 * - a cancel moves the order to `cancelling`;
 * - a queued placement superseded before it was sent is retired (state `cancelled`) and a cancel intent
 *   without orderId tells the queue to drop it (reason `superseded`; `not_desired` when its level
 *   is no longer quoted at all).
 * The engine reports sends and answers through order-manager-outcomes.ts.
 * @example
 * const om = new OrderManager({ session: "a1", store });
 * const intents = om.diff({ tokenId, marketId, tickMicro: 10_000 }, strategyQuotes, clock.now());
 */
export class OrderManager {
  readonly #session: string;
  readonly #store: OrderStore;
  readonly #tolerance: QuoteTolerance;
  readonly #expiring: ((o: TrackedOrder, now: number) => boolean) | undefined;
  #seq: number;

  constructor(opts: OrderManagerOptions) {
    this.#session = opts.session;
    this.#store = opts.store;
    this.#tolerance = opts.tolerance ?? DEFAULT_TOLERANCE;
    this.#seq = opts.firstSeq ?? 1;
    this.#expiring = opts.expiring;
  }

  /** The sequence number the next placement will use. */
  get nextSeq(): number {
    return this.#seq;
  }

  /**
   * Diffs `desired` against the token's live orders (see diffQuotes) and records the result in the store.
   * `preview`: this call's preview (see preview()), used instead of diffing again when the token's
   * orders have not changed since; otherwise ignored.
   * @returns cancels (including drops of superseded or withdrawn queued placements), then placements.
   */
  diff(token: QuotedToken, desired: readonly DesiredQuote[], now: number, preview?: DiffPreview): Intent[] {
    const res =
      preview !== undefined && this.#current(preview, token, desired, now)
        ? this.#minted(preview.result, token)
        : this.#diffQuotes(token, desired, now, (q) => this.#mint(token, q));
    const out: Intent[] = [];
    for (const o of res.superseded) out.push(...this.#retire(o, "superseded", now));
    // Nothing replaced these: their level is no longer quoted, like an open order's `not_desired`
    // cancel (the engine names a risk limit's drop apart: cancel-reasons.ts namedCancels).
    for (const o of res.withdrawn) out.push(...this.#retire(o, "not_desired", now));
    // Before their cancels: the level waits for each one's answer, which steps the token again.
    for (const o of res.cancelFirst) this.#store.markCancelFirst(o);
    for (const c of res.cancels) {
      this.#store.apply(c.clientOrderId, { kind: "cancel_requested" }, now);
      out.push(c);
    }
    for (const p of res.places) {
      this.#store.track(
        { clientOrderId: p.clientOrderId, tokenId: p.tokenId, marketId: p.marketId, ...p.quote },
        now,
      );
      out.push(p);
    }
    return out;
  }

  /**
   * What `diff(token, desired, now)` would ask for, without doing it: the store and the sequence are
   * untouched and placements carry an empty clientOrderId. Handed back to diff() while the token's
   * orders are unchanged, it is applied as it is (the diff is computed once), its placements given
   * their ids then, in the order diff() would have minted them.
   */
  preview(token: QuotedToken, desired: readonly DesiredQuote[], now: number): DiffPreview {
    const result = this.#diffQuotes(token, desired, now, () => "");
    return { token, desired, version: this.#store.version(token.tokenId), now, result };
  }

  /**
   * Pulls every quote of one token (stale or resyncing book, risk limits): cancels its open orders and
   * drops its queued placements. Orders already cancelling, placements in flight and unknown orders
   * cannot be cancelled yet; the engine keeps the token's desired quotes empty, so the next diff cancels
   * each of them as soon as it becomes open.
   */
  cancelAllFor(tokenId: string, reason: CancelReason, now: number): CancelIntent[] {
    // Only non-terminal orders can be retired or cancelled: the token's live list holds them all.
    return this.#cancelIn(this.#store.live(tokenId), reason, now);
  }

  /** Like cancelAllFor, for every token of a market (market paused or not OPEN, platform frozen). */
  cancelMarket(marketId: string, reason: CancelReason, now: number): CancelIntent[] {
    return this.#cancelIn(
      [...this.#store.all()].filter((o) => o.marketId === marketId),
      reason,
      now,
    );
  }

  /**
   * The kill switch: one cancel-all for the whole wallet. Nothing changes locally until it is answered
   * (applyCancelAllOutcome); queued placements are dropped at once.
   */
  killAll(reason: CancelReason, now: number): Intent[] {
    const out: Intent[] = [];
    for (const o of [...this.#store.all()]) {
      if (o.state === "placing" && o.queued) out.push(...this.#retire(o, reason, now));
    }
    const all: CancelAllIntent = { kind: "cancel_all", marketId: undefined, reason };
    out.push(all);
    return out;
  }

  #cancelIn(orders: readonly TrackedOrder[], reason: CancelReason, now: number): CancelIntent[] {
    const out: CancelIntent[] = [];
    for (const o of orders) {
      if (o.state === "placing" && o.queued) out.push(...this.#retire(o, reason, now));
      else if (o.state === "open" && this.#store.apply(o.clientOrderId, { kind: "cancel_requested" }, now)) {
        out.push(cancelOf(o, reason));
      }
    }
    return out;
  }

  #diffQuotes(
    token: QuotedToken,
    desired: readonly DesiredQuote[],
    now: number,
    newClientOrderId: (q: DesiredQuote) => string,
  ): DiffResult<TrackedOrder> {
    const expiring = this.#expiring;
    return diffQuotes({
      ...(expiring === undefined ? {} : { expiring: (o: TrackedOrder) => expiring(o, now) }),
      tokenId: token.tokenId,
      marketId: token.marketId,
      tickMicro: token.tickMicro,
      desired,
      live: this.#store.live(token.tokenId),
      tolerance: this.#tolerance,
      newClientOrderId,
    });
  }

  #mint(token: QuotedToken, q: DesiredQuote): string {
    return clientOrderId({
      session: this.#session,
      tokenId: token.tokenId,
      side: q.side,
      level: q.level,
      seq: this.#seq++,
    });
  }

  /** Whether a preview still describes this diff: same call, the token's orders as they were. */
  #current(p: DiffPreview, token: QuotedToken, desired: readonly DesiredQuote[], now: number): boolean {
    return (
      p.token === token &&
      p.desired === desired &&
      p.now === now &&
      p.version === this.#store.version(token.tokenId)
    );
  }

  #minted(res: DiffResult<TrackedOrder>, token: QuotedToken): DiffResult<TrackedOrder> {
    if (res.places.length === 0) return res;
    const places = res.places.map((p) => ({ ...p, clientOrderId: this.#mint(token, p.quote) }));
    return { ...res, places };
  }

  #retire(o: TrackedOrder, reason: CancelReason, now: number): CancelIntent[] {
    return this.#store.apply(o.clientOrderId, { kind: "dropped" }, now) ? [cancelOf(o, reason)] : [];
  }
}

/**
 * The cancel intent of one tracked order (by its exchange id once known).
 * @example core.send([cancelOf(order, "shutdown")])
 */
export function cancelOf(o: TrackedOrder, reason: CancelReason): CancelIntent {
  return {
    kind: "cancel",
    tokenId: o.tokenId,
    marketId: o.marketId,
    clientOrderId: o.clientOrderId,
    orderId: o.orderId,
    reason,
  };
}
