import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { rearmOnSignal } from "../../../src/app/rearm-signal.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { openJournalDb } from "../../../src/journal/open.js";
import {
  daemonConfig,
  market,
  memoryLogger,
  quotesOn,
  seedMarket,
  startMock,
  waitFor,
  walletBuys,
} from "../daemon/support.js";
import { journalDaemonSlots, journalIn } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const YES = ARG.yesTokenId;
const slots = journalDaemonSlots();

const stopDrawdown = (path: string): bigint | null => {
  const db = openJournalDb(path, { mustExist: true });
  try {
    const row = db
      .prepare("SELECT drawdown_micro FROM pnl WHERE reason = 'stop' ORDER BY id DESC LIMIT 1")
      .get() as {
      drawdown_micro: bigint | null;
    };
    return row.drawdown_micro;
  } finally {
    db.close();
  }
};

describe("an armed kill switch's drawdown survives a restart (journal)", () => {
  it("run 2 starts with run 1's drawdown used, says so, and SIGUSR2 re-bases it to 0 (journaled)", async () => {
    slots.mock = await startMock();
    const m = slots.mock;
    seedMarket(m, ARG, "0.30", "0.70");
    const settings = journalIn(slots, "mm-journal-carry-");
    const run = (logger = memoryLogger("warn").logger, events: EngineEvent[] = []) =>
      startDaemon(
        daemonConfig(m, [ARG.slug], { MM_RISK: JSON.stringify({ killSwitch: { maxDrawdown: "3" } }) }),
        {
          logger,
          journal: settings,
          listener: (e) => events.push(e),
        },
      );

    // Run 1: quoting (PnL 0 observed), then the wallet's own taker buy of 10 YES at 0.70, marked at
    // the mid 0.50: 2 USDC below the peak, within the 3 USDC limit.
    slots.daemon = await run();
    const d1 = slots.daemon;
    await waitFor(() => quotesOn(m, YES).length > 0, 5_000, "run 1 quoting");
    walletBuys(m, ARG, "0.70", "10");
    await waitFor(() => d1.engine.status().drawdownMicro >= 2_000_000n, 3_000, "the drawdown of the buy");
    expect(d1.engine.status().killSwitch).toBe(false);
    expect((await d1.stop("restart")).exitCode).toBe(0);
    slots.daemon = undefined;
    const carried = stopDrawdown(settings.path);
    expect(carried).toBeGreaterThanOrEqual(2_000_000n);
    expect(carried).toBeLessThanOrEqual(3_000_000n);

    // Run 2: starts with it used, and says so at warn.
    const log2 = memoryLogger("info");
    const ev2: EngineEvent[] = [];
    slots.daemon = await run(log2.logger, ev2);
    const d2 = slots.daemon;
    expect(d2.engine.status().drawdownMicro).toBe(carried);
    const warn = log2.sink.records().find((r) => String(r.msg).startsWith("kill switch: "));
    expect(warn).toMatchObject({ level: 40, fromRun: 1 });
    expect(String(warn?.msg)).toContain(`re-base it to 0 with kill -USR2 ${process.pid}`);
    await waitFor(() => ev2.some((e) => e.type === "started"), 3_000, "run 2 started");
    await waitFor(() => quotesOn(m, YES).length > 0, 5_000, "run 2 quoting");
    expect(d2.engine.status().drawdownMicro).toBe(carried); // same marks: the carried peak holds

    // The operator re-bases it: the journal's re-arm row ends the carry for run 3.
    rearmOnSignal(log2.logger).started(d2);
    process.emit("SIGUSR2", "SIGUSR2");
    expect(d2.engine.status().drawdownMicro).toBe(0n);
    expect(ev2.filter((e) => e.type === "kill_switch")).toMatchObject([
      { action: "rearm", drawdownMicro: 0n },
    ]);
    expect((await d2.stop("restart")).exitCode).toBe(0);
    slots.daemon = undefined;
    expect(stopDrawdown(settings.path)).toBe(0n);

    const log3 = memoryLogger("info");
    slots.daemon = await run(log3.logger);
    expect(slots.daemon.engine.status().drawdownMicro).toBe(0n);
    expect(log3.sink.records().some((r) => String(r.msg).startsWith("kill switch: "))).toBe(false);
  }, 30_000);
});
