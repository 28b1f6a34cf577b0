import type { BookState, BookStateReason, BookStatus } from "../book/book-state.js";
import type { Clock, TimerId } from "../core/clock.js";
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

/**
 * Logs the books that leave `synced` together (a reconnect, a silent connection) as one episode,
 * instead of one line per book and one per recovery: with 100 tokens a reconnect was 200 lines.
 * - the books that join in one burst (one socket event, synchronously) are one warn line, written a
 *   microtask later: how many, their status and the reason;
 * - when the last of them is quotable again, one info line: how many, and how long it took;
 * - `boundMs` after the episode began, the books still not back are named once, at warn.
 * Only books that had been synced join (a book's first wait is routine, see DecisionLog); the
 * DecisionLog writes its per-token lines for a member's book gate at debug.
 * @example
 * const g = new ResyncGroup(clock, log);
 * g.onState(state, everSynced); // engine.onBookState, every book state
 * g.has(tokenId); // DecisionLog: whether the token's book gate is the group's to tell
 */
export class ResyncGroup {
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #boundMs: number;
  /** Members not back yet: token → status it waits in. */
  readonly #waiting = new Map<string, BookStatus>();
  /** Every book of the episode. */
  #books = 0;
  #startedAt = 0;
  #timer: TimerId | undefined;
  /** The burst not logged yet: its books, by status and reason. */
  readonly #burst = new Map<string, string[]>();
  #flushQueued = false;

  constructor(clock: Clock, log: Logger, boundMs = FIRST_SNAPSHOT_WARN_MS) {
    this.#clock = clock;
    this.#log = log;
    this.#boundMs = boundMs;
  }

  /** Whether `tokenId`'s book is a member of the open episode (not back yet). */
  has(tokenId: string): boolean {
    return this.#waiting.size > 0 && this.#waiting.has(tokenId);
  }

  /**
   * A book's new state: a book that had been synced joins on a connection-wide reason; a member
   * that is quotable again leaves, and the last one out ends the episode.
   */
  onState(s: BookState, everSynced: boolean): void {
    if (s.quotable) {
      if (this.#waiting.size > 0 && this.#waiting.delete(s.tokenId) && this.#waiting.size === 0) this.#end();
      return;
    }
    if (!everSynced || !CONNECTION_WIDE.has(s.reason)) return;
    if (this.#waiting.get(s.tokenId) === s.status) return;
    if (this.#waiting.size === 0) this.#begin();
    if (!this.#waiting.has(s.tokenId)) this.#books++;
    this.#waiting.set(s.tokenId, s.status);
    const key = `${s.status}:${s.reason}`;
    let ids = this.#burst.get(key);
    if (ids === undefined) {
      ids = [];
      this.#burst.set(key, ids);
    }
    ids.push(s.tokenId);
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    // Every book of a dropped link changes state in one synchronous loop: one line for all of them.
    queueMicrotask(() => this.#flush());
  }

  /** Cancels the pending bound check (engine stop). */
  stop(): void {
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
  }

  #begin(): void {
    this.#books = 0;
    this.#startedAt = this.#clock.now();
    this.stop();
    this.#timer = this.#clock.setTimer(this.#boundMs, () => {
      this.#timer = undefined;
      this.#late();
    });
  }

  #flush(): void {
    this.#flushQueued = false;
    for (const [key, ids] of this.#burst) {
      const [status, reason] = key.split(":");
      this.#log.warn(
        { books: ids.length, status, reason, tokens: ids.slice(0, NAMED) },
        `books ${status}: ${ids.length} book(s) at once (${reason}), not quoted until each is synced again`,
      );
    }
    this.#burst.clear();
  }

  #end(): void {
    this.stop();
    const durationMs = Math.max(0, this.#clock.now() - this.#startedAt);
    this.#log.info(
      { books: this.#books, durationMs },
      `books recovered: all ${this.#books} book(s) synced again after ${durationMs} ms`,
    );
  }

  #late(): void {
    const ids = [...this.#waiting.keys()];
    if (ids.length === 0) return;
    this.#log.warn(
      {
        books: ids.length,
        of: this.#books,
        waitedMs: Math.max(0, this.#clock.now() - this.#startedAt),
        tokens: ids.slice(0, NAMED),
      },
      `books not recovered: ${ids.length} of ${this.#books} book(s) still not synced ${this.#boundMs} ms after they resynced`,
    );
  }
}
