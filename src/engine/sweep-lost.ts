import type { EngineCore } from "./engine-core.js";
import type { ListedMarketStatus, MarketRecordStatus } from "./ports.js";
import { isNotFound, type ReadFailures } from "./read-failures.js";
import { LIST_WORD, NOT_FOUND_STATUS, SWEEP_HOW } from "./sweep-words.js";

/** A market held NOT_FOUND the list shows by its id: its slug now (the list's), its status version at the round's start. */
export interface LostDue {
  readonly marketId: string;
  readonly slug: string | undefined;
  readonly version: number;
}

/**
 * What the open-market sweep (open-market-sweep.ts) does with a market held NOT_FOUND that the
 * market list shows by its id. Two ways lead to NOT_FOUND: a quoted market the list left out whose
 * record 404'd (the sweep's own hold: `heldQuoted`), and a market held closed (a push's PAUSED, a
 * record's) whose record 404'd while no list showed it (the closed-market watch's,
 * LIST_WORD.closedNotFound). Shown OPEN, the first is reopened on the list's word (`listedAgain`:
 * back under a new slug, its old one still a 404). The second is not: its OPEN is confirmed by its
 * record first, as any status but OPEN is (`confirm`). A list is served stale (a lagging replica, a
 * cache from before the pause), and a market a push paused that the list alone reopened, by way of
 * one list that left it out, was quoted into while paused; the closed-market watch's own rule, for
 * a held market the list shows OPEN, is the same (listSays: kept held until its record reads OPEN).
 */
export class SweepLost {
  readonly #core: EngineCore;
  readonly #changed: (marketId: string, record: MarketRecordStatus, how: string, said?: string) => void;
  readonly #version: (marketId: string) => number;
  /** The open-market sweep's failing reads (watch `open`): a held market's OPEN that never confirms. */
  readonly #failures: ReadFailures;
  /** Markets the sweep held NOT_FOUND while quoted, with the status version that hold set. */
  readonly #quoted = new Map<string, number>();
  /** Markets held closed before NOT_FOUND, shown OPEN, their record a 404: kept held (said once while so). */
  readonly #kept = new Set<string>();

  constructor(
    core: EngineCore,
    changed: (marketId: string, record: MarketRecordStatus, how: string, said?: string) => void,
    version: (marketId: string) => number,
    failures: ReadFailures,
  ) {
    this.#core = core;
    this.#changed = changed;
    this.#version = version;
    this.#failures = failures;
  }

  /** The sweep has just held a quoted market NOT_FOUND: the list alone may reopen it. */
  heldQuoted(marketId: string): void {
    this.#quoted.set(marketId, this.#version(marketId));
  }

  /**
   * The round's markets held NOT_FOUND: a mark of any other is forgotten (reopened, or moved on).
   * Returns the markets kept held on a 404 whose confirm reads count as failing (their keys kept).
   */
  round(lost: readonly LostDue[]): ReadonlySet<string> {
    const ids = new Set(lost.map((d) => d.marketId));
    for (const [id, version] of this.#quoted) {
      if (!lost.some((d) => d.marketId === id && d.version === version)) this.#quoted.delete(id);
    }
    for (const id of this.#kept) if (!ids.has(id)) this.#kept.delete(id);
    return this.#kept;
  }

  /**
   * Whether the list's OPEN alone reopens the market: held NOT_FOUND by the sweep while quoted, and
   * its status not moved since (the version that hold set). False for a market held closed before.
   */
  reopensOnList(d: LostDue): boolean {
    return this.#quoted.get(d.marketId) === d.version;
  }

  /** The list no longer shows the market OPEN: no confirm read is failing for it any more. */
  notListedOpen(marketId: string): void {
    this.#kept.delete(marketId);
  }

  /**
   * A market the sweep held NOT_FOUND while quoted, shown OPEN again by the list by its id:
   * reopened on the list's word, unless its status moved since the round began. Its record is the
   * closed-market watch's to read, by the slug the list gives (SweepList; a port whose list names
   * none keeps the old slug, which a market back under a new one never answers).
   */
  listedAgain(d: LostDue, listed: ListedMarketStatus, stopped: boolean): void {
    if (listed.status !== "OPEN" || stopped || this.#version(d.marketId) !== d.version) return;
    this.#changed(d.marketId, listed, SWEEP_HOW, LIST_WORD.listedAgain);
  }

  /**
   * A market held NOT_FOUND that the list shows by its id with a status its record must confirm:
   * another than OPEN (CLOSED, RESOLVED…), or OPEN for a market held closed before it became
   * NOT_FOUND (reopensOnList false). Read by its slug (the list's: SweepList), once (made again
   * next period). A record found again is taken over the list: OPEN reopens the market, another
   * status is taken so that its lifecycle's handling follows (a resolution settled, a closed market
   * watched), where it stayed NOT_FOUND for the run. A record still not found (404: a port whose
   * list names no slug, the market back under a new one, a record lagging the list) leaves the
   * list's word for a status other than OPEN (LIST_WORD.listedById); an OPEN keeps the market held
   * (said once at info while so), that 404 a failing read of the sweep's (warned of if it lasts). A
   * read that fails leaves the market NOT_FOUND until a later period's read answers: it is held
   * already, nothing rests on it; its failures are the closed-market watch's to warn of (it reads
   * the same record every period). False when the read failed.
   */
  async confirm(d: LostDue, listed: ListedMarketStatus, stopped: () => boolean): Promise<boolean> {
    const { exchange, log } = this.#core;
    if (exchange.marketRecord === undefined || this.#version(d.marketId) !== d.version) return true;
    const target = { key: d.marketId, marketId: d.marketId, slug: d.slug };
    let record: MarketRecordStatus = listed;
    let said: string | undefined = LIST_WORD.listedById;
    try {
      record = await exchange.marketRecord(
        { marketId: d.marketId, slug: d.slug },
        { once: true, neverProbe: true },
      );
      said = undefined;
    } catch (err) {
      if (!isNotFound(err)) {
        const fields = { err, marketId: d.marketId, slug: d.slug, listed: listed.status };
        log.debug(
          fields,
          `held market's record unreadable: kept ${NOT_FOUND_STATUS}, read again next period`,
        );
        return false;
      }
      if (listed.status === "OPEN") {
        if (!stopped()) this.#keptHeld(d, err);
        return true;
      }
    }
    this.#kept.delete(d.marketId);
    this.#failures.succeeded(target);
    if (stopped() || this.#version(d.marketId) !== d.version) return true;
    // An OPEN record reopens the market (its record's word: no `said`); NOT_FOUND never comes back.
    if (record.status !== NOT_FOUND_STATUS) this.#changed(d.marketId, record, SWEEP_HOW, said);
    return true;
  }

  /** A market held closed before NOT_FOUND, shown OPEN, its record a 404: kept held; said once while so. */
  #keptHeld(d: LostDue, err: unknown): void {
    const fields = { marketId: d.marketId, slug: d.slug, status: NOT_FOUND_STATUS, listed: "OPEN" };
    const line =
      "held market (held closed before its record was not found) shown OPEN by the market list by its id, its record not found by its slug: kept held until its record reads OPEN (a list alone does not reopen it)";
    if (this.#kept.has(d.marketId)) this.#core.log.debug(fields, line);
    else {
      this.#kept.add(d.marketId);
      this.#core.log.info(fields, `${line}; said once while so`);
    }
    this.#failures.failed(
      { key: d.marketId, marketId: d.marketId, slug: d.slug },
      err,
      "kept held until its record reads OPEN",
    );
  }
}
