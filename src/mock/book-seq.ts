/**
 * The seq a client sees for a token's book, shared by the /ws/market token_book feed and
 * GET /api/markets/{symbol}/orderbook: the venue's book seq plus a per-token offset. The feed moves
 * the offset by one for every periodic book_update (a full state takes a seq of its own) and for
 * every injected gap (skipSeq). Both surfaces read the same offset, so the REST answer and a
 * WebSocket snapshot of the same book at the same instant carry the same seq, and a client that
 * seeds its book from REST can apply the next book_delta by prevSeq.
 */
export class BookSeqOffsets {
  readonly #offset = new Map<string, number>();

  /** The token's current offset (0 until the feed first moves it). */
  of(tokenId: string): number {
    return this.#offset.get(tokenId) ?? 0;
  }

  /** The seq a client sees for the venue's book seq `venueSeq` of this token, now. */
  seqOf(tokenId: string, venueSeq: number): number {
    return venueSeq + this.of(tokenId);
  }

  /** Moves the token's offset by `by` (≥ 0) and returns the new offset. */
  advance(tokenId: string, by: number): number {
    const before = this.of(tokenId);
    if (by === 0) return before;
    const off = before + by;
    this.#offset.set(tokenId, off);
    return off;
  }
}
