import { journalAccount } from "../../../src/app/journal.js";
import type { JournalSettings } from "../../../src/app/journal-settings.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import type { MarketScenario } from "../../../src/mock/scenario/types.js";
import { WALLET } from "./support.js";

/**
 * Writes into `journal` an earlier run of the daemon's account on `m` (ended by SIGTERM a second
 * ago) that traded `market`'s YES token under `from` and saw the market take `to` (`market_slug`):
 * what a start on the journal's word (journaled-slugs.ts) reads. Returns `journal`.
 */
export function journaledRename(
  journal: JournalSettings,
  m: MockExchange,
  market: MarketScenario,
  rename: { readonly from: string; readonly to: string },
): JournalSettings {
  const db = openJournalDb(journal.path);
  try {
    const w = new JournalWriter(db);
    const account = journalAccount(m.httpUrl, WALLET);
    const tokens = [{ tokenId: market.yesTokenId, marketId: market.id, slug: rename.from, outcome: "YES" }];
    const run = w.beginRun({ account, session: "earlier", atMs: Date.now() - 60_000, tokens });
    w.marketSlug(run, {
      atMs: Date.now() - 30_000,
      marketId: market.id,
      slug: rename.to,
      previous: rename.from,
    });
    w.endRun(run, Date.now() - 1_000, "SIGTERM", 0);
  } finally {
    db.close();
  }
  return journal;
}
