import type { BookState, BookStateReason, BookStatus } from "../book/book-state.js";
import { type Clock, monotonicNow, type TimerId } from "../core/clock.js";
import type { Logger } from "../observability/logger.js";
import { FIRST_SNAPSHOT_WARN_MS } from "./first-snapshot-watch.js";

/**
 * Book-state reasons that hit every book of a connection at once: the resubscribe after a dropped
 * /ws/market link (and a retried subscription), and a connection that went silent. A gap, a
 * malformed frame, a crossed book or a silent book are one book's news and are not grouped.
 */
const CONNECTION_WIDE: ReadonlySet<BookStateReason> = new Set(["resubscribed", "connection_silent"]);

/** Token ids named in one line before the rest is only counted. */
const NAMED = 20;

/** The books that left `synced` in one burst (one link drop), told as one. */
interface Episode {
  /** Members not back yet: token → status it waits in. */
  readonly waiting: Map<string, BookStatus>;
  /** Every book of the episode. */
  readonly books: number;
  /** Monotonic start (a wall-clock step does not misstate how long recovery took). */
  readonly startedAt: number;
  timer: TimerId | undefined;
}

/**
 * Logs the books that leave `synced` together (a reconnect, a silent connection) as one episode,
 * instead of one line per book and one per recovery: with 100 tokens a reconnect was 200 lines.
 * - the books that join in one burst (one socket event, synchronously) are one episode and one warn
 *   line, written a microtask later: how many, their status and the reason;
 * - when the last of an episode's books is quotable again, one info line: how many, how long;
 * - `boundMs` after an episode began, its books still not back are named once, at warn.
 * Each burst is its own episode: a second link drop while a book of the first is still out is told,
 * checked and recovered on its own. A book still out from an earlier episode stays in that one.
 * Only books that had been synced join (a book's first wait is routine, see DecisionLog); the
 * DecisionLog writes its per-token lines for a member's book gate at debug. Silent once stopped.
 * @example
 * const g = new ResyncGroup(clock, log);
 * g.onState(state, everSynced); // engine.onBookState, every book state
 * g.has(tokenId); // DecisionLog: whether the token's book gate is the group's to tell
 */
export class ResyncGroup {
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #boundMs: number;
  readonly #episodes = new Set<Episode>();
  /** The burst not logged yet: its tokens by status and reason, and the episode it makes. */
  readonly #burst = new Map<string, string[]>();
  #burstWaiting: Map<string, BookStatus> | undefined;
  #stopped = false;

  constructor(clock: Clock, log: Logger, boundMs = FIRST_SNAPSHOT_WARN_MS) {
    this.#clock = clock;
    this.#log = log;
    this.#boundMs = boundMs;
  }

  /** Whether `tokenId`'s book is a member of an open episode (not back yet). */
  has(tokenId: string): boolean {
    if (this.#burstWaiting?.has(tokenId) === true) return true;
    for (const e of this.#episodes) if (e.waiting.has(tokenId)) return true;
    return false;
  }

  /**
   * A book's new state: a book that had been synced joins this burst's episode on a
   * connection-wide reason (or stays in the episode it is already waiting in); a member that is
   * quotable again leaves, and the last one out of an episode ends it.
   */
  onState(s: BookState, everSynced: boolean): void {
    if (this.#stopped) return;
    if (s.quotable) {
      this.forget(s.tokenId);
      return;
    }
    if (!everSynced || !CONNECTION_WIDE.has(s.reason)) return;
    for (const e of this.#episodes) {
      if (e.waiting.has(s.tokenId)) {
        e.waiting.set(s.tokenId, s.status);
        return;
      }
    }
    let burst = this.#burstWaiting;
    if (burst === undefined) {
      burst = new Map();
      this.#burstWaiting = burst;
      // Every book of a dropped link changes state in one synchronous loop: one episode for all.
      queueMicrotask(() => this.#flush());
    }
    if (burst.has(s.tokenId)) {
      burst.set(s.tokenId, s.status);
      return;
    }
    burst.set(s.tokenId, s.status);
    const key = `${s.status}:${s.reason}`;
    let ids = this.#burst.get(key);
    if (ids === undefined) {
      ids = [];
      this.#burst.set(key, ids);
    }
    ids.push(s.tokenId);
  }

  /**
   * `tokenId`'s book is back, or no longer watched (its market settled: nothing will bring it back):
   * it leaves its episode, and the last one out ends it.
   */
  forget(tokenId: string): void {
    if (this.#stopped) return;
    this.#burstWaiting?.delete(tokenId);
    for (const e of this.#episodes) {
      if (e.waiting.delete(tokenId) && e.waiting.size === 0) this.#end(e);
    }
  }

  /** Stops: cancels every pending check, and later states are not told (engine stop). */
  stop(): void {
    this.#stopped = true;
    for (const e of this.#episodes) this.#cancel(e);
    this.#episodes.clear();
    this.#burst.clear();
    this.#burstWaiting = undefined;
  }

  // The burst's warn line, and its episode from then on (unless every book is already back).
  #flush(): void {
    const waiting = this.#burstWaiting;
    this.#burstWaiting = undefined;
    if (this.#stopped || waiting === undefined) return;
    for (const [key, ids] of this.#burst) {
      const [status, reason] = key.split(":");
      this.#log.warn(
        { books: ids.length, status, reason, tokens: ids.slice(0, NAMED) },
        `books ${status}: ${ids.length} book(s) at once (${reason}), not quoted until each is synced again`,
      );
    }
    const books = [...this.#burst.values()].reduce((n, ids) => n + ids.length, 0);
    this.#burst.clear();
    const e: Episode = { waiting, books, startedAt: monotonicNow(this.#clock), timer: undefined };
    if (waiting.size === 0) {
      this.#end(e);
      return;
    }
    e.timer = this.#clock.setTimer(this.#boundMs, () => {
      e.timer = undefined;
      this.#late(e);
    });
    this.#episodes.add(e);
  }

  #cancel(e: Episode): void {
    if (e.timer !== undefined) this.#clock.cancelTimer(e.timer);
    e.timer = undefined;
  }

  #end(e: Episode): void {
    this.#cancel(e);
    this.#episodes.delete(e);
    const durationMs = Math.max(0, Math.round(monotonicNow(this.#clock) - e.startedAt));
    this.#log.info(
      { books: e.books, durationMs },
      `books recovered: all ${e.books} book(s) synced again after ${durationMs} ms`,
    );
  }

  #late(e: Episode): void {
    const ids = [...e.waiting.keys()];
    if (ids.length === 0) return;
    this.#log.warn(
      {
        books: ids.length,
        of: e.books,
        waitedMs: Math.max(0, Math.round(monotonicNow(this.#clock) - e.startedAt)),
        tokens: ids.slice(0, NAMED),
      },
      `books not recovered: ${ids.length} of ${e.books} book(s) still not synced ${this.#boundMs} ms after they resynced`,
    );
  }
}
