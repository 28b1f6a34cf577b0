import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { rearmOnSignal } from "../../../src/app/rearm-signal.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { openJournalDb } from "../../../src/journal/open.js";
import type { CollectingStream } from "../../support/collecting-stream.js";
import {
  daemonConfig,
  market,
  memoryLogger,
  quotesOn,
  rest,
  seedMarket,
  startMock,
  waitFor,
  walletBuys,
} from "../daemon/support.js";
import { journalDaemonSlots, journalIn } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const YES = ARG.yesTokenId;
const NO = ARG.noTokenId;

const slots = journalDaemonSlots();

const STILL_TRIPPED = "kill switch tripped in an earlier run";

const killRows = (path: string): unknown[] => {
  const db = openJournalDb(path, { mustExist: true });
  try {
    return db.prepare("SELECT run_id, action FROM kill_switch ORDER BY id").all();
  } finally {
    db.close();
  }
};

const ours = () =>
  slots.mock === undefined ? [] : [...quotesOn(slots.mock, YES), ...quotesOn(slots.mock, NO)];

describe("a tripped kill switch survives a restart (journal)", () => {
  it("the next run starts tripped and quotes nothing until SIGUSR2 re-arms it; the re-arm is journaled", async () => {
    slots.mock = await startMock();
    const m = slots.mock;
    seedMarket(m, ARG, "0.30", "0.70");
    const settings = journalIn(slots, "mm-journal-kill-");
    const run = (events: EngineEvent[], sink?: { logger: ReturnType<typeof memoryLogger>["logger"] }) =>
      startDaemon(
        daemonConfig(m, [ARG.slug], { MM_RISK: JSON.stringify({ killSwitch: { maxDrawdown: "1" } }) }),
        {
          logger: sink?.logger ?? memoryLogger("warn").logger,
          journal: settings,
          listener: (e) => events.push(e),
        },
      );

    // Run 1: long 10 YES at 0.70 (the wallet's own taker buy), then the crowd's ask drops to 0.31
    // (sweeping our bids): marked at the mid 0.305, the drawdown passes 1 USDC and the switch trips.
    const ev1: EngineEvent[] = [];
    slots.daemon = await run(ev1);
    const d1 = slots.daemon;
    await waitFor(() => quotesOn(m, YES).length > 0, 5_000, "run 1 quoting");
    walletBuys(m, ARG, "0.70", "10");
    await waitFor(() => d1.engine.positionOf(YES) >= 10_000_000n, 3_000, "the taker fill");
    rest(m, ARG, "sell", "0.31", "200", "YES");
    await waitFor(() => d1.engine.status().killSwitch, 3_000, "the kill switch's trip");
    await waitFor(() => ours().length === 0, 3_000, "every quote cancelled");
    expect((await d1.stop("restart")).exitCode).toBe(0);
    slots.daemon = undefined;
    expect(killRows(settings.path)).toEqual([{ run_id: 1n, action: "trip" }]);

    // Run 2: still tripped, said at warn; nothing is placed while the books arrive and the engine runs.
    const ev2: EngineEvent[] = [];
    const log2 = memoryLogger("info");
    slots.daemon = await run(ev2, log2);
    const d2 = slots.daemon;
    const warn = log2.sink.records().find((r) => String(r.msg).startsWith(STILL_TRIPPED));
    expect(warn).toMatchObject({ level: 40 });
    expect(String(warn?.msg)).toMatch(
      new RegExp(
        `^${STILL_TRIPPED} \\(at .+, drawdown \\d+\\.?\\d* USDC\\): still tripped; re-arm with kill -USR2 ${process.pid}$`,
      ),
    );
    expect(d2.engine.status().killSwitch).toBe(true);
    await waitFor(() => ev2.some((e) => e.type === "started"), 3_000, "run 2 started");
    await new Promise((r) => setTimeout(r, 600));
    expect(ev2.filter((e) => e.type === "place_sent")).toEqual([]);
    expect(ours()).toEqual([]);

    // The operator re-arms it (kill -USR2 <pid>): quoting resumes, and the re-arm is journaled.
    rearmOnSignal(log2.logger).started(d2);
    process.emit("SIGUSR2", "SIGUSR2");
    expect(d2.engine.status().killSwitch).toBe(false);
    await waitFor(() => ours().length > 0, 5_000, "run 2 quoting after the re-arm");
    expect(killRows(settings.path)).toEqual([
      { run_id: 1n, action: "trip" },
      { run_id: 2n, action: "rearm" },
    ]);
    expect((await d2.stop("restart")).exitCode).toBe(0);
    slots.daemon = undefined;

    // Run 3: re-armed before the restart, so it quotes at once and says nothing of a trip.
    const log3 = memoryLogger("info");
    slots.daemon = await run([], log3);
    const d3 = slots.daemon;
    expect(d3.engine.status().killSwitch).toBe(false);
    await waitFor(() => ours().length > 0, 5_000, "run 3 quoting");
    expect(logHas(log3.sink, STILL_TRIPPED)).toBe(false);
  }, 30_000);
});

function logHas(sink: CollectingStream, text: string): boolean {
  return sink.records().some((r) => String(r.msg).startsWith(text));
}
