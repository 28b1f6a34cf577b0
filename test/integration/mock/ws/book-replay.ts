import { toWei } from "../../../../src/core/wei.js";
import type { MockContext } from "../../../../src/mock/context.js";
import { wireLevels } from "../../../../src/venue/wire.js";
import type { Frame } from "./helpers.js";

type Level = { price: string; size: string };

/**
 * A client-side book built the way the spec's rules say: book_snapshot / book_update replace it,
 * book_delta changes set a level's total ("0" removes it). Checks contiguity as it goes.
 */
export class ReplayedBook {
  readonly bids = new Map<string, string>();
  readonly asks = new Map<string, string>();
  seq: number | undefined;

  /** Applies one token_book frame; returns false (and applies nothing) on a seq gap. */
  apply(f: Frame): boolean {
    const d = f.data;
    if (f.type === "book_snapshot") {
      this.#replace(d.bids, d.asks);
      this.seq = d.seq;
      return true;
    }
    if (this.seq === undefined || d.prevSeq !== this.seq || d.seq <= d.prevSeq) return false;
    if (f.type === "book_update") this.#replace(d.bids, d.asks);
    else {
      for (const c of d.changes as { side: string; price: string; size: string }[]) {
        const side = c.side === "buy" ? this.bids : this.asks;
        if (c.size === "0") side.delete(c.price);
        else side.set(c.price, c.size);
      }
    }
    this.seq = d.seq;
    return true;
  }

  /** Levels best first, as the venue's snapshot lists them. */
  levels(): { bids: Level[]; asks: Level[] } {
    const sorted = (m: Map<string, string>, desc: boolean) =>
      [...m.entries()]
        .map(([price, size]) => ({ price, size }))
        .sort((a, b) => {
          const d = toWei(a.price) - toWei(b.price);
          return (desc ? d < 0n : d > 0n) ? 1 : d === 0n ? 0 : -1;
        });
    return { bids: sorted(this.bids, true), asks: sorted(this.asks, false) };
  }

  #replace(bids: Level[], asks: Level[]): void {
    this.bids.clear();
    this.asks.clear();
    for (const l of bids) this.bids.set(l.price, l.size);
    for (const l of asks) this.asks.set(l.price, l.size);
  }
}

/** The venue's own book of a token, in wire form. */
export function venueLevels(ctx: MockContext, tokenId: string): { bids: Level[]; asks: Level[] } {
  const snap = ctx.venue.bookSnapshot(tokenId, 1_000);
  if (snap === undefined) throw new Error(`no book for ${tokenId}`);
  return { bids: wireLevels(snap.bids), asks: wireLevels(snap.asks) };
}
