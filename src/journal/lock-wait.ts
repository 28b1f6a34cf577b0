import type { Clock } from "../core/clock.js";
import type { Logger } from "../observability/logger.js";

/**
 * How long a daemon's journal write waits for another connection's write lock, ms. A WAL writer
 * holds it for the microseconds of a commit (an fsync with `synchronous = full`), so two daemons
 * sharing a file wait far less than this; what waits longer is someone holding a transaction open
 * (an operator's `sqlite3` shell, a DB browser, a VACUUM), and the event loop must not wait for that.
 */
export const DAEMON_BUSY_TIMEOUT_MS = 20;

/** What LockWait changes: the connection's busy timeout (JournalWriter has it). */
export interface BusyTimeoutTarget {
  setBusyTimeout(ms: number): void;
}

export interface LockWaitOptions {
  readonly target: BusyTimeoutTarget;
  /** The wait while the file is free, ms (DAEMON_BUSY_TIMEOUT_MS). */
  readonly waitMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The journal file, for the logs. */
  readonly path: string | undefined;
}

/** The lock episode is logged at most this often (a holder taking and releasing it would flood the log). */
const LOG_EVERY_MS = 10_000;

/**
 * The busy-timeout policy of a writer on the event loop: writes wait up to `waitMs` for the lock;
 * once one has failed on it (SQLITE_BUSY after that wait: someone holds the file), the next writes do
 * not wait at all, so a held lock costs each journaled event microseconds, not `waitMs`; the first
 * write that succeeds again restores `waitMs`.
 * @example const lock = new LockWait({ target: writer, waitMs: 20, clock, logger, path });
 * try { write(); lock.succeeded(); } catch (err) { lock.failed(err); }
 */
export class LockWait {
  readonly #o: LockWaitOptions;
  #locked = false;
  #lostWhileLocked = 0;
  /** The current episode's warning was logged: its end is logged too. */
  #announced = false;
  #lastLogMs = Number.NEGATIVE_INFINITY;

  constructor(o: LockWaitOptions) {
    this.#o = o;
    this.#set(o.waitMs);
  }

  /** True while the file is held by another connection (writes fail without waiting). */
  get locked(): boolean {
    return this.#locked;
  }

  /** After a write that committed. */
  succeeded(): void {
    if (!this.#locked) return;
    this.#locked = false;
    this.#set(this.#o.waitMs);
    if (this.#announced) {
      this.#o.logger.info(
        { journal: this.#o.path, lostWrites: this.#lostWhileLocked },
        "journal file released by the other connection: writing again",
      );
    }
    this.#lostWhileLocked = 0;
    this.#announced = false;
  }

  /** After a write that failed (any reason; only a lock changes the policy). */
  failed(err: unknown): void {
    if (!isBusy(err)) return;
    this.#lostWhileLocked++;
    if (this.#locked) return;
    this.#locked = true;
    this.#set(0);
    this.#announced = this.#due();
    if (this.#announced) {
      this.#o.logger.warn(
        { journal: this.#o.path, waitedMs: this.#o.waitMs },
        "journal file locked by another connection (an open write transaction elsewhere?): journal writes fail at once until it is released; trading goes on",
      );
    }
  }

  #set(ms: number): void {
    try {
      this.#o.target.setBusyTimeout(ms);
    } catch {
      // A closed database: its writes fail anyway, and the recorder counts them.
    }
  }

  #due(): boolean {
    const now = this.#o.clock.now();
    if (now - this.#lastLogMs < LOG_EVERY_MS) return false;
    this.#lastLogMs = now;
    return true;
  }
}

/** SQLITE_BUSY and its extended codes (better-sqlite3's SqliteError carries them in `code`). */
function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}
