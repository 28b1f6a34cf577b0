import type { Database } from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalPruner } from "../../../src/journal/prune.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { buildReport } from "../../../src/journal/report.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalRetention } from "../../../src/journal/retention.js";
import { JournalWriter, type OutcomeRecord } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { feedSoakMix, MixEngine, mixTokens } from "./event-mix.js";
import { ACCOUNT, fill, journalPath } from "./support.js";

const T0 = Date.UTC(2025, 5, 1);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RETENTION_MS = 2 * DAY;
const MARKETS = 20;
/** Placements written to the exchange per simulated hour (the soak's mix around each: event-mix.ts). */
const PER_HOUR = 30;

const FOREVER = new Set([
  "fills",
  "sqlite_autoindex_fills_1",
  "fills_ts",
  "fills_order",
  "fees",
  "sqlite_autoindex_fees_1",
  "accounts",
  "accounts_run_token",
]);

function measure(db: Database) {
  const page = Number(db.pragma("page_size", { simple: true }));
  let forever = 0;
  for (const r of db.prepare("SELECT name, sum(pgsize) AS b FROM dbstat GROUP BY name").all() as {
    name: string;
    b: bigint;
  }[]) {
    if (FOREVER.has(r.name)) forever += Number(r.b);
  }
  const n = (sql: string) => Number((db.prepare(sql).get() as { n: bigint }).n);
  return {
    fileBytes: Number(db.pragma("page_count", { simple: true })) * page,
    foreverBytes: forever,
    intents: n("SELECT count(*) AS n FROM intents"),
    outcomes: n("SELECT count(*) AS n FROM outcomes"),
    unsent: n("SELECT count(*) AS n FROM unsent"),
    pnl: n("SELECT count(*) AS n FROM pnl"),
    snapshots: n("SELECT count(*) AS n FROM accounts WHERE reason = 'snapshot'"),
    fills: n("SELECT count(*) AS n FROM fills"),
  };
}

const accepted = (cid: string, orderId: string, atMs: number): OutcomeRecord => ({
  op: "place",
  clientOrderId: cid,
  marketId: "m-old",
  outcome: "accepted",
  orderId,
  code: undefined,
  latencyMs: 3,
  atMs,
});

/** Run 1 (killed at T0): o-rest may still rest; o-filled was filled completely; o-cancelled was cancelled. */
function killedRun(w: JournalWriter): void {
  const r1 = w.beginRun({ account: ACCOUNT, session: "one", atMs: T0 - HOUR, tokens: [] });
  for (const [cid, orderId] of [
    ["mm-one-rest", "o-rest"],
    ["mm-one-filled", "o-filled"],
    ["mm-one-cancelled", "o-cancelled"],
  ] as const) {
    w.intent(r1, {
      clientOrderId: cid,
      tokenId: "t-old",
      marketId: "m-old",
      side: "buy",
      level: 0,
      priceMicro: 470_000,
      sizeMicro: 10_000_000n,
      sent: true,
      atMs: T0 - HOUR,
    });
    w.outcome(r1, accepted(cid, orderId, T0 - HOUR));
  }
  w.outcome(r1, { ...accepted("mm-one-cancelled", "o-cancelled", T0 - HOUR), op: "cancel", outcome: "done" });
  // Its fill's fee never came (restore carries it as fee-pending).
  const f = fill({ tradeId: "tr-old", orderId: "o-filled", tokenId: "t-old", tsMs: T0 - HOUR });
  w.batch(() => {
    w.fill(r1, f, "stream");
    w.account(
      r1,
      f.tsMs,
      "fill",
      "t-old",
      applyTrade(EMPTY_ACCOUNT, "buy", f.priceMicro, f.sizeMicro),
      undefined,
    );
  });
}

