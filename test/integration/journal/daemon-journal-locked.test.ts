import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { toWei } from "../../../src/core/wei.js";
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
const SHUTDOWN_MS = 3_000;

let other: BetterSqlite3.Database | undefined;
// The other connection's lock goes first: the daemon's stop must not wait on it.
const slots = journalDaemonSlots(() => {
  if (other?.inTransaction === true) other.exec("ROLLBACK");
  other?.close();
  other = undefined;
});

describe("a daemon whose journal file another process holds a write lock on", () => {
  it("keeps trading and stops within its shutdown budget; the lock is logged with the path", async () => {
    slots.mock = await startMock();
    const m = slots.mock;
    seedMarket(m, ARG, "0.30", "0.70");
    const settings = journalIn(slots, "mm-journal-lock-");
    const { logger, sink } = memoryLogger("info");
    slots.daemon = await startDaemon(
      daemonConfig(m, [ARG.slug], { MM_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_MS) }),
      {
        logger,
        journal: settings,
      },
    );
    const d = slots.daemon;
    await settledQuotes(m, YES, 4);

    // e.g. an operator's `sqlite3` shell with an open write transaction on the live journal.
    other = new BetterSqlite3(settings.path);
    other.exec("BEGIN IMMEDIATE");

    // A fill, then requotes: a dozen journaled events, each of which waited 5 s before the fix.
    const before = new Set(openOnMock(m, YES).map((o) => o.orderId));
    const taken = m.context.venue.place({
      wallet: OTHER,
      marketId: ARG.id,
      outcome: "YES",
      side: "sell",
      price: toWei("0.31"),
      quantity: toWei("10"),
      timeInForce: "ioc",
    });
    expect(taken.status).not.toBe("REJECTED");
    await waitFor(() => d.engine.positionOf(YES) === 10_000_000n, 3_000, "the fill");
    await waitFor(
      () => openOnMock(m, YES).some((o) => !before.has(o.orderId)),
      3_000,
      "a requote while the journal is locked",
    );

    const started = Date.now();
    const outcome = await d.stop("SIGTERM");
    const tookMs = Date.now() - started;
    slots.daemon = undefined;
    expect(outcome.exitCode).toBe(0);
    expect(tookMs).toBeLessThan(SHUTDOWN_MS);
    expect(m.context.venue.openOrders(WALLET)).toEqual([]);
    const locked = sink
      .records()
      .filter(
        (r) => typeof r.msg === "string" && r.msg.startsWith("journal file locked by another connection"),
      );
    expect(locked.map((r) => r.journal)).toEqual([settings.path]);
    expect(
      sink
        .records()
        .some((r) => r.msg === "journal write failed: trading goes on, but this history is not on disk"),
    ).toBe(true);
  }, 20_000);
});
