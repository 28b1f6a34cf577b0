import { existsSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { ConfigError } from "../config/errors.js";
import { JournalError } from "../journal/errors.js";
import { checkJournalIntact } from "../journal/integrity.js";
import { type JournaledSlug, MarketSlugs, readMarketSlugs } from "../journal/market-slugs.js";
import { migrate, SCHEMA_VERSION } from "../journal/migrations.js";
import { OPEN_BUSY_TIMEOUT_MS } from "../journal/open.js";
import type { JournalSettings } from "./journal-settings.js";

/** The market that left a slug and the slug it took last (MarketSlugs.renamedFrom), or undefined. */
export type SlugLookup = (slug: string) => JournaledSlug | undefined;

/**
 * The journal's word, for the start's market selection, on a configured slug the exchange does not
 * know (a 404): the market an earlier run of `account` saw leave it, and the slug that market took
 * last (table `market_slugs`, the engine's `market_slug` events). A market retitled while mm ran
 * took its new slug then (the spec derives slugs from titles), but engine.markets still names the
 * old one, a 404 from then on: without this a restart exited 2 on a market mm was trading.
 * The start's selection also asks it of the configured slugs found (a slug another market took
 * since: warned of). The file is read once, on the first lookup, read-only (readFile), before
 * openDaemonJournal opens it for the run; no file yet: nothing known. A journal that
 * cannot be read (a damaged WAL, too new, unreadable) is a ConfigError on journal.path, as the run's
 * open would give. Undefined without a journal.
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

/**
 * Reads the rows on a read-only connection, which neither checkpoints the WAL nor migrates the file:
 * the run's own open, right after, is the one that does (openJournalDb). Opened read-write here, it
 * ended a WAL torn by a power loss for good (the checkpoint) before that open could warn of what the
 * loss rolled back, and it migrated (wrote) a file before that open's quick_check refused it as
 * damaged, "its files as they were". A file at an older schema is read as it is: table
 * `market_slugs` came with version 8, so a file before it has no rows, and a file before version 10
 * holds runs.account as exchange.baseUrl was configured then, matched by its canonical spelling
 * (readMarketSlugs): else an odd old spelling lost a retitled market's word, the start exited 2
 * before the run's open migrated the file, and so did every restart. A file too
 * new is refused as the run's open refuses it. A WAL that is damaged (not merely torn) is refused
 * too (checkJournalIntact, without quick_check: the run's open runs it), the torn one's warning left
 * to the run's open. A file whose damage the read meets (SQLITE_CORRUPT, SQLITE_NOTADB) is refused
 * as the run's open refuses it (damagedFile).
 */
function readFile(path: string, account: string): MarketSlugs {
  if (path === ":memory:" || !existsSync(path)) return new MarketSlugs([]);
  try {
    checkJournalIntact(path, { quickCheck: false, warn: () => undefined });
    const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    try {
      db.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
      // At this version and above migrate writes nothing: it refuses a file newer than this mm.
      if (Number(db.pragma("user_version", { simple: true })) >= SCHEMA_VERSION) migrate(db);
      return readMarketSlugs(db, account);
    } finally {
      db.close();
    }
  } catch (err) {
    if (err instanceof JournalError) throw new ConfigError([{ field: "journal.path", message: err.message }]);
    if (!(err instanceof BetterSqlite3.SqliteError)) throw err;
    if (/^SQLITE_(CORRUPT|NOTADB)/.test(err.code)) damagedFile(path);
    const message = `cannot read the journal at ${path} for the slugs its markets took: ${err.message}`;
    throw new ConfigError([{ field: "journal.path", message }]);
  }
}

/**
 * The lookup's read met a damaged file: the run's open, right after, would refuse it with the
 * diagnosis and the way out (journal_damaged: restore a backup, or `.recover`); the operator gets
 * that refusal here, the start's first read of the file, rather than SQLite's bare "database disk
 * image is malformed". quick_check finds what the read met (it reads every page); a check that
 * finds nothing leaves the caller's own message.
 */
function damagedFile(path: string): void {
  try {
    checkJournalIntact(path, { quickCheck: true, warn: () => undefined });
  } catch (err) {
    if (err instanceof JournalError) throw new ConfigError([{ field: "journal.path", message: err.message }]);
    throw err;
  }
}
