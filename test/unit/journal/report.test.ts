import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/cli/command.js";
import { parseSince, reportCommand } from "../../../src/cli/report.js";
import type { Fill } from "../../../src/core/trading.js";
import { Inventory } from "../../../src/execution/inventory.js";
import type { FeeAmount } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { buildReport } from "../../../src/journal/report.js";
import { reportJson, reportText, scaled } from "../../../src/journal/report-format.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { fill, journalPath } from "./support.js";

const at = (day: number, hour: number) => Date.UTC(2025, 5, day, hour);
const TOKENS = [
  { tokenId: "t1", marketId: "m1", slug: "will-it-rain", outcome: "YES" },
  { tokenId: "t3", marketId: "m2", slug: undefined, outcome: "YES" },
];

/**
 * Two runs of one wallet, journaled as the recorder would (fill, then the token's account):
 * day 1: buy 10 @0.47, sell 4 @0.53 (fee 0.002 USDC); day 2: sell 6 @0.45 on m1, buy 2.5 @0.333333 on m2
 * (fee 0.01 share); restart; day 3: buy 1 @0.50, marked at 0.51.
 */
function journal(): string {
  const path = journalPath();
  const db = openJournalDb(path);
  const w = new JournalWriter(db);
  let inv = new Inventory();
  const r1 = w.beginRun({ account: "a", session: "one", atMs: at(1, 9), tokens: TOKENS });
  const trade = (run: number, f: Fill, fee?: FeeAmount) => {
    inv.applyFill(f);
    w.fill(run, f, "stream");
    w.account(run, f.tsMs, "fill", f.tokenId, inv.account(f.tokenId), undefined);
    if (fee !== undefined) {
      inv.setFee(f.tradeId, f.orderId, fee);
      w.fee(f, fee, f.tsMs + 60_000);
      w.account(run, f.tsMs + 60_000, "reconcile", f.tokenId, inv.account(f.tokenId), undefined);
    }
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

const TEXT = `\
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

open positions (last run, last journaled mark)
market        outcome  position  cost basis  mark  unrealised PnL
------------  -------  --------  ----------  ----  --------------
will-it-rain  YES             1        0.50  0.51            0.01
`;

describe("mm report figures", () => {
  it("adds up volume, notional, realised PnL and fees by UTC day and market, exactly", () => {
    const path = journal();
    const db = openJournalDb(path, { mustExist: true });
    const r = buildReport(db);
    db.close();
    expect(reportText(r, path)).toBe(`mm report: ${path}\n${TEXT}`);
    const json = JSON.parse(reportJson(r, path)) as Record<string, unknown>;
    expect(json.total).toEqual({
      fills: 5,
      volume: "23.5",
      notional: "10.8533325",
      realisedPnl: "0.12",
      fees: "0.00533333",
      netPnl: "0.11466667",
    });
    expect(json.positions).toEqual([
      {
        market: "will-it-rain",
        outcome: "YES",
        tokenId: "t1",
        position: "1",
        costBasis: "0.50",
        mark: "0.51",
        unrealisedPnl: "0.01",
      },
    ]);
  });

  it("--since leaves out earlier days, and the CLI prints the same tables", async () => {
    const path = journal();
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), env: {}, cwd: "/" };
    expect(await reportCommand.run(["--journal", path, "--since", "2025-06-02", "--json"], io)).toBe(0);
    const json = JSON.parse(out.join("")) as { days: { day: string }[]; total: Record<string, unknown> };
    expect(json.days.map((d) => d.day)).toEqual(["2025-06-02", "2025-06-02", "2025-06-03"]);
    expect(json.total).toMatchObject({ fills: 3, volume: "9.5", realisedPnl: "-0.12", fees: "0.00333333" });
    out.length = 0;
    expect(await reportCommand.run(["--journal", path], io)).toBe(0);
    expect(out.join("")).toContain("all days    all markets       5    23.5  10.8533325");
    expect(await reportCommand.run(["--journal", `${path}.absent`], io)).toBe(2);
    expect(err.join("")).toMatch(/no journal at .*absent/);
  });

  it("a missing journal is named with where mm run and mm paper keep theirs (what to pass instead)", async () => {
    const err: string[] = [];
    const io = { stdout: () => undefined, stderr: (t: string) => err.push(t), env: {}, cwd: "/" };
    const path = `${journal()}.absent`;
    expect(await reportCommand.run(["--journal", path], io)).toBe(2);
    expect(err.join("")).toBe(
      `mm report: no journal at ${path}\n` +
        "mm report: mm run keeps its journal at journal.path (else the default data file, see --help); " +
        "mm paper a new one per run, named in its last log line: pass it with --journal PATH\n",
    );
  });

  it("reads --since as a UTC day or a zoned ISO time, and refuses anything else", () => {
    expect(parseSince("2025-06-01")).toBe(Date.UTC(2025, 5, 1));
    expect(parseSince("2025-06-01T14:00:00+02:00")).toBe(Date.UTC(2025, 5, 1, 12));
    for (const bad of ["2025-02-30", "2025-06-01T12:00", "yesterday", "1748736000000"]) {
      expect(() => parseSince(bad), bad).toThrow(/--since/);
    }
  });

  it("refuses an impossible day in the ISO-time form too (Date.parse would roll it over)", () => {
    for (const bad of [
      "2025-02-30T12:00:00Z",
      "2025-02-29T00:00:00+01:00",
      "2025-04-31T08:00Z",
      "2025-13-01T00:00:00Z",
    ]) {
      expect(() => parseSince(bad), bad).toThrow(UsageError);
    }
    // A real leap day, whose zone moves it into March in UTC, is a real time.
    expect(parseSince("2024-02-29T23:30:00-01:00")).toBe(Date.UTC(2024, 2, 1, 0, 30));
  });

  it("formats scaled integers exactly", () => {
    expect(scaled(-1_234_500_000_000n, 12, 2)).toBe("-1.2345");
    expect(scaled(5n, 12, 2)).toBe("0.000000000005");
    expect(scaled(0n, 6, 0)).toBe("0");
    expect(scaled(-7n, 6, 2)).toBe("-0.000007");
  });
});
