import { describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../../src/app/daemon.js";
import type { JournalSettings } from "../../../src/app/journal-settings.js";
import { reportCommand } from "../../../src/cli/report.js";
import { toWei } from "../../../src/core/wei.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { usdc } from "../../../src/journal/report-format.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import {
  daemonConfig,
  market,
  memoryLogger,
  OTHER,
  openOnMock,
  seedMarket,
  settledQuotes,
  startMock,
  WALLET,
  waitFor,
} from "../daemon/support.js";
import { journalDaemonSlots, journalIn } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const YES = ARG.yesTokenId;

const slots = journalDaemonSlots();

/** The other trader takes `qty` YES shares from our best quote on `side` (IOC, limit inside the crowd's). */
function take(m: MockExchange, side: "buy" | "sell", qty: string): void {
  const r = m.context.venue.place({
    wallet: OTHER,
    marketId: ARG.id,
    outcome: "YES",
    side,
    price: toWei(side === "buy" ? "0.69" : "0.31"),
    quantity: toWei(qty),
    timeInForce: "ioc",
  });
  if (r.status === "REJECTED") throw new Error(`take refused: ${r.code ?? ""}`);
}

/** Our fills on the mock (its own record), oldest first. */
function mockFills(m: MockExchange) {
  const rows = m.context.venue.walletTrades(WALLET, { limit: 100 }).items;
  return (
    [...rows]
      // In the order they happened (trade ids are not time-ordered within a millisecond).
      .sort((a, b) => a.createdAt - b.createdAt || a.tradeId.localeCompare(b.tradeId))
      .map((r) => ({ tradeId: r.tradeId, side: r.side, price: r.price, quantity: r.quantity }))
  );
}

async function run(settings: JournalSettings, events: EngineEvent[] = []): Promise<Daemon> {
  if (slots.mock === undefined) throw new Error("no mock");
  return startDaemon(daemonConfig(slots.mock, [ARG.slug]), {
    logger: memoryLogger("warn").logger,
    journal: settings,
    listener: (e) => events.push(e),
  });
}

describe("the journal of a daemon trading against the mock exchange", () => {
  it("journals intents, outcomes and fills; a restart restores PnL; mm report adds it up", async () => {
    slots.mock = await startMock();
    const m = slots.mock;
    seedMarket(m, ARG, "0.30", "0.70"); // a wide crowd: our quotes rest inside it, around 0.50
    const settings = journalIn(slots, "mm-journal-it-");
    slots.daemon = await run(settings);
    const d1 = slots.daemon;
    await settledQuotes(m, YES, 4);
    take(m, "sell", "10"); // our best bid (10 shares) is bought
    await waitFor(() => d1.engine.positionOf(YES) === 10_000_000n, 3_000, "the buy fill");
    await settledQuotes(m, YES, 4);
    take(m, "buy", "4"); // 4 of our best ask (10 shares) are sold
    await waitFor(() => d1.engine.positionOf(YES) === 6_000_000n, 3_000, "the sell fill");
    await d1.engine.reconcileNow(); // the backfill sees both trades again: no new fill rows

    // Every placement the mock holds is journaled: its intent, and its acceptance with the mock's id.
    const db = openJournalDb(settings.path, { mustExist: true });
    const accepted = new Map(
      (
        db
          .prepare(
            "SELECT order_id, client_order_id FROM outcomes WHERE op = 'place' AND outcome = 'accepted'",
          )
          .all() as { order_id: string; client_order_id: string }[]
      ).map((r) => [r.order_id, r.client_order_id]),
    );
    const intents = new Set(
      (
        db.prepare("SELECT client_order_id FROM intents WHERE sent = 1").all() as {
          client_order_id: string;
        }[]
      ).map((r) => r.client_order_id),
    );
    const resting = m.context.venue.openOrders(WALLET);
    expect(resting.length).toBeGreaterThanOrEqual(8);
    for (const o of resting) {
      expect(accepted.get(o.id)).toBe(o.clientOrderId);
      expect(intents.has(o.clientOrderId ?? "")).toBe(true);
    }
    // The fills are the mock's, once each.
    const fills = mockFills(m);
    expect(fills.map((f) => f.side)).toEqual(["buy", "sell"]);
    const rows = db
      .prepare("SELECT trade_id, side, price_micro, size_micro FROM fills ORDER BY id")
      .all() as { trade_id: string; side: string; price_micro: bigint; size_micro: bigint }[];
    expect(rows).toEqual(
      fills.map((f) => ({ trade_id: f.tradeId, side: f.side, price_micro: f.price, size_micro: f.quantity })),
    );
    db.close();

    const [buy, sell] = fills;
    if (buy === undefined || sell === undefined) throw new Error("two fills expected");
    // By hand: bought 10 at p1, sold 4 at p2 → realised 4 × (p2 − p1), 6 left at p1; makers pay no fee.
    const realisedPico = 4_000_000n * (sell.price - buy.price);
    const costPico = 6_000_000n * buy.price;
    expect(slots.daemon.engine.account(YES)).toMatchObject({ sizeMicro: 6_000_000n, realisedPico, costPico });
    expect((await slots.daemon.stop("restart")).exitCode).toBe(0);
    slots.daemon = undefined;

    // The restart: a new session of the same wallet on the same exchange starts from the journal.
    const events: EngineEvent[] = [];
    slots.daemon = await run(settings, events);
    const d2 = slots.daemon;
    expect(d2.journal?.restore.runs).toBe(1);
    expect(d2.engine.positionOf(YES)).toBe(6_000_000n);
    expect(d2.engine.account(YES)).toMatchObject({ sizeMicro: 6_000_000n, realisedPico, costPico });
    await settledQuotes(m, YES, 4);
    // Total PnL = the restored realised PnL + the 6 shares marked at the mid (no fees as a maker).
    const mark = d2.engine.accounts().find((a) => a.tokenId === YES)?.markMicro;
    if (mark === undefined) throw new Error("no mark");
    expect(d2.engine.status().pnlMicro).toBe(
      (realisedPico + 6_000_000n * BigInt(mark) - costPico) / 1_000_000n,
    );
    const checks = events.flatMap((e) => (e.type === "reconcile" ? [e.summary] : []));
    expect(checks.length).toBeGreaterThanOrEqual(1);
    expect(checks.every((s) => s.drifts.length === 0)).toBe(true); // baseline + restored = the mock's position
    expect((await d2.stop("test over")).exitCode).toBe(0);
    slots.daemon = undefined;
    expect(openOnMock(m)).toEqual([]);

    // mm report, against the hand-computed figures. The fees settle after the fills (the mock's
    // settlementDelayMs): those no reconcile read before the stops are fee rows still missing, which
    // the report counts.
    const jdb = openJournalDb(settings.path, { mustExist: true });
    const feeless = jdb
      .prepare(
        "SELECT count(*) AS n FROM fills f WHERE NOT EXISTS (SELECT 1 FROM fees e WHERE e.trade_id = f.trade_id AND e.order_id = f.order_id)",
      )
      .get() as { n: bigint | number };
    jdb.close();
    const out: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t), env: {}, cwd: "/" };
    expect(await reportCommand.run(["--journal", settings.path, "--json"], io)).toBe(0);
    const report = JSON.parse(out.join("")) as {
      runs: number;
      markets: Record<string, unknown>[];
      positions: unknown[];
    };
    expect(report.runs).toBe(2);
    expect(report.markets).toEqual([
      {
        market: ARG.slug,
        marketId: ARG.id,
        fills: 2,
        volume: "14",
        notional: usdc(10_000_000n * buy.price + 4_000_000n * sell.price),
        realisedPnl: usdc(realisedPico),
        fees: "0.00",
        netPnl: usdc(realisedPico),
        fillsWithoutFee: Number(feeless.n),
      },
    ]);
    expect(report.positions).toMatchObject([
      { market: ARG.slug, outcome: "YES", position: "6", costBasis: usdc(costPico) },
    ]);
  }, 30_000);
});
