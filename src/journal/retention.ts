import type { Database } from "better-sqlite3";
import type { Clock, TimerId } from "../core/clock.js";
import type { Logger } from "../observability/logger.js";
import { JournalPruner, PRUNED_TABLES } from "./prune.js";

export const DAY_MS = 86_400_000;
/** A pass runs this often: the file then holds at most an hour more than the retention. */
export const RETENTION_PASS_EVERY_MS = 3_600_000;
/** The first pass waits this long after start, so it never competes with the start-up reconcile. */
export const RETENTION_FIRST_PASS_MS = 60_000;
/**
 * Rows looked at per step, and the pause between steps: at most ~1,250 rows a second. A step is one
 * short transaction (~1–2 ms for 250 rows on the test VM) on the event loop, between the engine's
 * work. The pace is set by the WAL: each deleted row dirties a leaf of the clientOrderId indexes (in
 * no particular order), and every ~1,000 dirty pages SQLite checkpoints, a stall of tens of ms with
 * its fsync; faster pruning would mean more of them. An hour of the busiest trading the exchange's
 * rate limit allows (~60,000 placements, ~250,000 rows) is pruned in under 4 minutes; a backlog (a
 * file written before retention existed) is one long pass at that pace.
 */
export const RETENTION_CHUNK_ROWS = 250;
export const RETENTION_STEP_GAP_MS = 200;

export interface JournalRetentionOptions {
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Rows older than this are pruned (JournalPruner says which); > 0. */
  readonly retentionMs: number;
  /** The journal file, for the logs. */
  readonly path?: string;
  readonly everyMs?: number;
  readonly firstPassMs?: number;
  readonly chunkRows?: number;
  readonly stepGapMs?: number;
}

/**
 * Keeps the journal from growing without bound: every RETENTION_PASS_EVERY_MS it prunes the audit
 * rows older than the retention (JournalPruner), a chunk per step with the event loop free between
 * steps. SQLite reuses the freed pages for new rows, so once the file holds a retention's worth of
 * history it stops growing (apart from fills, fees and the accounts they moved, which are kept for
 * good). A step that fails (the file locked by another connection, a full disk) abandons the pass,
 * logged once; the next pass starts over.
 * @example const r = new JournalRetention({ db, clock, logger, retentionMs: 7 * DAY_MS }); r.start(); … r.close();
 */
export class JournalRetention {
  readonly #o: JournalRetentionOptions;
  readonly #pruner: JournalPruner;
  #timer: TimerId | undefined;
  #closed = false;
  #deleted = 0;
  #passes = 0;

  constructor(o: JournalRetentionOptions) {
    this.#o = o;
    this.#pruner = new JournalPruner(o.db);
  }

  /** Rows deleted so far. */
  get deleted(): number {
    return this.#deleted;
  }

  /** Passes completed so far. */
  get passes(): number {
    return this.#passes;
  }

  /** Schedules the first pass (RETENTION_FIRST_PASS_MS from now), then one every RETENTION_PASS_EVERY_MS. */
  start(): void {
    this.#schedule(this.#o.firstPassMs ?? RETENTION_FIRST_PASS_MS, () => this.#pass());
  }

  /** Stops pruning (a pass under way stops after its current step). Idempotent. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) this.#o.clock.cancelTimer(this.#timer);
    this.#timer = undefined;
  }

  #pass(): void {
    const startedAt = this.#o.clock.now();
    const cutoffMs = startedAt - this.#o.retentionMs;
    const chunkRows = this.#o.chunkRows ?? RETENTION_CHUNK_ROWS;
    let table = 0;
    let after = 0;
    let deleted = 0;
    const step = (): void => {
      const name = PRUNED_TABLES[table];
      if (name === undefined) {
        this.#passes++;
        this.#deleted += deleted;
        if (deleted > 0) {
          this.#o.logger.info(
            { journal: this.#o.path, deleted, cutoff: new Date(cutoffMs).toISOString() },
            `journal retention: deleted ${deleted} audit row(s) older than ${new Date(cutoffMs).toISOString()}`,
          );
        }
        this.#next();
        return;
      }
      try {
        const c = this.#pruner.chunk(name, cutoffMs, after, chunkRows);
        deleted += c.deleted;
        after = c.afterId;
        if (c.done) {
          table++;
          after = 0;
        }
      } catch (err) {
        this.#deleted += deleted;
        this.#o.logger.warn(
          { err, journal: this.#o.path, table: name, deleted },
          "journal retention: a pruning step failed; the pass stops and the next one starts over",
        );
        this.#next();
        return;
      }
      this.#schedule(this.#o.stepGapMs ?? RETENTION_STEP_GAP_MS, step);
    };
    step();
  }

  #next(): void {
    this.#schedule(this.#o.everyMs ?? RETENTION_PASS_EVERY_MS, () => this.#pass());
  }

  #schedule(delayMs: number, fn: () => void): void {
    if (this.#closed) return;
    this.#timer = this.#o.clock.setTimer(delayMs, () => {
      this.#timer = undefined;
      if (!this.#closed) fn();
    });
  }
}
