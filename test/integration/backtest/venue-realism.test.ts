import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { type BacktestResult, runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { summaryJson } from "../../../src/backtest/report/summary.js";
import type { BacktestFill } from "../../../src/backtest/sim/bot-fills.js";
import { packageRoot } from "../../../src/config/paths.js";
import { fillLine, TICK_DOWN, writeSteps } from "./support/crafted.js";
import { expectReconciled } from "./support/invariants.js";

/*
 * Each venue-realism model chosen in the replay config, on hand-written recordings whose outcome
 * is worked out by hand: the queue model decides when prints reach the bot's bid, the entry
 * latency turns a maker fill into a stale quote's taker fill, and the venue's rejects and fees
 * show in the summary.
 */

const BANDS = { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } };
const BOOK = { bids: [["0.49", "100"]], asks: [["0.51", "100"]] } as {
  bids: [string, string][];
  asks: [string, string][];
};

let dir: string;
let queueData: string;
let staleData: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-venue-realism-"));
  // The bot bids 0.49 (mid 0.50 − 0.01) behind the recorded 100; 100 more join behind it and 100
  // leave without a print (cancels); then sellers print 30, 40, 40 at 0.49.
  queueData = join(dir, "queue.jsonl.gz");
  await writeSteps(queueData, [
    { dt: 0, snapshot: BOOK },
    { dt: 1_000, delta: [["buy", "0.49", "200"]] },
    { dt: 2_000, delta: [["buy", "0.49", "100"]] },
    { dt: 3_000, print: ["sell", "0.49", "30"] },
    { dt: 4_000, print: ["sell", "0.49", "40"] },
    { dt: 5_000, print: ["sell", "0.49", "40"] },
    { dt: 6_000, delta: [["sell", "0.51", "90"]] },
  ]);
  // 300 ms after the first book the market moves down a tick: the ask comes to 0.49.
  staleData = join(dir, "stale.jsonl.gz");
  await writeSteps(staleData, TICK_DOWN);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(data: string, extra: Record<string, unknown>, seed = 1) {
  const fills: BacktestFill[] = [];
  const r: BacktestResult = await runBacktest({
    config: parseReplayConfig([{ strategy: BANDS, startLeadMs: 5_000, ...extra }]),
    data,
    seed,
    onFill: (f) => fills.push(f),
  });
  expectReconciled(r, fills);
  return { r, fills: fills.map(fillLine) };
}

describe("queue model, chosen by config", () => {
  it("fills the bid when the prints get through the size the model leaves ahead of it", async () => {
    const model = (queueModel: unknown) => run(queueData, { queueModel, fees: { makerFeeBps: 100 } });
    // conservative: the 100 cancelled were all ahead → the first print (30) goes through.
    const cons = await model({ type: "conservative", trades: "recorded" });
    expect(cons.fills).toEqual(["+3000 maker buy 490000 10000000"]);
    // Maker fee in shares: 10 × 0.01 × 0.49 × 0.51 = 0.02499.
    expect(cons.r.summary.fees.shares).toBe("0.02499");
    // power n = 2: 100 ahead, 100 behind → half the cancel ahead (50 left); 30 + 40 pass it.
    const prob = await model({ type: "probabilistic", fn: "power", n: 2, trades: "recorded" });
    expect(prob.fills).toEqual(["+4000 maker buy 490000 10000000"]);
    expect(prob.r.summary.mirror).toMatchObject({
      queueModel: { type: "probabilistic", fn: "power", n: 2, trades: "recorded" },
      prints: 3,
      printTrades: 1,
      printQuantity: "10",
    });
    // riskAverse: the cancel was all behind (100 still ahead); only the third print passes it.
    const averse = await model({ type: "riskAverse", trades: "recorded" });
    expect(averse.fills).toEqual(["+5000 maker buy 490000 10000000"]);
    // The default ignores prints and takes the 100 leaving at the touch as trades, all ahead of
    // the bid: it never fills, and the summary carries no queue-model keys (as before).
    const plain = await run(queueData, {});
    expect(plain.fills).toEqual([]);
    expect(plain.r.summary.mirror).not.toHaveProperty("queueModel");
    expect(plain.r.summary.mirror.inferredTrades).toBe(0);
  }, 30_000);
});

