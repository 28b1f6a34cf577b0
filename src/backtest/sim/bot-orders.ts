import type { Side } from "../../core/types.js";
import type { VenueEvent } from "../../venue/events.js";
import { BOT } from "./actors.js";

/** One resting order of the bot at the venue. */
export interface BotOrder {
  readonly orderId: string;
  readonly tokenId: string;
  readonly side: Side;
  /** Micro-units. */
  readonly price: bigint;
  remaining: bigint;
}

/**
 * The bot's live GTC orders at the venue, followed from the venue's events (placed, filled,
 * cancelled, expired), with a hook when an order joins or leaves. An order that fills whole on
 * arrival joins and leaves in the same operation.
 */
export class BotOrders {
  readonly #orders = new Map<string, BotOrder>();
  readonly #joined: ((o: BotOrder) => void)[] = [];
  readonly #left: ((o: BotOrder) => void)[] = [];

  /** Calls `fn` when an order of the bot starts resting (before any fill of its own placement). */
  onJoin(fn: (o: BotOrder) => void): void {
    this.#joined.push(fn);
  }

  /** Calls `fn` when an order stops resting (filled, cancelled or expired). */
  onLeave(fn: (o: BotOrder) => void): void {
    this.#left.push(fn);
  }

  /** Live orders, in placement order. */
  all(): IterableIterator<BotOrder> {
    return this.#orders.values();
  }

  /** Feed every venue event here, in order. */
  onVenueEvent(e: VenueEvent): void {
    switch (e.type) {
      case "order_placed": {
        const o = e.order;
        if (o.userWallet !== BOT || o.timeInForce !== "gtc") return;
        const order: BotOrder = {
          orderId: o.id,
          tokenId: o.tokenId,
          side: o.side,
          price: o.price,
          remaining: o.remainingQty,
        };
        this.#orders.set(o.id, order);
        for (const fn of this.#joined) fn(order);
        return;
      }
      case "fill": {
        if (e.walletAddress !== BOT) return;
        const o = this.#orders.get(e.orderId);
        if (o === undefined) return;
        o.remaining -= e.quantity;
        if (o.remaining <= 0n) this.#leave(o);
        return;
      }
      case "order_cancelled":
      case "order_expired": {
        const o = this.#orders.get(e.order.id);
        if (o !== undefined) this.#leave(o);
        return;
      }
      default:
        return;
    }
  }

  #leave(o: BotOrder): void {
    this.#orders.delete(o.orderId);
    for (const fn of this.#left) fn(o);
  }
}
