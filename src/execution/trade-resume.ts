import { TradePagingOrder } from "../exchange/assumptions.js";

/** A place in the trade history a paging may start from. */
interface Mark {
  /** The cursor a page was read with. */
  readonly cursor: string;
  /** The latest readable createdAt (epoch ms) of every trade before that page; -Infinity when none. */
  readonly beforeMs: number;
}

/** What a committed paging leaves for the next. */
interface Kept {
  readonly oldestFirst: boolean;
  readonly marks: readonly Mark[];
  readonly next: Mark | undefined;
  readonly cycleSinceMs: number | undefined;
}

const NOTHING: Kept = { oldestFirst: false, marks: [], next: undefined, cycleSinceMs: undefined };

/**
 * Where the reconciles' pagings of GET /api/me/trades start, kept from one to the next (in memory)
 * once the history is seen served oldest first. The spec shows no order and no time parameter, so a
 * paging from the history's start reads its oldest trades first and, on a history longer than the
 * page bound, every reconcile stopped at the same page, before this session's trades: a fill the
 * stream lost was never backfilled and its fee never booked. So, served oldest first:
 * - a paging the bound cut short is read on by the next from the cursor it stopped at (`catchingUp`),
 *   with the cut-off of the paging that began the run of pagings (`sinceMs`): a trade of the session
 *   it has not reached yet must not fall behind a later reconcile's cut-off; nor behind the
 *   inventory's compaction floor (`reachMs`);
 * - one that reached the end leaves its pages' cursors, and the next starts at the last page before
 *   which every trade is older than its cut-off: every trade at or after the cut-off is read again,
 *   as a paging running newest first reads back to it (fees set since, orders mapped since).
 * A history served newest first, or whose order no paging has shown, keeps nothing: every paging
 * starts at the front (its newest trades) and stops at its cut-off, as before.
 * INVARIANTS
 * - Only a committed paging (its trades applied) moves the start: a run that fails reads the same again.
 * - Every trade before a paging's start is older than its cut-off (or was read by the pagings
 *   since the one that began the run of pagings, when catching up).
 * @example
 * const paging = resume.begin(cutOffMs, sinceMs); // paging.cursor: where to read from
 * paging.page(cursor, stamps, page.nextCursor);   // each page as read
 * paging.commit(capped);                          // once its trades are applied
 */
export class TradeResume {
  #kept: Kept = NOTHING;

  /** True while a paging the page bound cut short is to be read on by the next. */
  get catchingUp(): boolean {
    return this.#kept.next !== undefined;
  }

  /**
   * The latest readable createdAt read by the pagings catching up: the trades not read yet are
   * stamped at or after it (oldest first), so the inventory must not compact past it. Undefined
   * when not catching up.
   */
  get reachMs(): number | undefined {
    return this.#kept.next?.beforeMs;
  }

  /**
   * A run's trade cut-off (trades older are dropped unread), moved back while catching up to that
   * of the paging that began it: its trades not reached yet may be older than a later cut-off.
   */
  sinceMs(runSinceMs: number): number {
    const cycle = this.#kept.cycleSinceMs;
    return this.#kept.next === undefined || cycle === undefined ? runSinceMs : Math.min(runSinceMs, cycle);
  }

  /**
   * A run's paging, from where the last committed one left it: on from its cursor when catching up;
   * else, served oldest first, at the last page before which every trade is older than `horizonMs`
   * (the run's paging cut-off); else at the history's start. `sinceMs`: the run's filter cut-off.
   */
  begin(horizonMs: number, sinceMs: number): TradePaging {
    const kept = this.#kept;
    const apply = (k: Kept) => {
      this.#kept = k;
    };
    if (kept.next !== undefined) return new TradePaging(kept, kept.next, true, sinceMs, apply);
    const marks = kept.oldestFirst ? kept.marks : [];
    const at = marks.findLast((m) => m.beforeMs < horizonMs);
    return new TradePaging(kept, at, false, sinceMs, apply);
  }
}

/** One reconcile's paging of the trade history (TradeResume.begin). */
export class TradePaging {
  readonly #kept: Kept;
  readonly #apply: (k: Kept) => void;
  readonly #sinceMs: number;
  readonly #order = new TradePagingOrder();
  readonly #marks: Mark[] = [];
  #start: Mark | undefined;
  #continuing: boolean;
  /** A paging catching up whose kept cursor was refused: read from the start, its cut-off kept. */
  #restart = false;
  #newestFirst = false;
  #maxMs: number;
  #next: string | null = null;

  constructor(
    kept: Kept,
    start: Mark | undefined,
    continuing: boolean,
    sinceMs: number,
    apply: (k: Kept) => void,
  ) {
    this.#kept = kept;
    this.#start = start;
    this.#continuing = continuing;
    this.#sinceMs = sinceMs;
    this.#apply = apply;
    this.#maxMs = start?.beforeMs ?? Number.NEGATIVE_INFINITY;
  }

  /** True when the paging reads on from where a paging the page bound cut short stopped (and was not refused). */
  get readOn(): boolean {
    return this.#continuing;
  }

  /** The kept cursor the first page is read with; undefined: the history's start. */
  get cursor(): string | undefined {
    return this.#start?.cursor;
  }

  /**
   * The exchange refused the kept cursor (the spec says nothing of how long one stays valid): the
   * paging reads from the history's start instead, and what was kept goes (a run catching up keeps
   * its cut-off: its trades not reached yet are still to be read).
   */
  refused(): void {
    this.#start = undefined;
    this.#maxMs = Number.NEGATIVE_INFINITY;
    this.#marks.length = 0;
    if (!this.#continuing) return;
    this.#continuing = false;
    this.#restart = true;
  }

  /**
   * Takes a page as read: the cursor it was read with (undefined: the history's start), its trades'
   * createdAt as read (epoch ms, NaN when unreadable, in the page's order) and its nextCursor.
   */
  page(cursor: string | undefined, createdAtMs: readonly number[], nextCursor: string | null): void {
    if (cursor !== undefined) this.#marks.push({ cursor, beforeMs: this.#maxMs });
    for (const ms of createdAtMs) if (ms > this.#maxMs) this.#maxMs = ms;
    if (this.#order.newestFirst(createdAtMs)) this.#newestFirst = true;
    this.#next = nextCursor;
  }

  /**
   * Once the paging's trades are applied: keeps where the next starts (TradeResume). `capped`: the
   * page bound ended it with a cursor still to follow.
   */
  commit(capped: boolean): void {
    const kept = this.#kept;
    if (this.#newestFirst || !(kept.oldestFirst || this.#order.oldestFirst)) {
      this.#apply(NOTHING);
      return;
    }
    const carry = this.#continuing || this.#restart;
    this.#apply({
      oldestFirst: true,
      marks: this.#continuing ? [...kept.marks, ...this.#marks] : [...this.#marks],
      next: capped && this.#next !== null ? { cursor: this.#next, beforeMs: this.#maxMs } : undefined,
      cycleSinceMs: carry ? Math.min(kept.cycleSinceMs ?? this.#sinceMs, this.#sinceMs) : this.#sinceMs,
    });
  }
}