describe("latency, chosen by config", () => {
  it("turns a maker fill into a stale quote's taker fill when order entry is slow", async () => {
    const fees = { markets: { feeTakerBps: 200 } };
    // No latency: the bid rests at 0.49 before the ask comes down to it → maker at its price.
    const fast = await run(staleData, fees);
    expect(fast.fills).toEqual(["+300 maker buy 490000 10000000"]);
    // Entry 400–600 ms: the bid, priced on the first book, arrives after the move and crosses
    // the new ask as taker. Fee in shares: 10 × 0.02 × 0.49 × 0.51 = 0.04998.
    const latency = {
      entryMs: { type: "uniform", minMs: 400, maxMs: 600 },
      feedMs: { type: "constant", ms: 0 },
    };
    const slow = await run(staleData, { ...fees, latency });
    expect(slow.fills).toHaveLength(1);
    expect(slow.fills[0]).toMatch(/^\+[456]\d\d taker buy 490000 10000000$/);
    expect(slow.r.summary.fees.shares).toBe("0.04998");
    expect(slow.r.summary.latency).toEqual({ feedMs: 0, entryMs: latency.entryMs, responseMs: 0 });
    // Sampled, yet deterministic: the same seed gives the same bytes.
    const again = await run(staleData, { ...fees, latency });
    expect(summaryJson(again.r.summary)).toBe(summaryJson(slow.r.summary));
  }, 30_000);
});

describe("the example overlay (config/backtest/venue-realistic.json)", () => {
  it("layers over bands-replay.json and replays deterministically per seed", async () => {
    const file = (name: string) =>
      JSON.parse(readFileSync(join(packageRoot(), "config/backtest", name), "utf8")) as Record<
        string,
        unknown
      >;
    const layers = [file("bands-replay.json"), file("venue-realistic.json")];
    const go = async (seed: number) =>
      summaryJson((await runBacktest({ config: parseReplayConfig(layers), data: queueData, seed })).summary);
    const a = await go(4);
    expect(await go(4)).toBe(a);
    const s = JSON.parse(a);
    expect(s.latency.entryMs).toEqual({ type: "lognormal", medianMs: 20, sigma: 0.5 });
    expect(s.mirror).toMatchObject({ queueModel: { type: "probabilistic", trades: "auto" }, prints: 3 });
  }, 30_000);
});

describe("exchange rules reproduced", () => {
  it("rejects what the wallet cannot fund, as the exchange would, and counts it", async () => {
    const poor = await run(queueData, { wallet: { usdc: "3", shares: "0" } });
    // 3 USDC cannot pay for 10 × 0.49, and there are no shares to sell: every placement is refused.
    const orders = poor.r.summary.orders;
    expect(orders.placed).toBeGreaterThan(0);
    expect(orders.rejectCodes).toEqual({ insufficient_funds: orders.placed });
    expect(orders.rejected).toBe(orders.placed);
    expect(poor.fills).toEqual([]);
  }, 30_000);

  it("keeps the bot on the configured tick and refuses recorded prices off it", async () => {
    // Tick 0.02 on a 0.01 recording: the bot quotes 0.48 / 0.52; the levels at odd cents
    // (0.49, 0.51) are refused by the venue and counted.
    const coarse = await run(staleData, { markets: { tick: "0.02" } });
    expect(coarse.r.summary.mirror.rejected).toMatchObject({ invalid_amounts: expect.any(Number) });
    expect(coarse.r.summary.orders.rejectCodes).toEqual({});
    expect(coarse.r.summary.orders.placed).toBeGreaterThan(0);
  }, 30_000);
});
