import { existsSync } from "node:fs";
import { ConfigError } from "../config/errors.js";
import { JournalError } from "../journal/errors.js";
import { type JournaledSlug, MarketSlugs, readMarketSlugs } from "../journal/market-slugs.js";
import { openJournalDb } from "../journal/open.js";
import type { JournalSettings } from "./journal-settings.js";

/** The market that left a slug and the slug it took last (MarketSlugs.renamedFrom), or undefined. */
export type SlugLookup = (slug: string) => JournaledSlug | undefined;

/**
 * The journal's word, for the start's market selection, on a configured slug the exchange does not
 * know (a 404): the market an earlier run of `account` saw leave it, and the slug that market took
 * last (table `market_slugs`, the engine's `market_slug` events). A market retitled while mm ran
 * took its new slug then (the spec derives slugs from titles), but engine.markets still names the
 * old one, a 404 from then on: without this a restart exited 2 on a market mm was trading.
 * The file is read on the first lookup only (a start whose slugs are all found never opens it
 * here), before openDaemonJournal opens it for the run; no file yet: nothing known. A journal that
 * cannot be opened (damaged, too new) is the ConfigError on journal.path the run's open would give.
 * Undefined without a journal.
 * @example const renamed = journaledSlugs(settings, account); renamed?.("old-title") // { marketId, slug: "new-title" }
 */
export function journaledSlugs(
  settings: JournalSettings | undefined,
  account: string,
): SlugLookup | undefined {
  if (settings === undefined) return undefined;
  let known: MarketSlugs | undefined;
  return (slug) => {
    known ??= readFile(settings.path, account);
    return known.renamedFrom(slug);
  };
}

function readFile(path: string, account: string): MarketSlugs {
  if (path === ":memory:" || !existsSync(path)) return new MarketSlugs([]);
  let db: ReturnType<typeof openJournalDb>;
  try {
    // The run's own open follows at once: it runs the quick check and says what a power loss rolled back.
    db = openJournalDb(path, { mustExist: true, quickCheck: false, warn: () => undefined });
  } catch (err) {
    if (!(err instanceof JournalError)) throw err;
    throw new ConfigError([{ field: "journal.path", message: err.message }]);
  }
  try {
    return readMarketSlugs(db, account);
  } finally {
    db.close();
  }
}
