/**
 * How long one placement's history search (or one order's lookup, GET /api/orders/{id}) may fail in
 * a row (from its first failure, on a clock that never steps) before the operator is told it is
 * stuck. A time, not a count of failures: a read that keeps failing is backed off to the periodic
 * reconcile (pendingRetryMs), so the count a minute holds depends on reconcile.intervalMs.
 */
export const STUCK_SEARCH_MS = 60_000;

/** What one reconcile changed in the streaks (SearchFailureStreaks.record). */
export interface StreakChange {
  /** Placements whose search has just been failing for STUCK_SEARCH_MS (said once). */
  readonly reached: readonly string[];
  /** Placements that were stuck and no longer are (their search answered, or they were answered). */
  readonly recovered: readonly string[];
}

/** One placement's streak: failures in a row, since when (monotonic ms), and whether it is stuck. */
interface Streak {
  failures: number;
  readonly sinceMs: number;
  stuck: boolean;
}

/**
 * How many times in a row, and for how long, each unresolved placement's order-history search has
 * failed (a read error other than a refused cursor: SentSearch.unread), kept across reconciles by the
 * engine. A second instance keeps each order's lookup (GET /api/orders/{id}) the same way
 * (warnLookups): an order absent from the open list whose lookup keeps failing is held live for as
 * long, its level blocked and its exposure counted, and the run around it succeeds. Such a placement stays unknown, its level waiting, for as long as the search fails: mm
 * never gives it up on its own (it may rest, and a second quote there is double exposure), so the
 * operator must hear of a search that keeps failing. The count tells the first failure of a run
 * (said at warn) from its repeats, and the failure that makes it stuck (said once) from later ones.
 * @example const c = streaks.record(unresolvedIds, found.waiting, found.unread, monoNow); warnOnce(c.reached);
 */
export class SearchFailureStreaks {
  readonly #streaks = new Map<string, Streak>();

  /**
   * Takes one reconcile's searches, made at `atMs` (monotonic): each of `unresolved` that `unread`
   * holds failed once more; one `waiting` was not searched (its streak stays); any other was searched
   * and answered (its streak ends). Placements no longer unresolved are forgotten.
   */
  record(
    unresolved: Iterable<string>,
    waiting: ReadonlySet<string>,
    unread: ReadonlySet<string>,
    atMs: number,
  ): StreakChange {
    const reached: string[] = [];
    const recovered: string[] = [];
    const still = new Set<string>();
    for (const cid of unresolved) {
      const s = this.#streaks.get(cid);
      if (unread.has(cid)) {
        const streak = s ?? { failures: 0, sinceMs: atMs, stuck: false };
        streak.failures++;
        this.#streaks.set(cid, streak);
        if (!streak.stuck && atMs - streak.sinceMs >= STUCK_SEARCH_MS) {
          streak.stuck = true;
          reached.push(cid);
        }
        still.add(cid);
      } else if (waiting.has(cid) && s !== undefined) still.add(cid);
    }
    for (const [cid, s] of this.#streaks) {
      if (still.has(cid)) continue;
      if (s.stuck) recovered.push(cid);
      this.#streaks.delete(cid);
    }
    return { reached, recovered };
  }

  /** The ids whose read failed at the last record (and every one before it in their streak). */
  ids(): string[] {
    return [...this.#streaks.keys()];
  }

  /** Failures in a row of this placement's search (0: none, or it answered since). */
  count(clientOrderId: string): number {
    return this.#streaks.get(clientOrderId)?.failures ?? 0;
  }

  /** How long this placement's search has been failing, as of `atMs` (0: not failing). */
  failingForMs(clientOrderId: string, atMs: number): number {
    const s = this.#streaks.get(clientOrderId);
    return s === undefined ? 0 : atMs - s.sinceMs;
  }

  /** Placements whose search has been failing in a row for STUCK_SEARCH_MS or more. */
  get stuck(): number {
    let n = 0;
    for (const s of this.#streaks.values()) if (s.stuck) n++;
    return n;
  }
}
