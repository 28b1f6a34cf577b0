import type { Fill } from "../../../src/core/trading.js";
import { Inventory } from "../../../src/execution/inventory.js";
import type { FeeAmount } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { fill, journalPath } from "./support.js";

const at = (day: number, hour: number) => Date.UTC(2025, 5, day, hour);
const TOKENS = [
  { tokenId: "t1", marketId: "m1", slug: "will-it-rain", outcome: "YES" },
  { tokenId: "t3", marketId: "m2", slug: undefined, outcome: "YES" },
];

/**
 * Two runs of one wallet, journaled as the recorder would (fill, then the token's account):
 * each fee settling a minute after its fill (zero unless named). Day 1: buy 10 @0.47, sell 4 @0.53
 * (fee 0.002 USDC); day 2: sell 6 @0.45 on m1, buy 2.5 @0.333333 on m2
 * (fee 0.01 share), marked at 0.35 at the stop; restart, which trades m1 only (m2's position stays
 * the first run's); day 3: buy 1 @0.50, marked at 0.51.
 */
export function twoRunJournal(): string {
  const path = journalPath();
  const db = openJournalDb(path);
  const w = new JournalWriter(db);
  let inv = new Inventory();
  const r1 = w.beginRun({ account: "a", session: "one", atMs: at(1, 9), tokens: TOKENS });
  // Every fill's fee settles a minute later, as the engine journals it: a zero fee (a maker's) is a
  // fee row too, so the report counts no fill as still waiting for its fee.
  const trade = (run: number, f: Fill, fee?: FeeAmount) => {
    inv.applyFill(f);
    w.fill(run, f, "stream");
    w.account(run, f.tsMs, "fill", f.tokenId, inv.account(f.tokenId), undefined);
    const settled = fee ?? { asset: f.side === "buy" ? "shares" : "usdc", amountMicro: 0n };
    inv.setFee(f.tradeId, f.orderId, settled);
    w.fee(f, settled, f.tsMs + 60_000);
    w.account(run, f.tsMs + 60_000, "reconcile", f.tokenId, inv.account(f.tokenId), undefined);
  };
  trade(r1, fill({ tradeId: "A", priceMicro: 470_000, sizeMicro: 10_000_000n, tsMs: at(1, 10) }));
  trade(
    r1,
    fill({ tradeId: "B", side: "sell", priceMicro: 530_000, sizeMicro: 4_000_000n, tsMs: at(1, 11) }),
    {
      asset: "usdc",
      amountMicro: 2_000n,
    },
  );
  trade(r1, fill({ tradeId: "C", side: "sell", priceMicro: 450_000, sizeMicro: 6_000_000n, tsMs: at(2, 9) }));
  trade(
    r1,
    fill({ tradeId: "D", tokenId: "t3", priceMicro: 333_333, sizeMicro: 2_500_000n, tsMs: at(2, 10) }),
    {
      asset: "shares",
      amountMicro: 10_000n,
    },
  );
  w.account(r1, at(2, 20), "stop", "t3", inv.account("t3"), 350_000); // the stop snapshot's mark
  w.endRun(r1, at(2, 20), "SIGTERM", 0);
  // The restart: t1's account carried over (restore row), then one more buy, then a snapshot's mark.
  const carried = inv.account("t1");
  inv = new Inventory();
  inv.seed("t1", carried);
  const r2 = w.beginRun({ account: "a", session: "two", atMs: at(3, 8), tokens: TOKENS });
  w.account(r2, at(3, 8), "restore", "t1", carried, undefined);
  trade(r2, fill({ tradeId: "E", priceMicro: 500_000, sizeMicro: 1_000_000n, tsMs: at(3, 9) }));
  w.account(r2, at(3, 10), "snapshot", "t1", inv.account("t1"), 510_000);
  db.close();
  return path;
}

/**
 * What `mm report` prints for {@link twoRunJournal}, after its first line (`mm report: <path>`):
 * the unit test compares it, and README's example (test/unit/docs) is the same text.
 */
export const REPORT_TEXT = `\
2 run(s); days are UTC; volume in shares, amounts in USDC, exact

day         market        fills  volume    notional  realised PnL        fees      net PnL
----------  ------------  -----  ------  ----------  ------------  ----------  -----------
2025-06-01  will-it-rain      2      14        6.82          0.24       0.002        0.238
2025-06-02  m2                1     2.5   0.8333325          0.00  0.00333333  -0.00333333
2025-06-02  will-it-rain      1       6        2.70         -0.12        0.00        -0.12
2025-06-03  will-it-rain      1       1        0.50          0.00        0.00         0.00
----------  ------------  -----  ------  ----------  ------------  ----------  -----------
all days    m2                1     2.5   0.8333325          0.00  0.00333333  -0.00333333
all days    will-it-rain      4      21       10.02          0.12       0.002        0.118
----------  ------------  -----  ------  ----------  ------------  ----------  -----------
all days    all markets       5    23.5  10.8533325          0.12  0.00533333   0.11466667

open positions (each token's last journaled account, at its last journaled mark)
market        outcome  position  cost basis  mark  unrealised PnL
------------  -------  --------  ----------  ----  --------------
m2            YES          2.49  0.82999917  0.35      0.04150083
will-it-rain  YES             1        0.50  0.51            0.01

total PnL: net PnL + unrealised PnL of the open positions at their last journaled mark
net PnL (realised - fees)  0.11466667
unrealised PnL             0.05150083
total PnL                   0.1661675
`;
