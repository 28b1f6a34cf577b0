import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPolymarketPriceChanges } from "../../../src/backtest/import/polymarket-price-changes.js";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import type { BacktestFill } from "../../../src/backtest/sim/bot-fills.js";

/*
 * README ("Importing a Polymarket capture"): "Captures that follow each other in time may share a
 * directory", and a directory replays as one stream merged by receive time. Every import starts
 * its token with a synthetic empty book_snapshot at seq 1. Replayed after an earlier capture of the
 * same token (whose seqs went up to N), the simulated exchange applies the second capture; the
 * bot's BookTracker used to drop its snapshot (seq 1 <= N: stale) and then every delta (seq <= N:
 * stale), so the bot quoted the first capture's last book for the whole second capture, blind, and
 * was picked off by the book it could not see, with nothing in the summary to say so. The replay
 * now hands such a snapshot to the tracker as a new subscription's (SimSession), and counts it in
 * `data.resubscribed`.
 */

const TOKEN = "4242424242";
const MARKET = `0x${"ab".repeat(32)}`;
const HEADER = '"id","asset_id","market","timestamp","hash","changes"';

function row(id: number, ms: number, changes: { side: string; size: string; price: string }[]): string {
  const ts = new Date(ms).toISOString().replace("T", " ").replace("Z", " +0000");
  const json = JSON.stringify(changes).replaceAll('"', '""');
  return `${id},"${TOKEN}","${MARKET}",${ts},"h${id}","${json}"`;
}

// One capture: a two-sided book at bid/ask, restated every second for `secs` seconds.
function capture(firstId: number, t0: number, bid: string, ask: string, secs: number): string {
  const lines = [HEADER];
  for (let i = 0; i < secs; i++) {
    lines.push(
      row(firstId + i, t0 + i * 1_000, [
        { side: "BUY", size: String(100 + (i % 2)), price: bid },
        { side: "SELL", size: String(100 + (i % 2)), price: ask },
      ]),
    );
  }
  return `${lines.join("\n")}\n`;
}

const T0 = Date.UTC(2025, 0, 25, 12, 0, 0);
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-review-consecutive-"));
  const data = join(dir, "data");
  writeFileSync(join(dir, "day1.csv"), capture(1, T0, "0.40", "0.42", 300));
  // The next capture, an hour after the first one ends: the market has moved to 0.70 / 0.72.
  writeFileSync(join(dir, "day2.csv"), capture(1_000, T0 + 3_900_000, "0.70", "0.72", 300));
  mkdirSync(data);
  await importPolymarketPriceChanges({ input: join(dir, "day1.csv"), output: join(data, "day1.jsonl.gz") });
  await importPolymarketPriceChanges({ input: join(dir, "day2.csv"), output: join(data, "day2.jsonl.gz") });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a directory of two imports of one token that follow each other in time", () => {
  it("the bot quotes the second capture's book, not the first one's", async () => {
    const fills: BacktestFill[] = [];
    const r = await runBacktest({
      config: parseReplayConfig([
        {
          strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
          markets: { tick: "0.01", minSize: "5" },
          wallet: { usdc: "10000", shares: "1000" },
        },
      ]),
      data: join(dir, "data"),
      seed: 1,
      onFill: (f) => fills.push(f),
    });
    expect(r.summary.data.frames).toBe(602); // both captures replayed: 2 snapshots + 600 deltas
    expect(r.summary.data).toMatchObject({ resubscribed: 1, rejected: {} });
    // The quotes resting from the first capture may be taken when the second one opens at 0.70 /
    // 0.72 (a stale quote across a data gap). But from a second later on, a bot that sees the
    // second capture quotes ±0.01 around 0.71: no fill at the first capture's prices (0.40 / 0.42),
    // and none as taker.
    const later = fills.filter((f) => f.tsMs >= T0 + 3_900_000 + 1_000);
    const stale = later.filter((f) => f.price < 600_000n).map((f) => `${f.role} ${f.side} ${f.price}`);
    expect(stale).toEqual([]);
    expect(later.filter((f) => f.role === "taker")).toEqual([]);
  }, 60_000);
});
