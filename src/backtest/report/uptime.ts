import type { Side } from "../../core/types.js";

interface Sides {
  buys: number;
  sells: number;
  since: number;
  both: number;
}

/**
 * Quote uptime per token: the fraction of [startMs, endMs] during which the bot had at least one
 * resting buy AND one resting sell on the token at the venue (what the market saw, not what the
 * engine meant to send).
 */
export class QuoteUptime {
  readonly #startMs: number;
  readonly #tokens = new Map<string, Sides>();

  constructor(startMs: number, tokenIds: readonly string[]) {
    this.#startMs = startMs;
    for (const t of tokenIds) this.#tokens.set(t, { buys: 0, sells: 0, since: startMs, both: 0 });
  }

  /** A resting order of `side` appeared (+1) or left (−1) at time `t`. */
  change(tokenId: string, side: Side, delta: 1 | -1, t: number): void {
    const s = this.#tokens.get(tokenId);
    if (s === undefined) return;
    this.#close(s, t);
    if (side === "buy") s.buys += delta;
    else s.sells += delta;
  }

  /** Fraction of the window quoted on both sides, per token (0 for an empty window). */
  fractions(endMs: number): Map<string, number> {
    const out = new Map<string, number>();
    const span = endMs - this.#startMs;
    for (const [t, s] of this.#tokens) {
      const tail = s.buys > 0 && s.sells > 0 ? Math.max(0, endMs - Math.max(s.since, this.#startMs)) : 0;
      out.set(t, span > 0 ? Math.min(1, (s.both + tail) / span) : 0);
    }
    return out;
  }

  #close(s: Sides, t: number): void {
    const from = Math.max(s.since, this.#startMs);
    if (s.buys > 0 && s.sells > 0 && t > from) s.both += t - from;
    s.since = Math.max(t, this.#startMs);
  }
}
