import type { EngineCore } from "./engine-core.js";
import { isNotFound } from "./read-failures.js";

/**
 * The slugs the open-market sweep's list shows traded markets under (SweepList): a market shown by
 * its id under a slug other than the one held takes it (#take), told to the journal (`market_slug`),
 * unless it is a slug the market has left (this run, or an earlier one: restore.slugsLeft). A list
 * served stale after a rename (a cache, a lagging replica) shows the old slug again: taken on its
 * word, the market went back to a slug that is a 404, its reads failing until the next list, and
 * the journal took a rename back that never was. Such a slug is taken only once the market's record
 * by it reads with the market's id (`confirm`: the market was really retitled back); else the slug
 * held stays. A market reading as another's (OtherMarketRecord) or not found is not it.
 */
export class SweepSlugs {
  readonly #core: EngineCore;
  /** marketId → the slugs the market has left. */
  readonly #left = new Map<string, Set<string>>();
  /** Slugs a list showed a market under that it has left, its record to be read by them (confirm). */
  #returning: { readonly marketId: string; readonly slug: string }[] = [];
  /** `marketId slug` pairs whose return a record did not confirm (said once at info, debug after). */
  readonly #unconfirmed = new Set<string>();

  constructor(core: EngineCore) {
    this.#core = core;
    for (const [id, slugs] of core.options.restore.slugsLeft ?? []) this.#left.set(id, new Set(slugs));
  }

  /** A new list is read: the returns an earlier one showed and no read confirmed are dropped. */
  newList(): void {
    this.#returning = [];
  }

  /**
   * The list shows `marketId` under `slug`: taken when new, kept to confirm when the market left it.
   * True in that case: the list is taken as stale for the market (its status there is from before
   * the rename, say before a pause too) until a record confirms the return.
   */
  listed(marketId: string, slug: string): boolean {
    const held = this.#core.tokens.slugOf(marketId);
    if (held === slug) return false;
    if (this.#left.get(marketId)?.has(slug) !== true) {
      this.#take(marketId, slug);
      return false;
    }
    this.#returning.push({ marketId, slug });
    return true;
  }

  /**
   * Reads, one at a time, each market's record by the slug it has left that the last list showed it
   * under: one that reads (with the market's id) is the market's slug again, and taken; one not
   * found (404, or another market's record) leaves the slug held (the list was stale). Made once,
   * not the breaker's half-open probe, as the sweep's other reads; a failed read ends it (the rest
   * are asked again by the next list that shows them so). False when a read failed.
   */
  async confirm(stopped: () => boolean): Promise<boolean> {
    const { exchange, log } = this.#core;
    const returning = this.#returning;
    this.#returning = [];
    for (const { marketId, slug } of returning) {
      if (stopped() || exchange.marketRecord === undefined) return true;
      const fields = { marketId, slug, held: this.#core.tokens.slugOf(marketId) };
      try {
        await exchange.marketRecord({ marketId, slug }, { once: true, neverProbe: true });
      } catch (err) {
        if (!isNotFound(err)) {
          log.debug({ ...fields, err }, "record by a slug the market left unreadable: slug kept");
          return false;
        }
        const key = `${marketId} ${slug}`;
        const line =
          "the market list shows the market by its id under a slug it has left, and its record by that slug is not the market's: the list taken as stale, the slug held kept";
        if (this.#unconfirmed.has(key)) log.debug(fields, line);
        else {
          this.#unconfirmed.add(key);
          log.info(fields, `${line}; said once`);
        }
        continue;
      }
      if (!stopped()) this.#take(marketId, slug);
    }
    return true;
  }

  /**
   * A traded market the list shows by its id under a new slug (the spec derives slugs from titles):
   * taken, so every later read of its record is by it (the watches', a refusal's or a drift's, the
   * fee recheck); its old one, a 404 from then on, is left. Told to the journal, which keeps it for
   * the next start (a configured slug the market left is found by it).
   */
  #take(marketId: string, slug: string): void {
    const changed = this.#core.tokens.setMarketSlug(marketId, slug);
    if (changed === undefined) return;
    const { previous } = changed;
    const left = this.#left.get(marketId) ?? new Set<string>();
    this.#left.set(marketId, left);
    left.delete(slug);
    if (previous !== undefined) left.add(previous);
    this.#core.log.info(
      { marketId, slug, previous },
      "the market list shows the market by its id under a new slug: its record is read by it from now on",
    );
    this.#core.emit({ type: "market_slug", atMs: this.#core.clock.now(), marketId, slug, previous });
  }
}
