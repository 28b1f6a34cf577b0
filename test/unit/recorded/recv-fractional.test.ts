import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { RecvClamp } from "../../../src/gateway/record/recv-clamp.js";
import { RotatingWriter } from "../../../src/gateway/record/rotating-writer.js";
import { GEN_CONDITION, GEN_TOKEN } from "../../integration/backtest/support/recording.js";

/*
 * After a wall-clock step back of more than 1 s, RecvClamp continues recvTs from the monotonic
 * clock, performance.now(), whose resolution is sub-millisecond. Continued stamps must still be
 * whole milliseconds, as Date.now() stamps are: the replay sets its SimClock to recvTs, and a fill
 * at a fractional time crashed `mm backtest` (BigInt(tsMs) in the report's inventory stats).
 */

const T0 = 1_750_000_000_000;
/** performance.now(): fractional ms since the process started. */
class PerfNow {
  t = 5_123.456_789;
  run(ms: number): void {
    this.t += ms + 0.137; // the µs between two frames' receipts never add up to whole ms
  }
}

describe("recvTs continued on the monotonic clock", () => {
  it("stays whole milliseconds, as wall-clock stamps are", () => {
    const mono = new PerfNow();
    const clamp = new RecvClamp({ monotonic: () => mono.t });
    clamp.next(T0);
    mono.run(100);
    const out = [clamp.next(T0 + 100 - 10_000)]; // the clock is corrected 10 s back
    for (let i = 0; i < 5; i++) {
      mono.run(100);
      out.push(clamp.next(T0 - 10_000 + 200 + i * 100));
    }
    for (const t of out) expect(Number.isInteger(t), `recvTs ${t}`).toBe(true);
  });

  const dir = mkdtempSync(join(tmpdir(), "mm-review6-frac-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a recording made across a large step back replays in mm backtest", async () => {
    const mono = new PerfNow();
    const w = new RotatingWriter({
      dir,
      clock: new SimClock(T0),
      policy: {},
      monotonic: () => mono.t,
    });
    const common = { tokenId: GEN_TOKEN, conditionId: GEN_CONDITION, outcomeIndex: 0 };
    const lv = (l: [string, string][]) => l.map(([price, size]) => ({ price, size }));
    let seq = 0;
    let trade = 0;
    const book = (wall: number, bids: [string, string][], asks: [string, string][]) => ({
      recvTs: wall,
      frame: {
        type: "book_snapshot",
        sid: 1,
        channel: "token_book",
        id: GEN_TOKEN,
        data: { ...common, seq: ++seq, bids: lv(bids), asks: lv(asks), tsMs: wall },
      },
    });
    const print = (wall: number, price: string, quantity: string) => ({
      recvTs: wall,
      frame: {
        type: "trade_matched",
        sid: 2,
        channel: "token_trade_matches",
        id: GEN_TOKEN,
        data: {
          ...common,
          tradeId: `m${++trade}`,
          price,
          quantity,
          side: "sell",
          source: "matcher",
          tsMs: wall,
        },
      },
    });
    const BIDS: [string, string][] = [["0.49", "100"]];
    const ASKS: [string, string][] = [["0.51", "100"]];
    // The bot (bands, 0.01 off mid) bids 0.49 behind 100. Then the wall clock is corrected 60 s
    // back, and sellers print through 0.49: the bot's bid fills after the step.
    expect(w.write(book(T0, BIDS, ASKS))).toBe(true);
    mono.run(1_000);
    expect(w.write(book(T0 + 1_000 - 60_000, BIDS, ASKS))).toBe(true);
    for (let i = 0; i < 4; i++) {
      mono.run(1_000);
      expect(w.write(print(T0 + 2_000 + i * 1_000 - 60_000, "0.49", "60"))).toBe(true);
    }
    await w.close();
    const config = parseReplayConfig([
      {
        strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
        startLeadMs: 5_000,
        queueModel: { type: "conservative", trades: "recorded" },
      },
    ]);
    // Before a fix: MmError venue_listener_failed, caused by RangeError "The number 3000.41… cannot
    // be converted to a BigInt" (the report's inventory stats, at the first fill after the step).
    const r = await runBacktest({ config, data: dir });
    expect(r.summary.fills.count).toBeGreaterThan(0);
  });
});
