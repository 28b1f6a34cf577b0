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

  constructor(core: EngineCore) {
    this.#core = core;
    this.#slugs = new SweepSlugs(core);
  }

  /**
   * The list's readable records by market id (a quoted market absent from it is read by slug).
   * A traded market shown there under a slug other than the one held takes the new slug (SweepSlugs;
   * one it has left only once confirmReturns reads its record by it).
   * @param quoted the markets the sweep reads this round: one among the unreadable records is named
   */
  take(
    listed: readonly (ListedMarketStatus | UnreadableListing)[],
    quoted: readonly string[],
  ): Map<string, ListedMarketStatus> {
    const byId = new Map<string, ListedMarketStatus>();
    const unreadable: UnreadableListing[] = [];
    this.#slugs.newList();
    for (const m of listed) {
      if ("unreadable" in m) unreadable.push(m);
      else {
        byId.set(m.marketId, m);
        if (m.slug !== undefined) this.#slugs.listed(m.marketId, m.slug);
      }
    }
    if (unreadable.length > 0) this.#skipped(unreadable, quoted);
    return byId;
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
