import { describe, expect, it } from "vitest";
import { dataFiles } from "../../../src/backtest/replay/data-files.js";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { type BacktestResult, runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import type { BacktestFill } from "../../../src/backtest/sim/bot-fills.js";
import type { SimSession } from "../../../src/backtest/sim/session.js";
import { importedSplitCapture } from "./support/capture.js";
import { expectBotBookAgrees, expectOfferedPrices, expectReconciled } from "./support/invariants.js";

/*
 * The real Polymarket capture (shared/data) cut at its 2.8-day silence and imported as two
 * consecutive captures into one directory (importedSplitCapture). Quoted whole (see
 * polymarket-backtest.test.ts), the capture fills the bot once, a maker buy: no sell, no taker fill,
 * no fee, no realised PnL, so the report's invariants hold over next to nothing. Here the second
 * capture starts from its own book (the whole capture is crossed from the silence on), and a tight
 * band with fees and a slow feed trades both sides, as maker and as taker, with fees paid in
 * shares (buys) and USDC (sells): the invariants are checked over all of it.
 */

const capture = importedSplitCapture("mm-backtest-pm-split-");

async function run(
  layers: unknown[],
): Promise<{ r: BacktestResult; fills: BacktestFill[]; session: SimSession }> {
  const fills: BacktestFill[] = [];
  let session: SimSession | undefined;
  const r = await runBacktest({
    config: parseReplayConfig(layers),
    data: capture(),
    seed: 1,
    onFill: (f) => fills.push(f),
    onSession: (s) => {
      session = s;
    },
  });
  if (session === undefined) throw new Error("runBacktest gave no session");
  return { r, fills, session };
}

/** Receive time of the second capture's first frame: its synthetic empty snapshot (seq 1). */
const SECOND_START = Date.parse("2025-01-29T12:00:31.116Z");

const band = (margin: string) => ({
  strategy: { name: "bands", params: { bands: [{ margin, size: "50" }] } },
});

describe("backtest of the real capture imported as two consecutive captures", () => {
  it("the bot follows the second capture: its book is the exchange's at the end", async () => {
    const { r, fills, session } = await run([band("0.01")]);
    expect(r.summary.data).toMatchObject({ frames: 3_831, resubscribed: 1, rejected: {} });
    expectBotBookAgrees(session); // no feed latency: nothing is still on its way to the bot
    // The second capture is quoted, and fills (whole, the capture is crossed from the silence on).
    expect(fills.filter((f) => f.tsMs >= SECOND_START).length).toBeGreaterThan(0);
    expectReconciled(r, fills);
    expect(await expectOfferedPrices(await dataFiles(capture()), fills)).toBe(fills.length);
  }, 60_000);

  it("trades both sides, as maker and taker, with fees: cash, inventory and prices reconcile", async () => {
    const { r, fills } = await run([
      band("0.005"),
      {
        // A feed 20 s late: the bot sometimes quotes a book the venue has moved past, and its
        // quote crosses (a taker fill at the book's price). (At 10 s the only taker fills came
        // after the phantom fills below, and went with them.)
        latency: { feedMs: 20_000, entryMs: 50, responseMs: 50 },
        markets: { feeTakerBps: 100 },
        fees: { makerFeeBps: 40 },
      },
    ]);
    const count = (p: (f: BacktestFill) => boolean) => fills.filter(p).length;
    expect(count((f) => f.side === "buy")).toBeGreaterThan(0);
    expect(count((f) => f.side === "sell")).toBeGreaterThan(0);
    expect(count((f) => f.role === "taker")).toBeGreaterThan(0);
    expect(count((f) => f.role === "maker")).toBeGreaterThan(0);
    expect(count((f) => f.fee.asset === "usdc" && f.fee.amount > 0n)).toBeGreaterThan(0);
    expect(count((f) => f.fee.asset === "shares" && f.fee.amount > 0n)).toBeGreaterThan(0);
    expect(r.summary.pnl.realised).not.toBe("0");
    // The second capture's empty first snapshot restates the book (it wipes the first capture's
    // levels): no trade, so it fills neither of the bot's quotes resting from before the silence.
    // Its decreases taken for trades at the touch sold 50 at 0.21 and bought 50 at 0.19 at once.
    expect(fills.filter((f) => f.tsMs === SECOND_START).map((f) => `${f.side} ${f.price}`)).toEqual([]);
    expectReconciled(r, fills);
    expect(await expectOfferedPrices(await dataFiles(capture()), fills)).toBe(fills.length);
  }, 60_000);
});
