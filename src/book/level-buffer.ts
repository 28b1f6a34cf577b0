/**
 * Parsed book entries in reusable parallel arrays, so that parsing a frame allocates nothing on
 * the hot path. `bid[i]` is 1 for a bid and 0 for an ask. For a snapshot the bids come first and
 * `firstAsk` is the index of the first ask; for changes the sides interleave in wire order.
 * Slots past `length` hold leftovers from earlier frames and are never read.
 */
export class LevelBuffer {
  length = 0;
  firstAsk = 0;
  readonly bid: number[] = [];
  readonly prices: number[] = [];
  readonly sizes: bigint[] = [];

  /** Forgets every entry (keeps the arrays for reuse). */
  reset(): void {
    this.length = 0;
    this.firstAsk = 0;
  }

  /** Appends one entry. */
  push(bid: 0 | 1, price: number, size: bigint): void {
    const i = this.length++;
    this.bid[i] = bid;
    this.prices[i] = price;
    this.sizes[i] = size;
  }
}
