import { ExchangeError } from "../exchange/exchange-error.js";
import type { EngineCore } from "./engine-core.js";

/**
 * How many failed reads in a row make a status read "keep failing": warned (once) and counted in
 * mm_market_status_reads_failing. One failure is a blip (a 5xx, a timeout), logged at debug: the
 * next period reads again.
 */
export const READ_FAILURES_BEFORE_WARN = 2;

/** Which watch reads: the closed-market watch (`closed`) or the open-market sweep (`open`). */
export type StatusWatch = "closed" | "open";

/** What one read was, for the log lines: a market's record, or the market list. */
export interface ReadTarget {
  /** The market id, or LIST_KEY for GET /api/markets. */
  readonly key: string;
  readonly marketId?: string;
  readonly slug?: string | undefined;
}

/**
 * The failed status reads of one watch, by market (or the list). Each failure is logged at debug;
 * the READ_FAILURES_BEFORE_WARN-th in a row is logged once at warn, and the count of reads failing
 * so is reported (`market_reads_failing`, the metric mm_market_status_reads_failing{watch}); a read
 * that answers clears its key (logged at info when it had warned), and so does a key no longer read
 * (`keepOnly`: the market reopened, settled, passed its close), so the gauge does not stay up for a
 * read nobody makes. Before, a record that never read (a 404 for a market not yet public) was only
 * ever logged at debug: a market held closed, or quoted at stale prices, for the whole run unseen.
 */
export class ReadFailures {
  readonly #core: Pick<EngineCore, "clock" | "log" | "emit">;
  readonly #watch: StatusWatch;
  /** Failures in a row, by key. */
  readonly #streaks = new Map<string, number>();
  /** Keys warned of (their streak reached READ_FAILURES_BEFORE_WARN). */
  readonly #warned = new Set<string>();

  constructor(core: Pick<EngineCore, "clock" | "log" | "emit">, watch: StatusWatch) {
    this.#core = core;
    this.#watch = watch;
  }

  /** Reads of this watch that keep failing now (what the metric shows). */
  get failing(): number {
    return this.#warned.size;
  }

  /** A read of `target` failed with `err`: `next` says what happens next, for the log lines. */
  failed(target: ReadTarget, err: unknown, next: string): void {
    const { log } = this.#core;
    const n = (this.#streaks.get(target.key) ?? 0) + 1;
    this.#streaks.set(target.key, n);
    const fields = { err, watch: this.#watch, marketId: target.marketId, slug: target.slug, failures: n };
    log.debug(fields, `${what(target)} unreadable: ${next}`);
    if (n !== READ_FAILURES_BEFORE_WARN) return;
    this.#warned.add(target.key);
    log.warn(
      fields,
      `${what(target)} keeps failing to read (${n} reads in a row): ${next}; said once until it reads (mm_market_status_reads_failing)`,
    );
    this.#report();
  }

  /** A read of `target` answered: its streak ends. */
  succeeded(target: ReadTarget): void {
    this.#streaks.delete(target.key);
    if (!this.#warned.delete(target.key)) return;
    this.#core.log.info(
      { watch: this.#watch, marketId: target.marketId, slug: target.slug },
      `${what(target)} read again`,
    );
    this.#report();
  }

  /** Forgets every key `keep` rejects: no longer read by this watch, so no longer failing. */
  keepOnly(keep: (key: string) => boolean): void {
    for (const key of this.#streaks.keys()) if (!keep(key)) this.#streaks.delete(key);
    let changed = false;
    for (const key of this.#warned) {
      if (keep(key)) continue;
      this.#warned.delete(key);
      changed = true;
    }
    if (changed) this.#report();
  }

  #report(): void {
    this.#core.emit({
      type: "market_reads_failing",
      atMs: this.#core.clock.now(),
      watch: this.#watch,
      failing: this.#warned.size,
    });
  }
}

/** The log lines' name of a read. */
function what(target: ReadTarget): string {
  return target.key === LIST_KEY ? "the market list (GET /api/markets)" : "market's record";
}

/** The key of the market list read (GET /api/markets). */
export const LIST_KEY = "GET /api/markets";

/**
 * A 404 (`market_not_found` on the mock; the spec names no code): the exchange shows no such market.
 * An answer, not a failing read: a market held NOT_FOUND whose record is still not found. So is a
 * record read by the market's slug that is another market's (OtherMarketRecord).
 */
export function isNotFound(err: unknown): boolean {
  return (err instanceof ExchangeError && err.httpStatus === 404) || err instanceof OtherMarketRecord;
}

/**
 * The record at a market's slug is another market's (its id differs): the slug was reused (the spec
 * derives slugs from titles and says only that they are unique), the market itself not found by it.
 * Taken as a 404 (isNotFound): read as this market's, its status would be taken for it, and a
 * resolution settled at the other market's payouts.
 */
export class OtherMarketRecord extends Error {
  readonly marketId: string;
  readonly slug: string;
  /** The id of the market whose record the slug now names. */
  readonly foundId: string;

  constructor(marketId: string, slug: string, foundId: string) {
    super(`GET /api/markets/${slug}: the record of market ${foundId}, not of ${marketId} (slug reused)`);
    this.name = "OtherMarketRecord";
    this.marketId = marketId;
    this.slug = slug;
    this.foundId = foundId;
  }
}
