import { describe, expect, it } from "vitest";
import { openDaemonJournal } from "../../../src/app/journal.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { DAY_MS, RETENTION_FIRST_PASS_MS, RETENTION_STEP_GAP_MS } from "../../../src/journal/retention.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { ACCOUNT, fill, journalPath } from "./support.js";

const NOW = Date.UTC(2025, 6, 1);

/** A journal whose only run stopped cleanly ten days ago, after one order and its fill. */
function oldJournal(): string {
  const path = journalPath();
  const db = openJournalDb(path);
  const w = new JournalWriter(db);
  const at = NOW - 10 * DAY_MS;
  const run = w.beginRun({ account: ACCOUNT, session: "old", atMs: at, tokens: [] });
  w.intent(run, {
    clientOrderId: "mm-old-1",
    tokenId: "t1",
    marketId: "m1",
    side: "buy",
    level: 0,
    priceMicro: 470_000,
    sizeMicro: 10_000_000n,
    sent: true,
    atMs: at,
  });
  w.outcome(run, {
    op: "place",
    clientOrderId: "mm-old-1",
    marketId: "m1",
    outcome: "accepted",
    orderId: "o1",
    code: undefined,
    latencyMs: 3,
    atMs: at,
  });
  w.fill(run, fill({ tsMs: at }), "stream");
  w.endRun(run, at + 1, "SIGTERM", 0);
  db.close();
  return path;
}

function rows(path: string) {
  const db = openJournalDb(path, { mustExist: true });
  try {
    return db
      .prepare(
        "SELECT (SELECT count(*) FROM intents) AS intents, (SELECT count(*) FROM outcomes) AS outcomes, (SELECT count(*) FROM fills) AS fills",
      )
      .get();
  } finally {
    db.close();
  }
}

describe("the daemon's journal applies journal.retentionDays", () => {
  for (const [days, left] of [
    [7, { intents: 0n, outcomes: 0n, fills: 1n }],
    [0, { intents: 1n, outcomes: 1n, fills: 1n }],
  ] as const) {
    it(`retentionDays ${days}: ${days === 0 ? "keeps everything" : "prunes order detail older than that a minute after start; the fill stays"}`, () => {
      const path = oldJournal();
      const clock = new SimClock(NOW);
      const logger = createLogger({ level: "info", pretty: false, destination: collectingStream() });
      const j = openDaemonJournal(
        { path, snapshotIntervalMs: 0, sync: "normal", retentionDays: days },
        { account: ACCOUNT, session: "new", tokens: [], clock, logger },
      );
      clock.advanceBy(RETENTION_FIRST_PASS_MS + 5 * RETENTION_STEP_GAP_MS);
      j.close();
      expect(clock.pending).toBe(0);
      expect(rows(path)).toEqual(left);
    });
  }
});
