/** How many of the longest gaps the summary lists. */
export const LONGEST_GAPS = 5;

interface Gap {
  readonly fromMs: number;
  readonly toMs: number;
}

/**
 * The holes in a replay's data: silences of at least `thresholdMs` between consecutive recorded
 * frames (all tokens merged by receive time: a recorder down, a capture with a day missing — a
 * token quiet while others trade is not one). Counts them, sums them and keeps the few longest, so
 * memory stays flat however large the data. The replay checks the threshold itself (one
 * comparison per frame) and calls `add` only for a gap.
 * @example const g = new DataGaps(3_600_000); if (t - last >= g.thresholdMs) g.add(last, t);
 */
export class DataGaps {
  readonly thresholdMs: number;
  #count = 0;
  #totalMs = 0;
  /** Longest first; of equal length, the earlier first. */
  readonly #longest: Gap[] = [];

  constructor(thresholdMs: number) {
    this.thresholdMs = thresholdMs;
  }

  /** A silence from the frame at `fromMs` to the next one, at `toMs` (at least the threshold). */
  add(fromMs: number, toMs: number): void {
    const ms = toMs - fromMs;
    this.#count++;
    this.#totalMs += ms;
    const list = this.#longest;
    // Gaps come in time order, so an equal one goes after those already kept (the earlier first).
    let i = list.length;
    while (i > 0 && ms > (list[i - 1] as Gap).toMs - (list[i - 1] as Gap).fromMs) i--;
    if (i >= LONGEST_GAPS) return;
    list.splice(i, 0, { fromMs, toMs });
    if (list.length > LONGEST_GAPS) list.pop();
  }

  /**
   * The summary's `data.gaps`: the threshold, how many gaps and their total length (ms), and the
   * longest few (UTC times of the frames either side, length in ms), longest first.
   */
  summary() {
    return {
      thresholdMs: this.thresholdMs,
      count: this.#count,
      totalMs: this.#totalMs,
      longest: this.#longest.map((g) => ({
        from: new Date(g.fromMs).toISOString(),
        to: new Date(g.toMs).toISOString(),
        ms: g.toMs - g.fromMs,
      })),
    };
  }
}
