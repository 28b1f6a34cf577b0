import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import type { DesiredQuote } from "../../../src/core/trading.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { configureStrategy } from "../../../strategies/registry.js";
import type { Strategy } from "../../../strategies/types.js";
import { T0, writeSteps } from "./support/crafted.js";

/*
 * review18 r2-replay: the time-driven requote steps only tokens whose last step was remembered
 * (sent nothing). requote-timer.ts: "A token whose last step sent intents … the answers to what it
 * sent step it (and the step after them is remembered)". That holds for a placement (an accepted
 * one requotes) but not for a step that sent only cancels: a cancel's answer requotes nothing unless
 * a placement was held back for it (requoteIfAwaiting). Live the bot's own cancel comes back as a
 * book delta and steps the token; in a replay (feedShowsOwnOrders false) nothing does, so after a
 * time-driven step that withdraws one side (A–S's ask leaving [tick, 1 − tick] as T − t shrinks on
 * a long position near 1, or an order limit dropping it), the other side's quote stays at that step's
 * time until the next market frame — the staleness the requote timer exists to remove.
 *
 * The strategy here reads the clock: bid 0.41 + 0.01 per 10 s elapsed, ask 0.59 only before 15 s.
 * The book never moves from 0 to 60 s. At 15 s the step cancels the ask alone (the bid is 0.42
 * before and after); at 20 s and 30 s the bid should move to 0.43 and 0.44.
 * Fixed: the answer ending an order of a token whose last step read the clock and sent intents
 * steps it (QuoteMemo.clockedUnremembered, engine-reports.ts), and the step it remembers re-arms
 * the timer.
 */

const dir = mkdtempSync(join(tmpdir(), "mm-clock-requote-cancel-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const clocked: Strategy<null> = {
  name: "clocked",
  parseParams: () => null,
  quote: (ctx) => {
    const elapsed = ctx.nowMs - T0;
    const quotes: DesiredQuote[] = [
      {
        side: "buy",
        level: 0,
        priceMicro: 410_000 + 10_000 * Math.floor(elapsed / 10_000),
        sizeMicro: 10_000_000n,
      },
    ];
    if (elapsed < 15_000)
      quotes.push({ side: "sell", level: 0, priceMicro: 590_000, sizeMicro: 10_000_000n });
    return quotes;
  },
};

describe("time-driven requote in a replay after a step that only cancelled", () => {
  it("keeps stepping the token: its bid follows the clock on a quiet book", async () => {
    const data = join(dir, "quiet.jsonl.gz");
    await writeSteps(data, [
      { dt: 0, snapshot: { bids: [["0.30", "100"]], asks: [["0.70", "100"]] } },
      { dt: 60_000, delta: [["buy", "0.30", "90"]] },
    ]);
    const base = parseReplayConfig([
      {
        strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
        engine: { requoteIntervalMs: 1_000 },
      },
    ]);
    const config = { ...base, strategy: configureStrategy(clocked, {}), strategyRaw: { name: "clocked" } };
    const placed: { at: number; side: string; price: number }[] = [];
    await runBacktest({
      config,
      data,
      onEngineEvent: (e: EngineEvent) => {
        if (e.type === "place_outcome" && e.outcome === "accepted")
          placed.push({ at: e.atMs - T0, side: e.intent.quote.side, price: e.intent.quote.priceMicro });
      },
    });
    const bids = placed.filter((p) => p.side === "buy" && p.at < 60_000).map((p) => p.price);
    // Sanity: the timer ran before the cancel (0.41 at start, 0.42 at 10 s).
    expect(bids).toContain(420_000);
    // After the ask's cancel at 15 s: still stepped at 20 s and 30 s.
    expect(bids).toContain(430_000);
    expect(bids).toContain(440_000);
  }, 60_000);
});
