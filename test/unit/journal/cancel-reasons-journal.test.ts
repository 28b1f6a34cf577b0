import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { MIGRATIONS, SCHEMA_VERSION } from "../../../src/journal/migrations.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { ACCOUNT, journalPath } from "./support.js";

/*
 * Schema 9: a cancel or cancel-all row carries why the engine asked for it (intents.ts
 * CancelReason), so the journal shows why quotes left the book. Files written before it open and
 * upgrade, their rows kept with no reason (NULL).
 */

const T0 = Date.UTC(2025, 5, 1, 12);

function recorderOn(db: BetterSqlite3.Database): JournalRecorder {
  const writer = new JournalWriter(db);
  const run = writer.beginRun({ account: ACCOUNT, session: "s2", atMs: T0, tokens: [] });
  const logger = createLogger({ level: "error", pretty: false, destination: collectingStream() });
  return new JournalRecorder({ writer, run, clock: new SimClock(T0), logger, snapshotIntervalMs: 0 });
}

const rows = (db: BetterSqlite3.Database) =>
  db.prepare("SELECT op, client_order_id, outcome, reason FROM outcomes ORDER BY id").all();

describe("journal: cancel reasons (schema 9)", () => {
  it("journals each cancel's and cancel-all's reason; placements have none", () => {
    const db = openJournalDb(journalPath());
    const rec = recorderOn(db);
    const events: EngineEvent[] = [
      {
        type: "place_outcome",
        atMs: T0,
        intent: {
          kind: "place",
          tokenId: "t1",
          marketId: "m1",
          clientOrderId: "c1",
          quote: { side: "buy", level: 0, priceMicro: 470_000, sizeMicro: 10_000_000n },
          urgencyTicks: 1,
        },
        outcome: "accepted",
        code: undefined,
        latencyMs: 3,
        orderId: "o1",
      },
      { type: "cancel_outcome", atMs: T0 + 1, clientOrderId: "c1", outcome: "done", reason: "expiring" },
      {
        type: "cancel_all_outcome",
        atMs: T0 + 2,
        marketId: "m1",
        outcome: "failed",
        reason: "market_not_open",
      },
    ];
    for (const e of events) rec.onEvent(e);
    expect(rows(db)).toEqual([
      { op: "place", client_order_id: "c1", outcome: "accepted", reason: null },
      { op: "cancel", client_order_id: "c1", outcome: "done", reason: "expiring" },
      { op: "cancel_all", client_order_id: null, outcome: "failed", reason: "market_not_open" },
    ]);
    rec.close();
    db.close();
  });

  it("opens a file written at version 8: its cancel rows kept without a reason, new ones with theirs", () => {
    const path = journalPath();
    const v8 = openJournalDb(path, { migrations: MIGRATIONS.slice(0, 8) });
    v8.prepare("INSERT INTO runs (account, session, started_at_ms) VALUES (?, 'old', 1)").run(ACCOUNT);
    v8.prepare(
      `INSERT INTO outcomes (run_id, op, client_order_id, market_id, outcome, order_id, code, latency_ms, at_ms)
       VALUES (1, 'cancel', 'old-c', NULL, 'done', NULL, NULL, NULL, 5)`,
    ).run();
    v8.close();
    const before = new BetterSqlite3(path, { readonly: true });
    expect(Number(before.pragma("user_version", { simple: true }))).toBe(8);
    before.close();

    const db = openJournalDb(path);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(9);
    expect(Number(db.pragma("user_version", { simple: true }))).toBe(SCHEMA_VERSION);
    const rec = recorderOn(db);
    rec.onEvent({
      type: "cancel_outcome",
      atMs: T0,
      clientOrderId: "new-c",
      outcome: "done",
      reason: "requote",
    });
    expect(rows(db)).toEqual([
      { op: "cancel", client_order_id: "old-c", outcome: "done", reason: null },
      { op: "cancel", client_order_id: "new-c", outcome: "done", reason: "requote" },
    ]);
    rec.close();
    db.close();
  });
});
