import { Dec } from "../../../src/core/decimal.js";

/** A change as the wire spells it. */
export interface RefChange {
  readonly side: string;
  readonly price: string;
  readonly size: string;
}

type Wire = { price: string; size: string }[];

/**
 * The straightforward reference the tests compare the tracker with: two Maps from canonical price
 * to canonical size, decimal.js for every comparison, no shared code with src/book.
 */
export class ReferenceBook {
  readonly bids = new Map<string, string>();
  readonly asks = new Map<string, string>();

  /** Sets a level's total; a zero size removes it. */
  apply(c: RefChange): void {
    const side = ["buy", "BUY", "bid", "BID"].includes(c.side) ? this.bids : this.asks;
    const price = new Dec(c.price).toFixed();
    const size = new Dec(c.size);
    if (size.isZero()) side.delete(price);
    else side.set(price, size.toFixed());
  }

  applyAll(changes: readonly RefChange[]): void {
    for (const c of changes) this.apply(c);
  }

  /** Replaces both sides. */
  replace(bids: Wire, asks: Wire): void {
    this.bids.clear();
    this.asks.clear();
    for (const l of bids) this.apply({ side: "buy", ...l });
    for (const l of asks) this.apply({ side: "sell", ...l });
  }

  /** Both sides best first, as decimal strings. */
  wire(): { bids: Wire; asks: Wire } {
    const sorted = (m: Map<string, string>, desc: boolean): Wire =>
      [...m.entries()]
        .sort(([a], [b]) => (desc ? new Dec(b).cmp(a) : new Dec(a).cmp(b)))
        .map(([price, size]) => ({ price, size }));
    return { bids: sorted(this.bids, true), asks: sorted(this.asks, false) };
  }

  /** Best bid ≥ best ask, both sides present. */
  isCrossed(): boolean {
    const w = this.wire();
    const bid = w.bids[0];
    const ask = w.asks[0];
    return bid !== undefined && ask !== undefined && new Dec(bid.price).gte(ask.price);
  }

  /** A compact serialisation of the state. */
  key(): string {
    return JSON.stringify(this.wire());
  }

  static fromKey(key: string): ReferenceBook {
    const w = JSON.parse(key) as { bids: Wire; asks: Wire };
    const r = new ReferenceBook();
    r.replace(w.bids, w.asks);
    return r;
  }
}
