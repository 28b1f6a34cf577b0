import { describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { type BacktestResult, runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { summaryJson } from "../../../src/backtest/report/summary.js";
import type { BacktestFill } from "../../../src/backtest/sim/bot-fills.js";
import type { SimSession } from "../../../src/backtest/sim/session.js";
import { importedCapture } from "./support/capture.js";
import { expectBotBookAgrees, expectOfferedPrices, expectReconciled } from "./support/invariants.js";

/*
 * The real Polymarket capture (shared/data), imported with the project's importer and backtested
 * end to end: the engine quotes it with the bands strategy, the venue fills it against the mirrored
 * recording, and the summary's invariants hold.
 */

const TOKEN = "19132077152294710079876824487679725658489209861892422335113898186089131197703";
const capture = importedCapture("mm-backtest-pm-");

const BANDS = {
  strategy: {
    name: "bands",
    params: {
      bands: [
        { margin: "0.01", size: "10" },
        { margin: "0.02", size: "25" },
      ],
    },
  },
};

async function run(
  layers: unknown[],
  seed = 1,
): Promise<{ r: BacktestResult; fills: BacktestFill[]; session: SimSession }> {
  const fills: BacktestFill[] = [];
  let session: SimSession | undefined;
  const r = await runBacktest({
    config: parseReplayConfig(layers),
    data: capture(),
    seed,
    onFill: (f) => fills.push(f),
    onSession: (s) => {
      session = s;
    },
  });
  if (session === undefined) throw new Error("runBacktest gave no session");
  return { r, fills, session };
}

describe("backtest of the real Polymarket capture", () => {
  it("replays every frame with bands and reports consistent figures", async () => {
    const { r, fills, session } = await run([BANDS]);
    const s = r.summary;
    expect(r.frames).toBe(3_830);
    expect(s.data).toMatchObject({ frames: 3_830, book: 3_830, rejected: {}, malformedAtExchange: 0 });
    expect(s.window).toEqual({
      start: "2025-01-25T17:15:47.925Z",
      end: "2025-01-30T20:40:28.044Z",
      durationMs: 444_280_119,
    });
    // The capture's hole: 2.8 days without a frame (26 Jan to 29 Jan), the longest of its gaps.
    expect(s.data.gaps.thresholdMs).toBe(3_600_000);
    expect(s.data.gaps.longest[0]).toEqual({
      from: "2025-01-26T16:52:40.851Z",
      to: "2025-01-29T12:00:31.116Z",
      ms: 241_670_265,
    });
    expect(s.data.gaps.longest[0]?.ms).toBeGreaterThanOrEqual(2.5 * 86_400_000);
    expect(s.tokens.map((t) => t.tokenId)).toEqual([TOKEN]);
    expect(fills.length).toBeGreaterThan(0);
    expect(s.orders.placed).toBeGreaterThan(0);
    expect(s.mirror.rejected).toEqual({});
    // The capture ends crossed (best bid 0.19 over best ask 0.17): the engine cancels and stays out.
    expect(s.end.openOrders).toBe(0);
    // …and, as the live engine, the report marks at the last uncrossed mid (0.19 / 0.21), not the
    // crossed book's "mid" 0.18: the one fill (10 bought @ 0.19) is +0.1, not −0.1.
    expect(s.tokens[0]?.mark).toBe("0.2");
    expect(s.pnl.total).toBe("0.1");
    expect(s.drawdown.max).toBe("0.05");
    expect(s.quoteUptime).toBeGreaterThan(0);
    expect(s.quoteUptime).toBeLessThan(1);
    expect(s.markouts.map((m) => m.horizonMs)).toEqual([1_000, 10_000, 60_000]);
    expectReconciled(r, fills);
    expect(await expectOfferedPrices([capture()], fills)).toBe(fills.length);
    expectBotBookAgrees(session); // no feed latency: nothing is still on its way to the bot
  }, 120_000);

  it("is deterministic: same data, config and seed give a byte-identical JSON summary", async () => {
    const a = summaryJson((await run([BANDS], 7)).r.summary);
    const b = summaryJson((await run([BANDS], 7)).r.summary);
    expect(b).toBe(a);
    expect(a).toContain('"kind": "replay"');
  }, 120_000);

  it("reconciles with latencies, taker and maker fees, and a model strategy", async () => {
    const { r, fills } = await run([
      {
        strategy: {
          name: "avellaneda-stoikov",
          params: { gamma: 2, k: 200, orderSize: "20", sigma: 0.0005, horizonSeconds: 600 },
        },
        latency: { feedMs: 40, entryMs: 15, responseMs: 15 },
        fees: { makerFeeBps: 40 },
        markets: { feeTakerBps: 100 },
      },
    ]);
    expect(fills.length).toBeGreaterThan(0);
    expect(fills.some((f) => f.fee.amount > 0n)).toBe(true);
    expectReconciled(r, fills);
    await expectOfferedPrices([capture()], fills);
  }, 120_000);
});
