import type { EngineCore } from "./engine-core.js";

/**
 * The slugs the open-market sweep's list shows traded markets under (SweepList): a market shown by
 * its id under a slug other than the one held takes it (#take), told to the journal (`market_slug`),
 * which keeps it for the next start (a configured slug the market left is found by it).
 */
export class SweepSlugs {
  readonly #core: EngineCore;

  constructor(core: EngineCore) {
    this.#core = core;
  }

  /** The list shows `marketId` under `slug`: taken when it is not the slug held. */
  listed(marketId: string, slug: string): void {
    if (this.#core.tokens.slugOf(marketId) === slug) return;
    this.#take(marketId, slug);
  }

  /**
   * A traded market the list shows by its id under a new slug (the spec derives slugs from titles):
   * taken, so every later read of its record is by it (the watches', a refusal's or a drift's, the
   * fee recheck); its old one is a 404 from then on. Told to the journal, which keeps it for the
   * next start (a configured slug the market left is found by it).
   */
  #take(marketId: string, slug: string): void {
    const changed = this.#core.tokens.setMarketSlug(marketId, slug);
    if (changed === undefined) return;
    const { previous } = changed;
    this.#core.log.info(
      { marketId, slug, previous },
      "the market list shows the market by its id under a new slug: its record is read by it from now on",
    );
    this.#core.emit({ type: "market_slug", atMs: this.#core.clock.now(), marketId, slug, previous });
  }
}
