import type { Side } from "../../core/types.js";

interface Place {
  readonly orderId: string;
  readonly key: string;
  ahead: bigint;
}

/**
 * Queue position of the bot's resting orders in the recorded book (a conservative L2 queue
 * model, in the spirit of hftbacktest's): an order joins behind everything the recording shows
 * at its price (`ahead` = the recorded level's size on arrival); liquidity added later queues
 * behind it; every decrease of the level, trade or cancel alike, comes off the front first. What
 * a decrease takes beyond an order's `ahead` went through its place in the queue: `consume`
 * returns it (the largest such amount among the level's orders), for the mirror to fill.
 * Pure: no venue, no clock.
 */
export class QueueModel {
  readonly #orders = new Map<string, Place>();
  readonly #levels = new Map<string, Set<Place>>();

  /** An order starts resting at (token, side, price) behind `ahead` of recorded size. */
  join(orderId: string, tokenId: string, side: Side, price: bigint, ahead: bigint): void {
    const place: Place = { orderId, key: levelKey(tokenId, side, price), ahead };
    this.#orders.set(orderId, place);
    let level = this.#levels.get(place.key);
    if (level === undefined) {
      level = new Set();
      this.#levels.set(place.key, level);
    }
    level.add(place);
  }

  /** An order stopped resting. */
  leave(orderId: string): void {
    const place = this.#orders.get(orderId);
    if (place === undefined) return;
    this.#orders.delete(orderId);
    const level = this.#levels.get(place.key);
    level?.delete(place);
    if (level?.size === 0) this.#levels.delete(place.key);
  }

  /**
   * The recorded level shrank by `delta`: each order's `ahead` falls by it (not below 0); returns
   * how far the decrease reached past the front-most order (0 when none rests there).
   */
  consume(tokenId: string, side: Side, price: bigint, delta: bigint): bigint {
    const level = this.#levels.get(levelKey(tokenId, side, price));
    if (level === undefined) return 0n;
    let through = 0n;
    for (const place of level) {
      const past = delta - place.ahead;
      if (past > through) through = past;
      place.ahead = past >= 0n ? 0n : -past;
    }
    return through;
  }

  /** Recorded size ahead of an order, if it rests. */
  ahead(orderId: string): bigint | undefined {
    return this.#orders.get(orderId)?.ahead;
  }

  /** Number of orders tracked. */
  get size(): number {
    return this.#orders.size;
  }
}

function levelKey(tokenId: string, side: Side, price: bigint): string {
  return `${tokenId}|${side}|${price}`;
}
