import { MmError } from "../core/errors.js";
import type { Address, MarketStatus, Side } from "../core/types.js";
import type { LevelChange } from "./order-book.js";
import type { FeeAmount, OrderView, TradeRecord } from "./types.js";

/** Why an order left the book other than by filling or expiring. */
export type CancelReason =
  /** POST /api/orders/cancel. */
  | "user"
  /** POST /api/orders/cancel-all. */
  | "cancel_all"
  /** Self-trade prevention removed a resting order. */
  | "self_trade"
  /** The unfilled rest of an IOC or market order. */
  | "unfilled_remainder"
  /** An admin status change closed the market's book. */
  | "market_closed";

/** An order was accepted (user_orders `order_placed`); `order` is its state at acceptance. */
export interface OrderPlacedEvent {
  readonly type: "order_placed";
  readonly tsMs: number;
  readonly order: OrderView;
}

/** An order was cancelled (user_orders `order_cancelled`). */
export interface OrderCancelledEvent {
  readonly type: "order_cancelled";
  readonly tsMs: number;
  readonly reason: CancelReason;
  readonly order: OrderView;
}

/** A resting order reached its expiry. */
export interface OrderExpiredEvent {
  readonly type: "order_expired";
  readonly tsMs: number;
  readonly order: OrderView;
}

/**
 * One wallet's side of a trade: the spec's user_fill payload fields plus, for the venue's own
 * consumers (backtest accounting), the role and this wallet's fee, which user_fill itself omits.
 */
export interface FillEvent {
  readonly type: "fill";
  readonly tsMs: number;
  readonly walletAddress: Address;
  readonly side: Side;
  readonly tradeId: string;
  readonly orderId: string;
  readonly clientOrderId?: string;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly outcomeIndex: number;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly role: "maker" | "taker";
  readonly fee: FeeAmount;
}

/** A public trade print (token_trade_matches `trade_matched`); `side` is the taker's. */
export interface TradeEvent {
  readonly type: "trade";
  readonly tsMs: number;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly outcomeIndex: number;
  readonly tradeId: string;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly side: Side;
  readonly trade: TradeRecord;
}

/** The net level changes of one operation on one token (token_book `book_delta`). */
export interface BookChangesEvent {
  readonly type: "book_changes";
  readonly tsMs: number;
  readonly tokenId: string;
  readonly marketId: string;
  readonly conditionId: string;
  readonly outcomeIndex: number;
  readonly seq: number;
  readonly prevSeq: number;
  readonly changes: readonly LevelChange[];
}

/** A market changed status (condition_lifecycle). */
export interface MarketStatusEvent {
  readonly type: "market_status";
  readonly tsMs: number;
  readonly marketId: string;
  readonly conditionId: string;
  readonly status: MarketStatus;
  readonly previous: MarketStatus;
}

/** Everything the venue announces. */
export type VenueEvent =
  | OrderPlacedEvent
  | OrderCancelledEvent
  | OrderExpiredEvent
  | FillEvent
  | TradeEvent
  | BookChangesEvent
  | MarketStatusEvent;

/** A synchronous listener; it sees events after the operation that caused them has committed. */
export type VenueListener = (event: VenueEvent) => void;

/**
 * Delivers events in order to every listener. Events are published only once an operation has
 * finished mutating state, so a listener may call back into the venue (a backtest strategy
 * reacting to a fill); the nested operation's events queue behind the current ones, keeping the
 * global order and each token's seq order intact. A throwing listener does not stop delivery to
 * the others: errors go to `onError`, or, by default, the first is rethrown once the queue drains.
 */
export class EventBus {
  readonly #listeners = new Set<VenueListener>();
  // The listeners as an array, rebuilt on (un)subscribe: delivery iterates a stable snapshot
  // without copying the set per event.
  #snapshot: readonly VenueListener[] = [];
  readonly #queue: VenueEvent[] = [];
  readonly #onError: ((error: unknown, event: VenueEvent) => void) | undefined;
  #head = 0;
  #draining = false;

  constructor(onError?: (error: unknown, event: VenueEvent) => void) {
    this.#onError = onError;
  }

  /** Adds a listener; returns its removal. */
  subscribe(listener: VenueListener): () => void {
    this.#listeners.add(listener);
    this.#snapshot = [...this.#listeners];
    return () => {
      this.#listeners.delete(listener);
      this.#snapshot = [...this.#listeners];
    };
  }

  publish(events: readonly VenueEvent[]): void {
    if (events.length === 0) return;
    this.#queue.push(...events);
    if (this.#draining || this.#listeners.size === 0) {
      if (!this.#draining) this.#queue.length = 0;
      return;
    }
    this.#draining = true;
    let firstError: { error: unknown; event: VenueEvent } | undefined;
    try {
      while (this.#head < this.#queue.length) {
        const event = this.#queue[this.#head++] as VenueEvent;
        for (const listener of this.#snapshot) {
          try {
            listener(event);
          } catch (error) {
            if (this.#onError !== undefined) this.#onError(error, event);
            else firstError ??= { error, event };
          }
        }
      }
    } finally {
      this.#queue.length = 0;
      this.#head = 0;
      this.#draining = false;
    }
    if (firstError !== undefined) {
      throw new MmError(
        "venue_listener_failed",
        `a venue listener threw on ${firstError.event.type}; venue state is committed`,
        { event: firstError.event.type },
        { cause: firstError.error },
      );
    }
  }
}
