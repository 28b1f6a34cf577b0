import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { RecordedWriter } from "../../../src/recorded/format.js";
import { T0, writeSteps } from "../../integration/backtest/support/crafted.js";
import { GEN_CONDITION, GEN_TOKEN } from "../../integration/backtest/support/recording.js";

/*
 * Review (report): the HTML report's equity chart is "Total PnL over time (cash plus positions at
 * the mid, or a resolved market's payout)". The Recorder re-marks the equity the moment a market
 * resolves (`session.settled`), but the Timeline samples the equity only on book frames and fills,
 * so the payout step is drawn at the next book frame of any token, or at the end of the data.
 *
 * Hand-worked: the bot bids 0.49 × 10; at +1 s a recorded print of 200 sells at 0.49 fills it
 * (maker buy, cash −4.9, mid 0.50 → PnL +0.10). At +10 s the market resolves YES (payout 1):
 * PnL = 10 × 1 − 4.9 = 5.1 from then on. The data goes on to +50 s (a trade frame, no book).
 * The JSON agrees (total 5.1, 10 s markout at the payout); the chart holds 0.10 until +50 s.
 */

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-review-chart-"));
  await writeSteps(join(dir, "a.jsonl.gz"), [
    { dt: 0, snapshot: { bids: [["0.49", "100"]], asks: [["0.51", "100"]] } },
    { dt: 1_000, print: ["sell", "0.49", "200"] },
  ]);
  const w = RecordedWriter.create(join(dir, "b.jsonl.gz"));
  const resolved = { conditionId: GEN_CONDITION, resolution: "YES", payouts: ["1", "0"], tsMs: T0 + 10_000 };
  await w.write({
    recvTs: T0 + 10_000,
    frame: {
      type: "market_resolved",
      sid: 3,
      channel: "condition_lifecycle",
      id: GEN_CONDITION,
      data: resolved,
    },
  } as never);
  const print = {
    tokenId: GEN_TOKEN,
    conditionId: GEN_CONDITION,
    outcomeIndex: 0,
    tradeId: "late",
    price: "0.99",
    quantity: "1",
    side: "buy",
    source: "matcher",
    tsMs: T0 + 50_000,
  };
  await w.write({
    recvTs: T0 + 50_000,
    frame: { type: "trade_matched", sid: 2, channel: "token_trade_matches", id: GEN_TOKEN, data: print },
  } as never);
  await w.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the HTML report's equity chart at a market's resolution", () => {
  it("steps to the payout-marked PnL when the market resolves, as the JSON summary does", async () => {
    const r = await runBacktest({
      config: parseReplayConfig([
        {
          strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
          startLeadMs: 5_000,
          queueModel: { type: "conservative", trades: "recorded" },
        },
      ]),
      data: dir,
      timeline: {},
    });
    expect(r.summary.pnl.total).toBe("5.1");
    expect(r.summary.markouts[1]).toMatchObject({ horizonMs: 10_000, fills: 1, total: "5.1" });
    const eq = r.timeline?.equity;
    // The value in force at +20 s (step series: the last point at or before it).
    const at = (ms: number) => {
      let v: number | null | undefined;
      eq?.t.forEach((t, i) => {
        if (t <= ms) v = eq.v[i];
      });
      return v;
    };
    expect(at(1_000)).toBe(0.1);
    expect(at(20_000)).toBe(5.1);
  });
});
