import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { takerFeeWei } from "../../../src/core/fees.js";
import { toWei } from "../../../src/core/wei.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { openJournalDb } from "../../../src/journal/open.js";
import {
  daemonConfig,
  market,
  memoryLogger,
  SCENARIO,
  seedMarket,
  settledQuotes,
  startMock,
  WALLET,
  waitFor,
} from "../daemon/support.js";
import { journalDaemonSlots, journalIn } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win"); // feeTakerBps 200
const YES = ARG.yesTokenId;

const slots = journalDaemonSlots();

const rows = (path: string, sql: string): unknown[] => {
  const db = openJournalDb(path, { mustExist: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
};

describe("a restart right after a taker fill, before its fee settled", () => {
  it("the next run counts the fee once it settles, keeps the exchange's position, and journals it", async () => {
    slots.mock = await startMock();
    const m = slots.mock;
    seedMarket(m, ARG, "0.30", "0.70");
    const settings = journalIn(slots, "mm-journal-fee-");
    const run = (events: EngineEvent[] = []) =>
      startDaemon(daemonConfig(m, [ARG.slug]), {
        logger: memoryLogger("warn").logger,
        journal: settings,
        listener: (e) => events.push(e),
      });
    slots.daemon = await run();
    const d1 = slots.daemon;
    await settledQuotes(m, YES, 4);

    // The wallet buys 10 YES from the crowd's ask as a taker (e.g. by hand, alongside the bot): the
    // mock credits 10 shares less its share fee now, and shows the fee on the trade record 2 s later.
    const placed = m.context.venue.place({
      wallet: WALLET,
      marketId: ARG.id,
      outcome: "YES",
      side: "buy",
      price: toWei("0.70"),
      quantity: toWei("10"),
      timeInForce: "ioc",
    });
    expect(placed.status).toBe("FILLED");
    const boughtAt = Date.now();
    await waitFor(() => d1.engine.positionOf(YES) === 10_000_000n, 3_000, "the taker fill");
    expect((await d1.stop("restart")).exitCode).toBe(0); // before the fee settled
    slots.daemon = undefined;
    expect(Date.now() - boughtAt).toBeLessThan(SCENARIO.timing.settlementDelayMs);
    expect(rows(settings.path, "SELECT trade_id FROM fills")).toHaveLength(1);
    expect(rows(settings.path, "SELECT trade_id FROM fees")).toEqual([]);

    // The next run starts once the trade has settled: its start-up reconcile finds the fee.
    await new Promise((r) =>
      setTimeout(r, SCENARIO.timing.settlementDelayMs - (Date.now() - boughtAt) + 100),
    );
    const events: EngineEvent[] = [];
    slots.daemon = await run(events);
    const d2 = slots.daemon;
    const fee = takerFeeWei("buy", 200, toWei("0.70"), toWei("10"));
    expect(fee).toBeGreaterThan(0n);
    await waitFor(() => events.some((e) => e.type === "reconcile"), 3_000, "the start-up reconcile");
    expect(d2.engine.account(YES)).toMatchObject({
      sizeMicro: 10_000_000n - fee,
      feeSharesMicro: fee,
      feesPico: 700_000n * fee,
    });
    // The mock's position already lacked the fee's shares at the baseline: nothing drifts.
    await d2.engine.reconcileNow();
    const checks = events.flatMap((e) => (e.type === "reconcile" ? [e.summary] : []));
    expect(checks.flatMap((s) => s.drifts)).toEqual([]);
    expect(events.filter((e) => e.type === "fill")).toEqual([]);
    expect((await d2.stop("test over")).exitCode).toBe(0);
    slots.daemon = undefined;
    expect(rows(settings.path, "SELECT asset, amount_micro FROM fees")).toEqual([
      { asset: "shares", amount_micro: fee },
    ]);
  }, 20_000);
});
