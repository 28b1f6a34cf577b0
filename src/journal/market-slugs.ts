import type { Database } from "better-sqlite3";
import { canonicalAccountName } from "./account-name.js";
import { SCHEMA_VERSION } from "./migrations.js";

/** A traded market as the journal last knew it: its id and the slug it last took. */
export interface JournaledSlug {
  readonly marketId: string;
  readonly slug: string;
}

/**
 * The slugs the runs of an account saw traded markets take (table `market_slugs`: the open-market
 * sweep's list showed the market by its id under a new slug), in the order journaled.
 */
export class MarketSlugs {
  /** The slug each market took last. */
  readonly #now = new Map<string, string>();
  /** The market that last left each slug. */
  readonly #leftBy = new Map<string, string>();
  /** The slugs each market has left, its slug now excluded. */
  readonly #left = new Map<string, Set<string>>();

  constructor(rows: readonly { marketId: string; slug: string; previous: string | null }[]) {
    for (const r of rows) {
      this.#now.set(r.marketId, r.slug);
      const left = this.#left.get(r.marketId) ?? new Set<string>();
      this.#left.set(r.marketId, left);
      left.delete(r.slug);
      if (r.previous !== null && r.previous !== r.slug) {
        this.#leftBy.set(r.previous, r.marketId);
        left.add(r.previous);
      }
    }
  }

  /**
   * The market that left `slug` (the last to, if several did) and the slug it took last; undefined
   * when no market left it, or when that market took it back since (it is its slug again: a 404 by
   * it says nothing the journal knows better).
   * @example slugs.renamedFrom("old-title") // { marketId: "m1", slug: "new-title" }
   */
  renamedFrom(slug: string): JournaledSlug | undefined {
    const marketId = this.#leftBy.get(slug);
    const now = marketId === undefined ? undefined : this.#now.get(marketId);
    if (marketId === undefined || now === undefined || now === slug) return undefined;
    return { marketId, slug: now };
  }

  /** marketId → the slugs the market has left (its last one excluded), for the open-market sweep. */
  left(): Map<string, readonly string[]> {
    const out = new Map<string, readonly string[]>();
    for (const [id, slugs] of this.#left) if (slugs.size > 0) out.set(id, [...slugs]);
    return out;
  }
}

/**
 * The slugs the runs of `account` (exchange base URL + wallet, as accountName spells it) journaled
 * their traded markets as taking; another account's rows are not read, as for every restore. A file
 * at a schema before version 8 has no such table: none (a reader of an older file that was not
 * migrated). A file below the current schema (read as it is, before the run's open migrates it:
 * journaledSlugs) may still hold runs.account as an earlier mm wrote it, exchange.baseUrl as
 * configured (migration 10 respells it): its runs are matched by that string's canonical spelling
 * (canonicalAccountName), or `HTTPS://API.x:443|0x…` would not be the account `https://api.x|0x…`
 * asks for, and its journaled slugs would be lost until the file migrates.
 * @example readMarketSlugs(db, account).renamedFrom("old-title")
 */
export function readMarketSlugs(db: Database, account: string): MarketSlugs {
  const has = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'market_slugs'").get();
  if (has === undefined) return new MarketSlugs([]);
  const select =
    "SELECT s.market_id, s.slug, s.previous, r.account FROM market_slugs s JOIN runs r ON r.run_id = s.run_id";
  type Row = { market_id: string; slug: string; previous: string | null; account: string };
  const current = Number(db.pragma("user_version", { simple: true })) >= SCHEMA_VERSION;
  const rows = current
    ? (db.prepare(`${select} WHERE r.account = ? ORDER BY s.id`).all(account) as Row[])
    : (db.prepare(`${select} ORDER BY s.id`).all() as Row[]).filter(
        (r) => canonicalAccountName(r.account) === account,
      );
  return new MarketSlugs(rows.map((r) => ({ marketId: r.market_id, slug: r.slug, previous: r.previous })));
}
