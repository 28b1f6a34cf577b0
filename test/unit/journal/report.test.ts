import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/cli/command.js";
import { parseSince, reportCommand } from "../../../src/cli/report.js";
import { Inventory } from "../../../src/execution/inventory.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { buildReport } from "../../../src/journal/report.js";
import { reportJson, reportText, scaled } from "../../../src/journal/report-format.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { REPORT_TEXT, twoRunJournal } from "./report-support.js";
import { fill } from "./support.js";

describe("mm report figures", () => {
  it("adds up volume, notional, realised PnL and fees by UTC day and market, exactly", () => {
    const path = twoRunJournal();
    const db = openJournalDb(path, { mustExist: true });
    const r = buildReport(db);
    db.close();
    expect(reportText(r, path)).toBe(`mm report: ${path}\n${REPORT_TEXT}`);
    const json = JSON.parse(reportJson(r, path)) as Record<string, unknown>;
    expect(json.total).toEqual({
      fills: 5,
      volume: "23.5",
      notional: "10.8533325",
      realisedPnl: "0.12",
      fees: "0.00533333",
      netPnl: "0.11466667",
      unrealisedPnl: "0.05150083",
      totalPnl: "0.1661675",
      positionsWithoutMark: 0,
      fillsWithoutFee: 0,
    });
    expect(json.positions).toEqual([
      {
        account: "a",
        market: "m2",
        outcome: "YES",
        tokenId: "t3",
        position: "2.49",
        costBasis: "0.82999917",
        mark: "0.35",
        unrealisedPnl: "0.04150083",
        settled: null,
      },
      {
        account: "a",
        market: "will-it-rain",
        outcome: "YES",
        tokenId: "t1",
        position: "1",
        costBasis: "0.50",
        mark: "0.51",
        unrealisedPnl: "0.01",
        settled: null,
      },
    ]);
  });

  it("the total PnL adds the open positions' unrealised PnL to the net PnL; one without a mark is named, not counted", () => {
    const path = twoRunJournal();
    const db = openJournalDb(path);
    // A third run restores m1 (a restore row carries no mark: 0.51 stays its last) and buys 2 of a
    // token it journals no mark for (its book never had a mid).
    const w = new JournalWriter(db);
    const r3 = w.beginRun({ account: "a", session: "three", atMs: Date.UTC(2025, 5, 4, 8), tokens: [] });
    const carried = readRestore(db, "a", r3).accounts.get("t1");
    expect(carried).toBeDefined();
    if (carried !== undefined) w.account(r3, Date.UTC(2025, 5, 4, 8), "restore", "t1", carried, undefined);
    const inv = new Inventory();
    const f = fill({
      tradeId: "F",
      tokenId: "t9",
      priceMicro: 400_000,
      sizeMicro: 2_000_000n,
      tsMs: Date.UTC(2025, 5, 4, 9),
    });
    inv.applyFill(f);
    w.fill(r3, f, "stream");
    w.account(r3, f.tsMs, "fill", "t9", inv.account("t9"), undefined);
    const r = buildReport(db);
    db.close();
    expect(r.positions.map((p) => [p.tokenId, p.markMicro])).toEqual([
      ["t3", 350_000],
      ["t9", undefined],
      ["t1", 510_000],
    ]);
    expect(reportText(r, path)).toContain(
      [
        "total PnL: net PnL + unrealised PnL of the open positions at their last journaled mark",
        "net PnL (realised - fees)  0.11466667",
        "unrealised PnL             0.05150083  (1 open position without a mark: not counted)",
        "total PnL                   0.1661675",
      ].join("\n"),
    );
    const json = JSON.parse(reportJson(r, path)) as { total: Record<string, unknown> };
    expect(json.total).toMatchObject({
      netPnl: "0.11466667",
      unrealisedPnl: "0.05150083",
      totalPnl: "0.1661675",
      positionsWithoutMark: 1,
    });
  });

  it("names each position's account when the journal holds several (one outcome can be held by each)", () => {
    const path = twoRunJournal();
    const db = openJournalDb(path);
    const w = new JournalWriter(db);
    const other = w.beginRun({ account: "b", session: "other", atMs: Date.UTC(2025, 5, 4, 8), tokens: [] });
    const inv = new Inventory();
    const f = fill({
      tradeId: "G",
      priceMicro: 400_000,
      sizeMicro: 3_000_000n,
      tsMs: Date.UTC(2025, 5, 4, 9),
    });
    inv.applyFill(f);
    w.fill(other, f, "stream");
    w.account(other, f.tsMs, "fill", "t1", inv.account("t1"), 420_000);
    const r = buildReport(db);
    db.close();
    expect(r.positions.filter((p) => p.tokenId === "t1").map((p) => [p.account, p.sizeMicro])).toEqual([
      ["a", 1_000_000n],
      ["b", 3_000_000n],
    ]);
    const text = reportText(r, path);
    expect(text).toMatch(/unrealised PnL +account\n/);
    expect(text).toMatch(/ 3 +1\.20 +0\.42 +0\.06 +b\n/);
    const json = JSON.parse(reportJson(r, path)) as { positions: { account: string }[] };
    expect(json.positions.map((p) => p.account).sort()).toEqual(["a", "a", "b"]);
  });

  it("marks a position whose market the account's runs journaled settled (its mark is final)", () => {
    const path = twoRunJournal();
    const db = openJournalDb(path);
    const w = new JournalWriter(db);
    const r3 = w.beginRun({ account: "a", session: "three", atMs: Date.UTC(2025, 5, 4, 8), tokens: [] });
    w.settlement(r3, {
      atMs: Date.UTC(2025, 5, 4, 9),
      marketId: "m2",
      status: "RESOLVED",
      payouts: undefined,
    });
    // Another account's settlement of m1 says nothing of account a's position.
    const other = w.beginRun({ account: "b", session: "other", atMs: Date.UTC(2025, 5, 4, 8), tokens: [] });
    w.settlement(other, {
      atMs: Date.UTC(2025, 5, 4, 9),
      marketId: "m1",
      status: "VOIDED",
      payouts: undefined,
    });
    const r = buildReport(db);
    db.close();
    expect(r.positions.map((p) => [p.tokenId, p.settled])).toEqual([
      ["t3", "RESOLVED"],
      ["t1", undefined],
    ]);
    const text = reportText(r, path);
    expect(text).toMatch(/unrealised PnL +settled +account\n/);
    expect(text).toMatch(/0\.04150083 +RESOLVED +a\n/);
    const json = JSON.parse(reportJson(r, path)) as { positions: { settled: string | null }[] };
    expect(json.positions.map((p) => p.settled)).toEqual(["RESOLVED", null]);
  });

  it("--since: the total PnL says its net PnL is the period's and its unrealised PnL the positions' whole", () => {
    const path = twoRunJournal();
    const db = openJournalDb(path, { mustExist: true });
    const r = buildReport(db, { sinceMs: Date.UTC(2025, 5, 2) });
    db.close();
    expect(reportText(r, path)).toContain(
      [
        "total PnL: net PnL + unrealised PnL of the open positions at their last journaled mark",
        "  (net PnL since 2025-06-02T00:00:00.000Z; unrealised PnL since each position was opened, before that too)",
        "net PnL (realised - fees)  -0.12333333",
        "unrealised PnL              0.05150083",
        "total PnL                   -0.0718325",
      ].join("\n"),
    );
  });

  it("--since leaves out earlier days, and the CLI prints the same tables", async () => {
    const path = twoRunJournal();
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
    const path = `${twoRunJournal()}.absent`;
    expect(await reportCommand.run(["--journal", path], io)).toBe(2);
    expect(err.join("")).toBe(
      `mm report: no journal at ${path} (code journal_not_found)\n` +
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
