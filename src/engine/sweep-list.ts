import type { EngineCore } from "./engine-core.js";
import type { ListedMarketStatus, UnreadableListing } from "./ports.js";

/**
 * What the open-market sweep (open-market-sweep.ts) takes from one GET /api/markets before its
 * reads: the readable records by market id; the new slug of a traded market the list shows by its
 * id under another slug; and the records that do not read, warned of once a run.
 */
export class SweepList {
  readonly #core: EngineCore;
  /** Whether unreadable records of the list were warned of (once a run; debug after). */
  #skipWarned = false;

  constructor(core: EngineCore) {
    this.#core = core;
  }

  /**
   * The list's readable records by market id (a quoted market absent from it is read by slug).
   * A traded market shown there under a slug other than the one held takes the new slug (#renamed).
   * @param quoted the markets the sweep reads this round: one among the unreadable records is named
   */
  take(
    listed: readonly (ListedMarketStatus | UnreadableListing)[],
    quoted: readonly string[],
  ): Map<string, ListedMarketStatus> {
    const byId = new Map<string, ListedMarketStatus>();
    const unreadable: UnreadableListing[] = [];
    for (const m of listed) {
      if ("unreadable" in m) unreadable.push(m);
      else {
        byId.set(m.marketId, m);
        if (m.slug !== undefined) this.#renamed(m.marketId, m.slug);
      }
    }
    if (unreadable.length > 0) this.#skipped(unreadable, quoted);
    return byId;
  }

  /**
   * A traded market the list shows by its id under a slug other than the one held: back under a new
   * slug (the spec derives slugs from titles), its old one a 404 from then on. The new one is taken,
   * so every later read of its record is by it (the watches', a refusal's or a drift's, the fee
   * recheck). Kept, the old slug held such a market closed for the run once the list's word moved
   * it out of NOT_FOUND (its record read by the old slug, a 404, counted as a failing read), and
   * its payouts were never read.
   */
  #renamed(marketId: string, slug: string): void {
    const changed = this.#core.tokens.setMarketSlug(marketId, slug);
    if (changed === undefined) return;
    this.#core.log.info(
      { marketId, slug, previous: changed.previous },
      "the market list shows the market by its id under a new slug: its record is read by it from now on",
    );
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
