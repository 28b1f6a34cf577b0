import { performance } from "node:perf_hooks";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { DAEMON_BUSY_TIMEOUT_MS } from "../../../src/journal/lock-wait.js";
import { OPEN_BUSY_TIMEOUT_MS, openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { journalPath } from "./support.js";

const T0 = Date.UTC(2025, 5, 1, 12);

const placeSent = (n: number): EngineEvent => ({
  type: "place_sent",
  atMs: T0 + n,
  tokenId: "t1",
  clientOrderId: `mm-s1-aaaaaaaaaa-b0-${n}`,
  order: { marketId: "m1", side: "buy", level: 0, priceMicro: 470_000, sizeMicro: 10_000_000n },
});

function daemonRecorder(path: string) {
  const db = openJournalDb(path);
  const writer = new JournalWriter(db);
  const clock = new SimClock(T0);
  const run = writer.beginRun({ account: "a", session: "s1", atMs: T0, tokens: [] });
  const sink = collectingStream();
  const logger = createLogger({ level: "info", pretty: false, destination: sink });
  const rec = new JournalRecorder({
    writer,
    run,
    clock,
    logger,
    snapshotIntervalMs: 0, // busyTimeoutMs: the default, DAEMON_BUSY_TIMEOUT_MS
    path,
  });
  rec.attach({
    account: () => EMPTY_ACCOUNT,
    accounts: () => [],
    status: () => ({ pnlMicro: 0n, openOrders: 0 }),
  });
  return { db, rec, sink };
}

describe("journal: a file another connection holds a write lock on", () => {
  it("does not freeze the event loop: writes fail fast while it is held, and resume once it is released", () => {
    const path = journalPath();
    const { db, rec, sink } = daemonRecorder(path);
    expect(Number(db.pragma("busy_timeout", { simple: true }))).toBe(DAEMON_BUSY_TIMEOUT_MS);

    // e.g. the operator's `sqlite3` shell or a DB browser with an open write transaction.
    const other = new BetterSqlite3(path);
    other.exec("BEGIN IMMEDIATE");
    try {
      let started = performance.now();
      // One placement: the listener runs synchronously on the event loop before the request leaves.
      rec.onEvent(placeSent(1));
      const firstMs = performance.now() - started;
      expect(rec.failures).toBe(1);
      // The open's 5 s wait would leave quotes stale on a moving book; this waits DAEMON_BUSY_TIMEOUT_MS.
      expect(firstMs).toBeLessThan(250);
      // While the lock stays held, the next writes do not wait at all.
      expect(Number(db.pragma("busy_timeout", { simple: true }))).toBe(0);
      started = performance.now();
      for (let n = 2; n <= 101; n++) rec.onEvent(placeSent(n));
      expect(performance.now() - started).toBeLessThan(250);
      expect(rec.failures).toBe(101);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    rec.onEvent(placeSent(102));
    expect(rec.failures).toBe(101);
    expect(Number(db.pragma("busy_timeout", { simple: true }))).toBe(DAEMON_BUSY_TIMEOUT_MS);
    expect(db.prepare("SELECT client_order_id FROM intents").all()).toEqual([
      { client_order_id: "mm-s1-aaaaaaaaaa-b0-102" },
    ]);
    const msgs = sink.records().map((r) => [r.level, r.msg, r.journal]);
    expect(msgs).toContainEqual([
      40,
      "journal file locked by another connection (an open write transaction elsewhere?): journal writes fail at once until it is released; trading goes on",
      path,
    ]);
    expect(sink.records().find((r) => r.lostWrites !== undefined)?.lostWrites).toBe(101);
    db.close();
  }, 20_000);

  it("a reader (mm report) and the daemon's start-up keep the open's 5 s wait; it can be chosen", () => {
    const path = journalPath();
    const db = openJournalDb(path);
    expect(Number(db.pragma("busy_timeout", { simple: true }))).toBe(OPEN_BUSY_TIMEOUT_MS);
    db.close();
    const quick = openJournalDb(path, { busyTimeoutMs: 7, mustExist: true });
    expect(Number(quick.pragma("busy_timeout", { simple: true }))).toBe(7);
    quick.close();
  });
});
