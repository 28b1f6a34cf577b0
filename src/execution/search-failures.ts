/**
 * History searches of one placement that may fail in a row before the operator is told its level is
 * stuck: about a minute at the 2 s follow-up of a reconcile that left placements unresolved.
 */
export const STUCK_SEARCH_FAILURES = 30;

/** What one reconcile changed in the streaks (SearchFailureStreaks.record). */
export interface StreakChange {
  /** Placements whose search has just failed STUCK_SEARCH_FAILURES times in a row (said once). */
  readonly reached: readonly string[];
  /** Placements that were stuck and no longer are (their search answered, or they were answered). */
  readonly recovered: readonly string[];
}

/**
 * How many times in a row each unresolved placement's order-history search has failed (a read error
 * other than a refused cursor: SentSearch.unread), kept across reconciles by the engine. Such a
 * placement stays unknown, its level waiting, for as long as the search fails: mm never gives it up
 * on its own (it may rest, and a second quote there is double exposure), so the operator must hear of
 * a search that keeps failing. The count tells the first failure of a run (said at warn) from its
 * repeats, and the one that makes it stuck (said once) from later ones.
 * @example const c = streaks.record(unresolvedIds, found.waiting, found.unread); warnOnce(c.reached);
 */
export class SearchFailureStreaks {
  readonly #counts = new Map<string, number>();

  /**
   * Takes one reconcile's searches: each of `unresolved` that `unread` holds failed once more; one
   * `waiting` was not searched (its count stays); any other was searched and answered (its count
   * ends). Placements no longer unresolved are forgotten.
   */
  record(
    unresolved: Iterable<string>,
    waiting: ReadonlySet<string>,
    unread: ReadonlySet<string>,
  ): StreakChange {
    const reached: string[] = [];
    const recovered: string[] = [];
    const still = new Set<string>();
    for (const cid of unresolved) {
      const n = this.#counts.get(cid) ?? 0;
      if (unread.has(cid)) {
        this.#counts.set(cid, n + 1);
        if (n + 1 === STUCK_SEARCH_FAILURES) reached.push(cid);
        still.add(cid);
      } else if (waiting.has(cid) && n > 0) still.add(cid);
    }
    for (const [cid, n] of this.#counts) {
      if (still.has(cid)) continue;
      if (n >= STUCK_SEARCH_FAILURES) recovered.push(cid);
      this.#counts.delete(cid);
    }
    return { reached, recovered };
  }

  /** Failures in a row of this placement's search (0: none, or it answered since). */
  count(clientOrderId: string): number {
    return this.#counts.get(clientOrderId) ?? 0;
  }

  /** Placements whose search has failed STUCK_SEARCH_FAILURES times in a row or more. */
  get stuck(): number {
    let n = 0;
    for (const c of this.#counts.values()) if (c >= STUCK_SEARCH_FAILURES) n++;
    return n;
  }
}
