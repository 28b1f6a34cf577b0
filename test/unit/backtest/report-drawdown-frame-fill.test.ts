import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import type { BacktestFill } from "../../../src/backtest/sim/bot-fills.js";
import { fillLine, TICK_DOWN, writeSteps } from "../../integration/backtest/support/crafted.js";

/*
 * Max drawdown (and the HTML equity chart) of a fill its own book frame causes: the recorded ask
 * comes down onto the bot's bid, the fill is booked while the frame acts (SimSession: levelChanged
 * → mirror → venue fill → `filled`, then `bookApplied`), and its equity is observed once the frame
 * is done (`afterMarket`), at the frame's new mid, never at the mid the frame replaced.
 *
 * Hand-worked: the bot (bands, margin 0.01, size 10) bids 0.49 and asks 0.51 around 0.49/0.51.
 * At +300 ms one frame moves the book to 0.48/0.49: the ask 0.49 meets the bid, maker buy 10 @
 * 0.49 (cash −4.9), new mid 0.485 → total PnL 10 × 0.485 − 4.9 = −0.05, and it stays there.
 * Equity over time: 0 (start, the peak) → −0.05. Max drawdown 0.05 (observing the fill at the old
 * mid 0.50 would add a peak of +0.10 the run never had, and report 0.15).
 */

let dir: string;
let data: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-dd-frame-fill-"));
  data = join(dir, "stale.jsonl.gz");
  await writeSteps(data, TICK_DOWN);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("max drawdown of a fill its own book frame caused", () => {
  it("is measured from PnL the run had, not from the position marked at the mid the frame replaced", async () => {
    const fills: BacktestFill[] = [];
    const r = await runBacktest({
      config: parseReplayConfig([
        {
          strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
          startLeadMs: 5_000,
        },
      ]),
      data,
      onFill: (f) => fills.push(f),
      timeline: {},
    });
    expect(fills.map(fillLine)).toEqual(["+300 maker buy 490000 10000000"]);
    expect(r.summary.pnl.total).toBe("-0.05");
    expect(r.summary.tokens[0]?.mark).toBe("0.485");
    // Equity 0 → −0.05: the largest fall from a running peak is 0.05.
    expect(r.summary.drawdown.max).toBe("0.05");
    // The HTML report's equity chart (its bucket high) shows no +0.10 either.
    expect(Math.max(...(r.timeline?.equity.hi ?? []).map((x) => x ?? 0))).toBe(0);
  });
});
