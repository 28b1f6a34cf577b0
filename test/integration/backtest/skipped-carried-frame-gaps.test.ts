import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { RecordedWriter } from "../../../src/recorded/format.js";
import { GEN_CONDITION, GEN_TOKEN } from "./support/recording.js";

/*
 * review18 r2-replay: README — replaying the whole directory, the carried frames "are skipped,
 * counted nowhere …, so the summary is the one the directory gave without them". The rotating
 * writer puts the carried frames at the recvTs of the new file's first frame. After a long
 * disconnect the file has aged past --rotate-minutes, so the first frame written after the
 * reconnect rotates it — and that frame may be the recorder's own `prints_missed` mark (written
 * when token_trade_matches is accepted again, before the book's snapshot arrives). The replay skips
 * the mark before its clock and gap accounting, but a skipped carried frame still moves both
 * (run-backtest.ts: advanceTo, gaps.add, endMs): the silence is cut at the carried frames' time,
 * so data.gaps ends at the mark, not at the next frame of the market, and differs from the
 * directory replayed without the carried frames. Fixed: a carried frame the session skips
 * (SimSession.skipsCarried) is skipped before that accounting, as the mark is.
 */

const root = mkdtempSync(join(tmpdir(), "mm-review-carry-gap-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const T0 = 1_750_000_000_000;
const H = 3_600_000;
const common = { tokenId: GEN_TOKEN, conditionId: GEN_CONDITION, outcomeIndex: 0 };
const lv = (l: [string, string][]) => l.map(([price, size]) => ({ price, size }));
const snapshot = (seq: number, tsMs: number) => ({
  type: "book_snapshot",
  sid: 1,
  channel: "token_book",
  id: GEN_TOKEN,
  data: { ...common, seq, bids: lv([["0.49", "100"]]), asks: lv([["0.51", "100"]]), tsMs },
});
const delta = (seq: number, size: string, tsMs: number) => ({
  type: "book_delta",
  sid: 1,
  channel: "token_book",
  id: GEN_TOKEN,
  data: { ...common, seq, prevSeq: seq - 1, changes: [{ side: "buy", price: "0.49", size }], tsMs },
});
const status = { conditionId: GEN_CONDITION, status: "OPEN", tsMs: T0 };
const rest = {
  type: "market_status",
  sid: "rest",
  via: "GET",
  channel: "condition_lifecycle",
  id: GEN_CONDITION,
  data: status,
};
const carried = { ...rest, sid: "carry", via: "rotation" };

async function write(path: string, recs: [number, Record<string, unknown>][]): Promise<void> {
  const w = RecordedWriter.create(path);
  for (const [recvTs, frame] of recs) await w.write({ recvTs, frame: frame as { type: string } });
  await w.close();
}

async function dir(name: string, withCarry: boolean): Promise<string> {
  const d = join(root, name);
  mkdirSync(d);
  const T2 = T0 + 2 * H; // the reconnect, after two hours down
  const T3 = T2 + 40; // the book's snapshot after the resubscribe
  await write(join(d, "market-1.jsonl.gz"), [
    [T0, snapshot(1, T0)],
    [T0 + 5, rest],
    [T0 + 1_000, delta(2, "90", T0 + 1_000)],
  ]);
  await write(join(d, "market-2.jsonl.gz"), [
    ...(withCarry ? ([[T2, carried]] as [number, Record<string, unknown>][]) : []),
    [
      T2,
      {
        type: "prints_missed",
        sid: "gap",
        channel: "token_trade_matches",
        id: GEN_TOKEN,
        via: "reconnect",
        data: { tokenId: GEN_TOKEN, fromMs: T0 + 1_000, toMs: T2 },
      },
    ],
    [T3, snapshot(3, T3)],
    [T3 + 1_000, delta(4, "80", T3 + 1_000)],
  ]);
  return d;
}

describe("a carried frame skipped in a directory replay", () => {
  it("moves neither the clock nor data.gaps when the rotated file starts with a prints_missed mark", async () => {
    const config = parseReplayConfig([
      { strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } } },
    ]);
    const withCarry = (await runBacktest({ config, data: await dir("with", true) })).summary;
    const without = (await runBacktest({ config, data: await dir("without", false) })).summary;
    expect(withCarry.data.carried).toBeUndefined();
    expect(withCarry.data.gaps).toEqual(without.data.gaps);
    expect(withCarry).toEqual(without);
  }, 60_000);
});
