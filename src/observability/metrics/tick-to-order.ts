/**
 * Tick-to-order latency without help from the engine: a quoting step that runs right after a book
 * update (within `windowMs`, i.e. in the same turn of the event loop) is tick-driven, and each of its
 * placements is measured from that update to the moment it leaves for the exchange (queue waits
 * included). Steps triggered by something else (a fill, a timer) bind no tick, so they are not
 * measured rather than measured from a stale update.
 * @example
 * t2o.tick(tokenId, 1_000); t2o.quote(tokenId, 1_001); t2o.sent(tokenId, 1_004) // 0.004
 */
export class TickToOrder {
  readonly #windowMs: number;
  readonly #lastTick = new Map<string, number>();
  readonly #bound = new Map<string, number>();

  constructor(windowMs = 100) {
    this.#windowMs = windowMs;
  }

  /** A book update of `tokenId` was applied at `at` (ms). */
  tick(tokenId: string, at: number): void {
    this.#lastTick.set(tokenId, at);
  }

  /** A quoting step of `tokenId` produced placements at `at`. */
  quote(tokenId: string, at: number): void {
    const tick = this.#lastTick.get(tokenId);
    if (tick !== undefined && at - tick <= this.#windowMs && at >= tick) this.#bound.set(tokenId, tick);
    else this.#bound.delete(tokenId);
  }

  /** A placement of `tokenId` left at `at`: seconds since its tick, or undefined when not tick-driven. */
  sent(tokenId: string, at: number): number | undefined {
    const tick = this.#bound.get(tokenId);
    return tick === undefined ? undefined : Math.max(0, at - tick) / 1_000;
  }

  /** Forgets a token (untracked). */
  forget(tokenId: string): void {
    this.#lastTick.delete(tokenId);
    this.#bound.delete(tokenId);
  }
}
