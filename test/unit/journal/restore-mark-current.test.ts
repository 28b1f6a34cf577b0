import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { memoryLogger } from "../../integration/daemon/support.js";
import { ACCOUNT, FakeSource, fill, journalPath } from "./support.js";

/**
 * restore.marks takes the newest account row that has a mark. A fill's row carries the engine's mark
 * now, not the last one written: a token flat at the snapshots has no row written for hours while its
 * mid moves, so a position opened after that and not snapshotted before a crash would be restored at
 * a stale price, and a market listed settled without payouts would show a gain or loss nobody had
 * (here +8 USDC on 20 shares bought at 0.10 while the mid was 0.10, marked at 0.50).
 */
const T0 = Date.UTC(2025, 5, 1, 12);
const HOUR = 3_600_000;

describe("the journal's last mark of a token", () => {
  it("is not a mark older than the fill that opened the restored position", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const clock = new SimClock(T0);
    const r1 = w.beginRun({ account: ACCOUNT, session: "s", atMs: T0, tokens: [] });
    const rec = new JournalRecorder({
      writer: w,
      run: r1,
      clock,
      logger: memoryLogger("warn").logger,
      snapshotIntervalMs: 0,
    });
    const eng = new FakeSource();
    rec.attach(eng);

    // Held 20 at 0.47, marked 0.50 at a snapshot.
    const long = applyTrade(EMPTY_ACCOUNT, "buy", 470_000, 20_000_000n);
    eng.accs.set("t1", long);
    eng.marks.set("t1", 500_000);
    rec.snapshot("snapshot");

    // Sold flat at 0.50.
    const flat = applyTrade(long, "sell", 500_000, 20_000_000n);
    eng.accs.set("t1", flat);
    const sell = fill({
      tradeId: "tr2",
      side: "sell",
      priceMicro: 500_000,
      sizeMicro: 20_000_000n,
      tsMs: T0 + 1_000,
    });
    rec.onEvent({
      type: "fill",
      atMs: T0 + 1_000,
      fill: sell,
      source: "stream",
      positionMicro: 0n,
      pnlMicro: 0n,
    });

    // Hours of snapshots while flat, the mid sliding to 0.10 (a flat token's mark is not written).
    for (const [h, mid] of [
      [1, 300_000],
      [2, 200_000],
      [3, 100_000],
    ] as const) {
      clock.advanceTo(T0 + h * HOUR);
      eng.marks.set("t1", mid);
      rec.snapshot("snapshot");
    }

    // Bought 20 at 0.10 (the mid), then the daemon is killed before its next snapshot.
    clock.advanceTo(T0 + 3 * HOUR + 5_000);
    const again = applyTrade(flat, "buy", 100_000, 20_000_000n);
    eng.accs.set("t1", again);
    const buy = fill({
      tradeId: "tr3",
      priceMicro: 100_000,
      sizeMicro: 20_000_000n,
      tsMs: T0 + 3 * HOUR + 5_000,
    });
    rec.onEvent({
      type: "fill",
      atMs: buy.tsMs,
      fill: buy,
      source: "stream",
      positionMicro: 20_000_000n,
      pnlMicro: 0n,
    });

    const r2 = w.beginRun({ account: ACCOUNT, session: "s2", atMs: T0 + 4 * HOUR, tokens: [] });
    const restored = readRestore(db, ACCOUNT, r2);
    expect(restored.accounts.get("t1")?.sizeMicro).toBe(20_000_000n);
    // 0.50 is three hours older than the fill at 0.10: the restored position would show +8 USDC.
    // Right: the mark at the fill (0.10), or none (counted at cost).
    expect([100_000, undefined]).toContain(restored.marks.get("t1"));
    db.close();
  });
});
