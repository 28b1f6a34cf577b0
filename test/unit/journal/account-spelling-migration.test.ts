import { describe, expect, it } from "vitest";
import { journalAccount, openDaemonJournal } from "../../../src/app/journal.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { canonicalAccountName } from "../../../src/journal/account-name.js";
import { MIGRATIONS } from "../../../src/journal/migrations.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { openJournalReader } from "../../../src/journal/open-read.js";
import { buildReport } from "../../../src/journal/report.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { memoryLogger } from "../../integration/daemon/support.js";
import { journalPath } from "./support.js";

const MAKER = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const TRIP = {
  atMs: Date.UTC(2025, 5, 1, 12),
  action: "trip",
  peakMicro: 2_000_000n,
  pnlMicro: -1_500_000n,
  drawdownMicro: 3_500_000n,
  limitMicro: 1_000_000n,
} as const;

/**
 * A journal an earlier mm wrote (schema 9: the writer of today needs its cancel reasons) under `exchange.baseUrl` as configured: a run under an
 * odd spelling of the exchange tripped the kill switch, a later one ran under the plain spelling,
 * and one ran on another exchange written oddly too.
 */
function olderJournal(): string {
  const path = journalPath();
  const db = openJournalDb(path, { migrations: MIGRATIONS.slice(0, 9) });
  const w = new JournalWriter(db);
  const r1 = w.beginRun({ account: `HTTP://127.0.0.1:18080|${MAKER}`, session: "s1", atMs: 1, tokens: [] });
  w.killSwitch(r1, TRIP);
  w.endRun(r1, 2, "SIGTERM", 0);
  const r2 = w.beginRun({
    account: `https://API.exchange.example:443|${MAKER}`,
    session: "s2",
    atMs: 3,
    tokens: [],
  });
  w.endRun(r2, 4, "SIGTERM", 0);
  const r3 = w.beginRun({ account: `http://127.0.0.1:18080|${MAKER}`, session: "s3", atMs: 5, tokens: [] });
  w.endRun(r3, 6, "SIGTERM", 0);
  db.close();
  return path;
}

describe("a journal written under another spelling of the exchange's base URL", () => {
  it("is the same account once opened: the tripped kill switch and the earlier run are restored", () => {
    const path = olderJournal();
    const { logger } = memoryLogger("info");
    const j = openDaemonJournal(
      { path, snapshotIntervalMs: 60_000, sync: "normal" },
      {
        account: journalAccount("http://127.0.0.1:18080", MAKER),
        session: "s4",
        tokens: [],
        clock: new SimClock(1_700_000_000_000),
        logger,
      },
    );
    try {
      // Was: runs 0, no trip — "first run of this account", quoting at once.
      expect(j.restore.runs).toBe(2);
      expect(j.restore.killSwitch).toMatchObject({ run: 1, drawdownMicro: 3_500_000n });
    } finally {
      j.close();
    }
  });

  it("mm report of it counts one account per exchange and wallet (was 3 for 2), its copy migrated", async () => {
    const path = olderJournal();
    const reader = await openJournalReader(path);
    try {
      expect(reader.copied).toBe(true);
      expect(buildReport(reader.db).accounts).toBe(2);
      const accounts = reader.db.prepare("SELECT account FROM runs ORDER BY run_id").pluck().all();
      expect(accounts).toEqual([
        `http://127.0.0.1:18080|${MAKER}`,
        `https://api.exchange.example|${MAKER}`,
        `http://127.0.0.1:18080|${MAKER}`,
      ]);
    } finally {
      reader.close();
    }
  });

  it("canonicalAccountName spells a stored account as journalAccount does", () => {
    expect(canonicalAccountName(`HTTPS://API.exchange.example:443/|${MAKER.toUpperCase()}`)).toBe(
      journalAccount("https://api.exchange.example", MAKER),
    );
    expect(canonicalAccountName("no bar here")).toBe("no bar here");
  });
});
