import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import type { PlaceIntent } from "../../../src/execution/intents.js";
import { EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder, UNSENT_FLUSH_MS } from "../../../src/journal/recorder.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { journalPath } from "./support.js";

const HOUR = 3_600_000;
const T0 = Date.UTC(2025, 5, 1, 12);

const dropped = (marketId: string, reason: "shed" | "superseded", atMs: number): EngineEvent => {
  const intent: PlaceIntent = {
    kind: "place",
    tokenId: "t1",
    marketId,
    clientOrderId: `c-${atMs}-${marketId}`,
    quote: { side: "buy", level: 0, priceMicro: 470_000, sizeMicro: 10_000_000n },
    urgencyTicks: 1,
  };
  return { type: "place_dropped", atMs, intent, reason };
};
const notSent = (atMs: number): EngineEvent => ({
  type: "cancel_outcome",
  atMs,
  clientOrderId: "c",
  outcome: "not_sent",
  reason: "superseded",
});

function setup(snapshotIntervalMs = 0) {
  const path = journalPath();
  const db = openJournalDb(path);
  const writer = new JournalWriter(db);
  const clock = new SimClock(T0);
  const run = writer.beginRun({ account: "a", session: "s1", atMs: T0, tokens: [] });
  const logger = createLogger({ level: "error", pretty: false, destination: collectingStream() });
  const rec = new JournalRecorder({ writer, run, clock, logger, snapshotIntervalMs });
  rec.attach({
    account: () => EMPTY_ACCOUNT,
    accounts: () => [],
    status: () => ({ pnlMicro: 0n, openOrders: 0 }),
  });
  const rows = () =>
    db
      .prepare("SELECT hour_ms, op, market_id, reason, n, first_at_ms, last_at_ms FROM unsent ORDER BY id")
      .all();
  return { path, db, clock, rec, rows };
}

describe("JournalRecorder: intents and cancels that never needed a request", () => {
  it("are counted per UTC hour, market and reason, and written within UNSENT_FLUSH_MS", () => {
    const { db, clock, rec, rows } = setup();
    const hour = Math.floor(T0 / HOUR) * HOUR;
    rec.onEvent(dropped("m1", "shed", T0));
    rec.onEvent(dropped("m1", "shed", T0 + 10));
    rec.onEvent(dropped("m2", "superseded", T0 + 20));
    rec.onEvent(notSent(T0 + 30));
    clock.advanceBy(UNSENT_FLUSH_MS - 1);
    expect(rows()).toEqual([]);
    clock.advanceBy(1);
    expect(rows()).toEqual([
      {
        hour_ms: BigInt(hour),
        op: "place",
        market_id: "m1",
        reason: "shed",
        n: 2n,
        first_at_ms: BigInt(T0),
        last_at_ms: BigInt(T0 + 10),
      },
      {
        hour_ms: BigInt(hour),
        op: "place",
        market_id: "m2",
        reason: "superseded",
        n: 1n,
        first_at_ms: BigInt(T0 + 20),
        last_at_ms: BigInt(T0 + 20),
      },
      {
        hour_ms: BigInt(hour),
        op: "cancel",
        market_id: "",
        reason: "not_sent",
        n: 1n,
        first_at_ms: BigInt(T0 + 30),
        last_at_ms: BigInt(T0 + 30),
      },
    ]);
    // Later in the same hour: added to its row. The next hour: a row of its own.
    rec.onEvent(dropped("m1", "shed", T0 + 60_000));
    rec.onEvent(dropped("m1", "shed", hour + HOUR + 5));
    clock.advanceBy(UNSENT_FLUSH_MS);
    expect(rows()).toMatchObject([
      { market_id: "m1", n: 3n, last_at_ms: BigInt(T0 + 60_000) },
      { market_id: "m2", n: 1n },
      { op: "cancel", n: 1n },
      { hour_ms: BigInt(hour + HOUR), market_id: "m1", n: 1n },
    ]);
    // Nothing in the intent and outcome tables: they hold what reached the exchange.
    expect(
      db.prepare("SELECT (SELECT count(*) FROM intents) + (SELECT count(*) FROM outcomes) AS n").get(),
    ).toEqual({ n: 0n });
    expect(rec.failures).toBe(0);
    db.close();
  });

  it("are written at each snapshot and at stop, and kept for the next attempt when a write fails", () => {
    const { path, db, clock, rec, rows } = setup(60_000);
    const other = openJournalDb(path);
    other.exec("BEGIN IMMEDIATE");
    try {
      rec.onEvent(dropped("m1", "shed", T0));
      clock.advanceBy(UNSENT_FLUSH_MS);
      expect(rec.failures).toBe(1);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    rec.onEvent(dropped("m1", "shed", T0 + UNSENT_FLUSH_MS + 1));
    // The retry comes with the next flush; the snapshot (at 60 s) would have written them too.
    clock.advanceBy(UNSENT_FLUSH_MS);
    expect(rows()).toMatchObject([{ market_id: "m1", n: 2n }]);
    rec.onEvent(dropped("m1", "shed", clock.now()));
    rec.onEvent({ type: "stopped", atMs: clock.now(), reason: "SIGTERM", openOrders: 0 });
    expect(rows()).toMatchObject([{ market_id: "m1", n: 3n }]);
    rec.close();
    expect(clock.pending).toBe(0);
    db.close();
  });
});
