import type { BacktestFill } from "../../../../src/backtest/sim/bot-fills.js";
import { RecordedWriter } from "../../../../src/recorded/format.js";
import { GEN_CONDITION, GEN_TOKEN } from "./recording.js";

/** One step of a hand-written recording, `dt` ms after the first frame. */
export type Step =
  | { readonly dt: number; readonly snapshot: { bids: [string, string][]; asks: [string, string][] } }
  | { readonly dt: number; readonly delta: [side: "buy" | "sell", price: string, size: string][] }
  | { readonly dt: number; readonly print: [taker: "buy" | "sell", price: string, quantity: string] }
  | { readonly dt: number; readonly resolved: { resolution: string; payouts: string[] } };

/** Receive time of the first frame of a crafted recording. */
export const T0 = 1_750_000_000_000;

/**
 * Writes a recording of GEN_TOKEN from hand-written steps: book frames on token_book (seq
 * numbered in order), trade_matched prints on token_trade_matches and market_resolved on
 * condition_lifecycle, as `mm record` stores them.
 */
export async function writeSteps(path: string, steps: readonly Step[]): Promise<void> {
  const w = RecordedWriter.create(path);
  const common = { tokenId: GEN_TOKEN, conditionId: GEN_CONDITION, outcomeIndex: 0 };
  let seq = 0;
  let trade = 0;
  for (const s of steps) {
    const tsMs = T0 + s.dt;
    const lv = (l: [string, string][]) => l.map(([price, size]) => ({ price, size }));
    let frame: Record<string, unknown>;
    if ("resolved" in s) {
      const data = { conditionId: GEN_CONDITION, ...s.resolved, tsMs };
      frame = { type: "market_resolved", sid: 3, channel: "condition_lifecycle", id: GEN_CONDITION, data };
    } else if ("print" in s) {
      const [side, price, quantity] = s.print;
      const data = { ...common, tradeId: `m${++trade}`, price, quantity, side, source: "matcher", tsMs };
      frame = { type: "trade_matched", sid: 2, channel: "token_trade_matches", id: GEN_TOKEN, data };
    } else if ("snapshot" in s) {
      const data = { ...common, seq: ++seq, bids: lv(s.snapshot.bids), asks: lv(s.snapshot.asks), tsMs };
      frame = { type: "book_snapshot", sid: 1, channel: "token_book", id: GEN_TOKEN, data };
    } else {
      const changes = s.delta.map(([side, price, size]) => ({ side, price, size }));
      const data = { ...common, seq: ++seq, prevSeq: seq - 1, changes, tsMs };
      frame = { type: "book_delta", sid: 1, channel: "token_book", id: GEN_TOKEN, data };
    }
    await w.write({ recvTs: tsMs, frame: frame as { type: string } });
  }
  await w.close();
}

/**
 * A book at 0.49 / 0.51 (100 each) that moves down a tick 300 ms later, in one frame: 0.49 bid and
 * 0.51 ask gone, 0.48 bid 100, 0.49 offered 50, so a bot bid resting at 0.49 is met by the frame
 * itself; at 3 s the 0.48 bid shrinks to 90.
 */
export const TICK_DOWN: readonly Step[] = [
  { dt: 0, snapshot: { bids: [["0.49", "100"]], asks: [["0.51", "100"]] } },
  {
    dt: 300,
    delta: [
      ["buy", "0.49", "0"],
      ["sell", "0.51", "0"],
      ["buy", "0.48", "100"],
      ["sell", "0.49", "50"],
    ],
  },
  { dt: 3_000, delta: [["buy", "0.48", "90"]] },
];

/** A fill as `+<ms after T0> <role> <side> <price> <quantity>`: a run's fills, comparable by eye. */
export const fillLine = (f: BacktestFill): string =>
  `+${f.tsMs - T0} ${f.role} ${f.side} ${f.price} ${f.quantity}`;