describe("journal retention", () => {
  it("keeps order detail for the retention only: pruned tables stay bounded and the file stops growing, while every fill, restore and mm report are kept", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const clock = new SimClock(T0);
    killedRun(w);
    const run = w.beginRun({ account: ACCOUNT, session: "two", atMs: T0, tokens: mixTokens(MARKETS) });
    const logger = createLogger({ level: "info", pretty: false, destination: collectingStream() });
    const rec = new JournalRecorder({ writer: w, run, clock, logger, snapshotIntervalMs: 60_000 });
    const engine = new MixEngine();
    rec.attach(engine);
    const retention = new JournalRetention({ db, clock, logger, retentionMs: RETENTION_MS, chunkRows: 500 });
    retention.start();
    const onEvent = (e: EngineEvent) => {
      if (e.atMs > clock.now()) clock.advanceTo(e.atMs);
      rec.onEvent(e);
    };
    // Run 2 leaves an order resting from its first minute to the end: never pruned.
    onEvent({
      type: "place_sent",
      atMs: T0 + 1,
      tokenId: "t-rest",
      clientOrderId: "mm-two-rest",
      order: { marketId: "m-rest", side: "sell", level: 1, priceMicro: 990_000, sizeMicro: 5_000_000n },
    });
    w.outcome(run, { ...accepted("mm-two-rest", "o-rest-2", T0 + 2), marketId: "m-rest" });

    let seed = 1;
    const days: ReturnType<typeof measure>[] = [];
    for (let day = 0; day < 6; day++) {
      seed = feedSoakMix(onEvent, engine, {
        placements: 24 * PER_HOUR,
        startMs: T0 + day * DAY + 1_000,
        spacingMs: HOUR / PER_HOUR,
        markets: MARKETS,
        seed,
      });
      clock.advanceTo(T0 + (day + 1) * DAY);
      days.push(measure(db));
    }
    expect(rec.failures).toBe(0);
    const [, , day3, , , day6] = days as [
      unknown,
      unknown,
      ReturnType<typeof measure>,
      unknown,
      unknown,
      ReturnType<typeof measure>,
    ];

    // At most the retention plus a pass period of orders: 1.92 outcome rows per placement (answer,
    // cancel), the kept resting orders on top.
    const kept = (RETENTION_MS + 2 * HOUR) / HOUR;
    expect(day6.intents).toBeLessThanOrEqual(kept * PER_HOUR + 2);
    expect(day6.outcomes).toBeLessThanOrEqual(kept * PER_HOUR * 1.92 + 2);
    for (const k of ["intents", "outcomes", "unsent", "pnl", "snapshots"] as const) {
      expect(day6[k], k).toBeLessThanOrEqual(day3[k] * 1.05 + 2);
    }
    // Freed pages are reused: from day 3 on the file grows by what is kept for good (fills, fees and
    // the accounts they moved), not by the order detail it keeps writing.
    expect(day6.fileBytes - day3.fileBytes).toBeLessThanOrEqual(
      (day6.foreverBytes - day3.foreverBytes) * 1.2 + 16 * 4096,
    );
    // Every fill stays: placement i of each day fills when i % 100 < 6 or ≥ 74 (event-mix.ts), and run 1's.
    const fillsPerDay = Array.from({ length: 24 * PER_HOUR }, (_, i) => i % 100).filter(
      (k) => k < 6 || k >= 74,
    );
    expect(day6.fills).toBe(6 * fillsPerDay.length + 1);
    expect(retention.passes).toBeGreaterThanOrEqual(6 * 24 - 1);

    // Restore still finds what a restart needs, however old: run 1's resting order and fee-pending
    // fill, run 2's resting order, each token's last account.
    const restore = readRestore(db, ACCOUNT, Number.MAX_SAFE_INTEGER);
    expect(restore.orders).toEqual(
      new Map([
        ["o-rest", "mm-one-rest"],
        ["o-rest-2", "mm-two-rest"],
      ]),
    );
    expect(restore.feePending.map((f) => f.tradeId)).toEqual(["tr-old"]);
    expect(restore.accounts.get("t-old")?.sizeMicro).toBe(10_000_000n);
    for (const [t, acc] of engine.accs) expect(restore.accounts.get(t), t).toEqual(acc);
    expect(
      db.prepare("SELECT client_order_id FROM intents WHERE at_ms < ? ORDER BY id").all(T0 + DAY),
    ).toEqual([{ client_order_id: "mm-one-rest" }, { client_order_id: "mm-two-rest" }]);

    // Pruning everything it may (cutoff = now) changes neither restore nor mm report.
    const report = buildReport(db);
    expect(report.total.fills).toBe(day6.fills);
    new JournalPruner(db).pass(clock.now());
    expect(readRestore(db, ACCOUNT, Number.MAX_SAFE_INTEGER)).toEqual(restore);
    expect(buildReport(db)).toEqual(report);
    retention.close();
    rec.close();
    db.close();
  });
});

