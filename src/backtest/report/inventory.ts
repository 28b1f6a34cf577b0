/** Inventory statistics of one token over the run, micro-shares. */
export interface InventoryFigures {
  readonly final: bigint;
  readonly maxAbs: bigint;
  /** Time-weighted Σ q·dt over the window, micro-share·ms (mean = this / duration). */
  readonly weighted: bigint;
  readonly durationMs: number;
}

/**
 * Time-weighted inventory of each token over [startMs, endMs]: the position is piecewise
 * constant between fills, so Σ q·dt is exact in bigint.
 */
export class InventoryStats {
  readonly #startMs: number;
  readonly #tokens = new Map<string, { q: bigint; since: number; weighted: bigint; maxAbs: bigint }>();

  constructor(startMs: number, tokenIds: readonly string[]) {
    this.#startMs = startMs;
    for (const t of tokenIds) this.#tokens.set(t, { q: 0n, since: startMs, weighted: 0n, maxAbs: 0n });
  }

  /** The position of `tokenId` is `q` from time `t` on. */
  update(tokenId: string, t: number, q: bigint): void {
    const s = this.#tokens.get(tokenId);
    if (s === undefined) return;
    const at = Math.max(t, this.#startMs);
    s.weighted += s.q * BigInt(at - s.since);
    s.since = at;
    s.q = q;
    const abs = q < 0n ? -q : q;
    if (abs > s.maxAbs) s.maxAbs = abs;
  }

  /** Figures per token, the window closed at `endMs`. */
  figures(endMs: number): Map<string, InventoryFigures> {
    const out = new Map<string, InventoryFigures>();
    for (const [t, s] of this.#tokens) {
      const end = Math.max(endMs, s.since);
      out.set(t, {
        final: s.q,
        maxAbs: s.maxAbs,
        weighted: s.weighted + s.q * BigInt(end - s.since),
        durationMs: Math.max(0, endMs - this.#startMs),
      });
    }
    return out;
  }
}
