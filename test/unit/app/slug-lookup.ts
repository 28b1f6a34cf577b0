import type { JournalSettings } from "../../../src/app/journal-settings.js";
import { journaledSlugs } from "../../../src/app/journaled-slugs.js";
import { ACCOUNT } from "../journal/support.js";

/** The journal settings a start gives for the file at `path` (no snapshots, nothing pruned). */
export const settingsOf = (path: string): JournalSettings => ({
  path,
  snapshotIntervalMs: 0,
  sync: "normal",
  retentionDays: 0,
});

/**
 * What the start-up slug lookup (journaledSlugs) of ACCOUNT on the journal at `path` throws when
 * asked of `slug`; undefined when it answers.
 */
export function lookupThrown(path: string, slug: string): unknown {
  try {
    journaledSlugs(settingsOf(path), ACCOUNT)?.(slug);
    return undefined;
  } catch (err) {
    return err;
  }
}
