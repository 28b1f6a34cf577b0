import { describe, expect, it } from "vitest";
import type { TradeRecord } from "../../../src/exchange/types.js";
import { Harness } from "./support/harness.js";
import { positionsRefused } from "./support/reconcile-faults.js";

/*
 * review19-r2rec (questions): a reconcile failing for a lasting reason — GET /api/me/positions
 * answered 401 wallet_mismatch (the signer is not the wallet) — was retried every 2 s for ever, with
 * a warning each time (~1,800 an hour), and, its last success frozen, each retry paged the trade
 * history back to that success (up to 50 pages on the me_reads budget).
 */

const refused = positionsRefused;

/**
 * A trade history with one trade every 5 s back from now, newest first, one trade a page: a paging
 * back to an instant reads one page per 5 s before now. Its trades are no order of the bot's.
 */
function fiveSecondHistory(h: Harness, pages: number[]): void {
  h.exchange.trades = async (opts) => {
    const k = Number(opts.cursor ?? "0");
    if (k === 0) pages.push(0);
    pages[pages.length - 1] = (pages.at(-1) ?? 0) + 1;
    const at = h.clock.now() - k * 5_000;
    const trade: TradeRecord = {
      id: `t${at}`,
      orderId: "not-ours",
      marketId: "m-other",
      vaultAddress: "0x0",
      fee: null,
      side: "buy",
      price: "0.5",
      quantity: "1",
      createdAt: new Date(at).toISOString(),
    };
    return { trades: [trade], nextCursor: String(k + 1) };
  };
}

describe("a reconcile that keeps failing", () => {
  it("backs off to the periodic pace, warns once per kind of failure, and pages no further back at each retry", async () => {
    const h = new Harness(); // reconcile every 30 s, follow-ups 2 s
    h.crowdQuote(h.tokens()[0], "0.48", "0.52");
    const pages: number[] = [];
    fiveSecondHistory(h, pages);
    await h.engine.start();
    await h.run(1_000);
    const ok = h.exchange.positionsAt.bind(h.exchange);
    let failure: () => Error = refused;
    h.exchange.positionsAt = async () => {
      throw failure();
    };
    const logsFrom = h.logs.records().length;
    const pagesFrom = pages.length;
    await h.run(10 * 60_000);
    const failed = h.eventsOf("reconcile_failed");
    // Periodic at 31 s, then 2 + 4 + 8 + 16 s, then every 30 s: 23 runs, not 300.
    expect(failed.length).toBeGreaterThanOrEqual(20);
    expect(failed.length).toBeLessThanOrEqual(25);
    const lines = () => h.logs.records().slice(logsFrom);
    const failedLines = () => lines().filter((r) => r.msg === "reconcile failed");
    // Every failure is counted (mm_reconcile_runs_total{result="failed"}) and logged, one at warn.
    expect(failedLines()).toHaveLength(failed.length);
    expect(failedLines().filter((r) => r.level === 40)).toHaveLength(1);
    expect(failedLines()[0]).toMatchObject({ kind: "wallet_mismatch GET /api/me/positions", failures: 1 });
    // Each retry pages back to the previous failed run's start minus the 2 min lookback: at most
    // 30 s + 120 s of history (30 pages of 5 s, the newest and the one reaching past it), not back to
    // the last success (the page bound, 50, within 3 minutes of failures).
    const failingPages = pages.slice(pagesFrom);
    expect(Math.max(...failingPages)).toBeLessThanOrEqual(32);
    expect(lines().filter((r) => String(r.msg).startsWith("trade history: paging stopped"))).toEqual([]);

    // Another kind of failure is warned of once, and the first kind, back, is not warned of again.
    failure = () => new Error("socket hang up");
    await h.run(60_000);
    failure = refused;
    await h.run(60_000);
    expect(
      failedLines()
        .filter((r) => r.level === 40)
        .map((r) => r.kind),
    ).toEqual(["wallet_mismatch GET /api/me/positions", "Error"]);

    h.exchange.positionsAt = ok;
    await h.run(31_000);
    const back = lines().filter((r) => r.msg === "reconcile succeeded again");
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({ level: 30, failures: h.eventsOf("reconcile_failed").length });
    expect(Number(back[0]?.failingForMs)).toBeGreaterThan(10 * 60_000);

    // A new streak is warned of again, and retried 2 s after its first failure.
    failure = refused;
    h.exchange.positionsAt = async () => {
      throw failure();
    };
    const before = h.eventsOf("reconcile_failed").length;
    await h.run(32_500);
    const streak = h.eventsOf("reconcile_failed").slice(before);
    expect(streak.map((e) => e.atMs - (streak[0]?.atMs ?? 0))).toEqual([0, 2_000]);
    expect(failedLines().filter((r) => r.level === 40)).toHaveLength(3);
    await h.engine.stop("test", 5_000);
  });
});
