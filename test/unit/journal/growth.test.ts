import type { Database } from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { feedSoakMix, MixEngine, mixTokens } from "./event-mix.js";
import { ACCOUNT, journalPath } from "./support.js";

const T0 = Date.UTC(2025, 5, 1, 12);
const MARKETS = 100;

/** Bytes the file's live pages hold (free pages, reused by later writes, not counted). */
function liveBytes(db: Database): number {
  const page = Number(db.pragma("page_size", { simple: true }));
  const pages = Number(db.pragma("page_count", { simple: true }));
  const free = Number(db.pragma("freelist_count", { simple: true }));
  return (pages - free) * page;
}

const count = (db: Database, sql: string): number => Number((db.prepare(sql).get() as { n: bigint }).n);

function setup() {
  const db = openJournalDb(journalPath());
  const writer = new JournalWriter(db);
  const clock = new SimClock(T0);
  const run = writer.beginRun({
    account: ACCOUNT,
    session: "ih3w2q4k",
    atMs: T0,
    tokens: mixTokens(MARKETS),
  });
  const logger = createLogger({ level: "error", pretty: false, destination: collectingStream() });
  const rec = new JournalRecorder({ writer, run, clock, logger, snapshotIntervalMs: 60_000 });
  const engine = new MixEngine();
  rec.attach(engine);
  return { db, clock, rec, engine, run };
}

describe("journal growth under the soak's event mix", () => {
  it("writes under 1 KB per placement sent to the exchange: intents the queue dropped unsent are counted, not rowed", () => {
    const { db, clock, rec, engine } = setup();
    const placements = 2_000;
    // 60 ms apart: the soak's rate (~16 placements/s at the IP rate limit), 2 simulated minutes.
    const spacingMs = 60;
    const onEvent = (e: Parameters<JournalRecorder["onEvent"]>[0]) => {
      if (e.atMs > clock.now()) clock.advanceTo(e.atMs);
      rec.onEvent(e);
    };
    feedSoakMix(onEvent, engine, { placements, startMs: T0, spacingMs, markets: MARKETS });
    rec.onEvent({ type: "stopped", atMs: clock.now(), reason: "test", openOrders: 0 });
    expect(rec.failures).toBe(0);

    // Every order the exchange heard of is journaled: the intent, its answer, each cancel sent, each fill.
    expect(count(db, "SELECT count(*) AS n FROM intents WHERE sent = 1")).toBe(placements);
    expect(count(db, "SELECT count(*) AS n FROM outcomes WHERE op = 'place' AND outcome = 'accepted'")).toBe(
      placements,
    );
    expect(
      count(db, "SELECT count(*) AS n FROM outcomes WHERE op = 'cancel' AND outcome <> 'not_sent'"),
    ).toBe((placements * 92) / 100);
    expect(count(db, "SELECT count(*) AS n FROM fills")).toBe((placements * 32) / 100);
    expect(count(db, "SELECT count(*) AS n FROM fees")).toBe((placements * 32) / 100);

    const perPlacement = liveBytes(db) / placements;
    // Was ~11 KB per placement (the soak's 640 MB/h at ~16 placements/s): one intent row and one
    // outcome row (with their index entries) for each of the ~20 intents dropped unsent per sent
    // one, and one outcome row for each of the ~11 cancels of those that needed no request.
    expect(perPlacement).toBeLessThan(1_024);
    db.close();
  });
});
