import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import type { BacktestFill } from "../../../src/backtest/sim/bot-fills.js";
import { fillLine, TICK_DOWN, writeSteps } from "./support/crafted.js";

/*
 * A market that resolves before the data ends: the markouts whose horizon lies past the end are
 * known (the token is worth its payout from the resolution on) and counted at the payout; the same
 * data without the resolution leaves them unresolved.
 *
 * TICK_DOWN: the bot's bid 0.49 × 10 is met by the frame at 300 ms. The market resolves YES at
 * 1 s (the last frame): every horizon (1.3 s, 10.3 s, 60.3 s) lies past the end, each worth
 * (1 − 0.49) × 10 = 5.1 at the payout.
 */

const BANDS = { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } };

let dir: string;
let resolved: string;
let open: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-resolved-markouts-"));
  const [book, down] = TICK_DOWN;
  resolved = join(dir, "resolved.jsonl.gz");
  await writeSteps(resolved, [
    book as (typeof TICK_DOWN)[number],
    down as (typeof TICK_DOWN)[number],
    { dt: 1_000, resolved: { resolution: "YES", payouts: ["1", "0"] } },
  ]);
  open = join(dir, "open.jsonl.gz");
  await writeSteps(open, [
    book as (typeof TICK_DOWN)[number],
    down as (typeof TICK_DOWN)[number],
    { dt: 1_000, delta: [["buy", "0.48", "90"]] },
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(data: string) {
  const fills: BacktestFill[] = [];
  const r = await runBacktest({
    config: parseReplayConfig([{ strategy: BANDS, startLeadMs: 5_000 }]),
    data,
    onFill: (f) => fills.push(f),
  });
  return { s: r.summary, fills: fills.map(fillLine) };
}

describe("markouts of a market resolved before the end of the data", () => {
  it("are counted at the payout past the end", async () => {
    const { s, fills } = await run(resolved);
    expect(fills).toEqual(["+300 maker buy 490000 10000000"]);
    expect(s.data.lifecycle).toBe(1);
    expect(s.markouts.map((m) => [m.horizonMs, m.fills, m.unresolved, m.total])).toEqual([
      [1_000, 1, 0, "5.1"],
      [10_000, 1, 0, "5.1"],
      [60_000, 1, 0, "5.1"],
    ]);
  });

  it("stay unresolved past the end when the market has not resolved", async () => {
    const { s, fills } = await run(open);
    expect(fills).toEqual(["+300 maker buy 490000 10000000"]);
    expect(s.markouts.map((m) => [m.horizonMs, m.fills, m.unresolved])).toEqual([
      [1_000, 0, 1],
      [10_000, 0, 1],
      [60_000, 0, 1],
    ]);
  });
});
