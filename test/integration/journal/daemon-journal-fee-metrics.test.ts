import { describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../../src/app/daemon.js";
import { observed } from "../../../src/app/observed.js";
import { toWei } from "../../../src/core/wei.js";
import { parseExposition, sumOf } from "../../unit/observability/exposition.js";
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

/**
 * README (Metrics): realised − fees + unrealised adds up to `mm_pnl_total_usdc`. After a restart the
 * engine's accounts carry the earlier run's realised PnL and fees (the journal's restore), and the
 * total counts both; `mm_fill_fees_usdc_total` counts the fees this process booked only, so the sum
 * missed the earlier run's fees by exactly their amount. `mm_pnl_fees_usdc` is the accounts' fees, as
 * realised is the accounts' realised; the counter stays this process's (rate() and increase() over a
 * restart see an ordinary counter reset).
 */
describe("PnL metrics after a restart that carried an earlier run's fees", () => {
  it("realised − fees + unrealised on /metrics adds up to the total; the fee counter is this process's", async () => {
    slots.mock = await startMock();
    const m = slots.mock;
    seedMarket(m, ARG, "0.30", "0.70");
    const journal = journalIn(slots, "mm-journal-fee-metrics-");
    const config = daemonConfig(m, [ARG.slug]);
    slots.daemon = await startDaemon(config, { logger: memoryLogger("warn").logger, journal });
    const d1 = slots.daemon;
    await settledQuotes(m, YES, 4);
    // The wallet buys 10 YES from the crowd's ask as a taker: its share fee settles 2 s later.
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
    await waitFor(() => d1.engine.positionOf(YES) === 10_000_000n, 3_000, "the taker fill");
    await new Promise((r) => setTimeout(r, SCENARIO.timing.settlementDelayMs + 100));
    await d1.engine.reconcileNow();
    const feesPico = d1.engine.account(YES).feesPico;
    expect(feesPico).toBeGreaterThan(0n);
    expect((await d1.stop("restart")).exitCode).toBe(0);
    slots.daemon = undefined;

    const d2: Daemon & { observability: { url: string } } = await observed(
      config,
      memoryLogger("warn").logger,
      false,
      (metrics) => startDaemon(config, { logger: memoryLogger("warn").logger, journal, metrics }),
    );
    slots.daemon = d2;
    expect(d2.engine.account(YES).feesPico).toBe(feesPico); // restored
    // Once the restored position has its first mark (the book's mid), the engine's total is settled.
    const until = Date.now() + 5_000;
    while ((await fetch(`${d2.observability.url}/ready`)).status !== 200) {
      expect(Date.now()).toBeLessThan(until);
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 300));
    const f = parseExposition(await (await fetch(`${d2.observability.url}/metrics`)).text());
    const total = sumOf(f, "mm_pnl_total_usdc");
    const fees = Number(feesPico) / 1e12;
    expect(total).toBeLessThan(0); // bought at the ask, marked at the mid, minus the fee
    expect(sumOf(f, "mm_pnl_fees_usdc")).toBeCloseTo(fees, 9);
    expect(sumOf(f, "mm_pnl_fees_usdc", { market: ARG.slug })).toBeCloseTo(fees, 9);
    const realised = sumOf(f, "mm_pnl_realised_usdc");
    const unrealised = sumOf(f, "mm_pnl_unrealised_usdc");
    expect(realised - sumOf(f, "mm_pnl_fees_usdc") + unrealised).toBeCloseTo(total, 6);
    // The counter: fees this process booked (none), never a restored figure.
    expect(sumOf(f, "mm_fill_fees_usdc_total")).toBe(0);
  }, 20_000);
});
