import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import type { SeriesJson } from "../../../src/backtest/report/html/downsample.js";
import { RecordedWriter } from "../../../src/recorded/format.js";
import { T0, writeSteps } from "../../integration/backtest/support/crafted.js";
import { GEN_CONDITION, GEN_TOKEN } from "../../integration/backtest/support/recording.js";

/*
 * The HTML report's equity chart at a market's resolution: the Recorder marks the token at its
 * payout the moment the market resolves (`session.settled`), and the chart steps there too (its
 * equity series is the Recorder's equity observations; the token's mid line moves to the payout),
 * not at the next book frame or the end of the data.
 *
 * Hand-worked: the bot bids 0.49 × 10; at +1 s a recorded print of 200 sells at 0.49 fills it
 * (maker buy, cash −4.9, mid 0.50 → PnL +0.10). At +10 s the market resolves YES (payout 1):
 * PnL = 10 × 1 − 4.9 = 5.1 from then on. The data goes on to +50 s (a trade frame, no book).
 */

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-chart-settlement-"));
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
    // The value of a step series in force at `ms` (the last point at or before it).
    const at = (s: SeriesJson | undefined, ms: number) => {
      let v: number | null | undefined;
      s?.t.forEach((t, i) => {
        if (t <= ms) v = s.v[i];
      });
      return v;
    };
    const eq = r.timeline?.equity;
    expect(at(eq, 1_000)).toBe(0.1);
    expect(at(eq, 10_000)).toBe(5.1);
    expect(at(eq, 20_000)).toBe(5.1);
    // The token's mid line steps to its payout at the resolution too.
    const yes = r.timeline?.tokens.find((t) => t.tokenId === GEN_TOKEN);
    expect(at(yes?.mid, 9_999)).toBe(0.5);
    expect(at(yes?.mid, 10_000)).toBe(1);
  });
});