describe("journal retention passes", () => {
  it("prune a backlog a chunk per step, the event loop free between steps; a failing step is logged and the next pass starts over", () => {
    const path = journalPath();
    const db = openJournalDb(path);
    // As the daemon's recorder leaves it while another connection holds the lock: no waiting.
    db.pragma("busy_timeout = 0");
    const w = new JournalWriter(db);
    const r1 = w.beginRun({ account: ACCOUNT, session: "one", atMs: T0, tokens: [] });
    w.batch(() => {
      for (let i = 0; i < 2_500; i++) {
        w.outcome(r1, {
          ...accepted(`c${i}`, `o${i}`, T0),
          op: "cancel",
          outcome: "done",
          orderId: undefined,
        });
      }
    });
    w.endRun(r1, T0 + 1, "SIGTERM", 0);
    const clock = new SimClock(T0 + 3 * DAY);
    const sink = collectingStream();
    const logger = createLogger({ level: "info", pretty: false, destination: sink });
    const retention = new JournalRetention({
      db,
      clock,
      logger,
      retentionMs: RETENTION_MS,
      firstPassMs: 1_000,
      chunkRows: 1_000,
      stepGapMs: 50,
    });
    const rows = () => Number((db.prepare("SELECT count(*) AS n FROM outcomes").get() as { n: bigint }).n);
    retention.start();
    clock.advanceBy(999);
    expect(rows()).toBe(2_500);
    clock.advanceBy(1);
    expect(rows()).toBe(1_500);
    clock.advanceBy(50);
    expect(rows()).toBe(500);
    clock.advanceBy(50 * 10);
    expect(rows()).toBe(0);
    expect(retention.passes).toBe(1);
    expect(sink.records().map((r) => [r.msg, r.deleted])).toContainEqual([
      `journal retention: deleted 2500 audit row(s) older than ${new Date(T0 + DAY + 1_000).toISOString()}`,
      2_500,
    ]);

    w.pnl(r1, {
      atMs: T0,
      reason: "snapshot",
      pnlMicro: 0n,
      realisedPico: 0n,
      feesPico: 0n,
      unrealisedPico: 0n,
      openOrders: 0,
    });
    const other = openJournalDb(path);
    other.exec("BEGIN IMMEDIATE");
    try {
      clock.advanceBy(3_600_000 + 5 * 50);
      expect(
        sink
          .records()
          .filter((r) => r.level === 40)
          .map((r) => r.msg),
      ).toEqual(["journal retention: a pruning step failed; the pass stops and the next one starts over"]);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect(db.prepare("SELECT count(*) AS n FROM pnl").get()).toEqual({ n: 1n });
    // The next pass, an hour after the failed one, a step per table.
    clock.advanceBy(3_600_000 + 5 * 50);
    expect(db.prepare("SELECT count(*) AS n FROM pnl").get()).toEqual({ n: 0n });
    retention.close();
    expect(clock.pending).toBe(0);
    db.close();
  });
});
