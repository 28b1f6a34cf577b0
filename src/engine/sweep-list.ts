import type { EngineCore } from "./engine-core.js";
import type { ListedMarketStatus, UnreadableListing } from "./ports.js";
import { SweepSlugs } from "./sweep-slugs.js";

/**
 * What the open-market sweep (open-market-sweep.ts) takes from one GET /api/markets before its
 * reads: the readable records by market id; the new slug of a traded market the list shows by its
 * id under another slug (SweepSlugs); and the records that do not read, warned of once a run.
 */
export class SweepList {
  readonly #core: EngineCore;
  /** Whether unreadable records of the list were warned of (once a run; debug after). */
  #skipWarned = false;
  readonly #slugs: SweepSlugs;
  /** Markets the last list showed under a slug they have left (SweepSlugs): its word on them stale. */
  #stale = new Set<string>();

  constructor(core: EngineCore) {
    this.#core = core;
    this.#slugs = new SweepSlugs(core);
  }

  /**
   * The list's readable records by market id (a quoted market absent from it is read by slug).
   * A traded market shown there under a slug other than the one held takes the new slug (SweepSlugs;
   * one it has left only once confirmReturns reads its record by it). A market shown under a slug it
   * has left is left out (`stale`): that list is served stale for it (a cache, a lagging replica),
   * its status there from before the rename, so it neither reopens a market held (a paused one
   * quoted into) nor vouches for a quoted one (read by its slug instead).
   * @param quoted the markets the sweep reads this round: one among the unreadable records is named
   */
  take(
    listed: readonly (ListedMarketStatus | UnreadableListing)[],
    quoted: readonly string[],
  ): Map<string, ListedMarketStatus> {
    const byId = new Map<string, ListedMarketStatus>();
    const unreadable: UnreadableListing[] = [];
    this.#slugs.newList();
    this.#stale = new Set();
    for (const m of listed) {
      if ("unreadable" in m) unreadable.push(m);
      else if (m.slug !== undefined && this.#slugs.listed(m.marketId, m.slug)) this.#stale.add(m.marketId);
      else byId.set(m.marketId, m);
    }
    if (unreadable.length > 0) this.#skipped(unreadable, quoted);
    return byId;
  }

  /** Whether the last list showed the market under a slug it has left (left out of take's records). */
  stale(marketId: string): boolean {
    return this.#stale.has(marketId);
  }

  /**
   * Reads the records by the slugs the last list showed markets under that they have left
   * (SweepSlugs.confirm): taken back only when the record by it is the market's. False when a
   * read failed.
   */
  confirmReturns(stopped: () => boolean): Promise<boolean> {
    return this.#slugs.confirm(stopped);
  }

  /** Records of the list that did not read: skipped (a quoted one is read by slug); warned once. */
  #skipped(unreadable: readonly UnreadableListing[], quoted: readonly string[]): void {
    const ids = new Set(quoted);
    const fields = {
      watch: "open",
      unreadable: unreadable.length,
      quoted: unreadable.flatMap((u) =>
        u.marketId !== undefined && ids.has(u.marketId) ? [u.marketId] : [],
      ),
      first: unreadable[0]?.unreadable,
    };
    const line = "market list records that do not read: skipped, a quoted one read by its slug";
    if (this.#skipWarned) {
      this.#core.log.debug(fields, line);
      return;
    }
    this.#skipWarned = true;
    this.#core.log.warn(fields, `${line}; said once (debug after)`);
  }
}
