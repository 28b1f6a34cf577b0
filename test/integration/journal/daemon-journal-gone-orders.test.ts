import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import type { JournalSettings } from "../../../src/app/journal-settings.js";
import { clientOrderId } from "../../../src/core/ids.js";
import { toWei } from "../../../src/core/wei.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { buildReport } from "../../../src/journal/report.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import {
  daemonConfig,
  market,
  memoryLogger,
  OTHER,
  SCENARIO,
  seedMarket,
  settledQuotes,
  startMock,
  WALLET,
  waitFor,
} from "../daemon/support.js";
import { journalDaemonSlots } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const YES = ARG.yesTokenId;

const slots = journalDaemonSlots();

const settingsOf = (path: string): JournalSettings => ({ path, snapshotIntervalMs: 60_000, sync: "normal" });

/** Reads the journal at `path` with a connection of its own. */
function withDb<T>(path: string, fn: (db: ReturnType<typeof openJournalDb>) => T): T {
  const db = openJournalDb(path, { mustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The wallet's YES shares on the mock, micro-shares. */
function heldYes(m: MockExchange): bigint {
  return m.context.venue.positions(WALLET).find((p) => p.tokenId === YES)?.balance ?? 0n;
}

/** The position mm report gives for YES, micro-shares (0 when flat or absent). */
function reportedYes(path: string): bigint {
  return withDb(path, (db) => buildReport(db)).positions.find((p) => p.tokenId === YES)?.sizeMicro ?? 0n;
}

/** A resting order of our wallet, straight in the venue (as a killed run would have left one). */
function restOurs(m: MockExchange, cid: string, price: string, expiry = 0): { orderId: string; cid: string } {
  const r = m.context.venue.place({
    wallet: WALLET,
    marketId: ARG.id,
    outcome: "YES",
    side: "buy",
    price: toWei(price),
    quantity: toWei("5"),
    clientOrderId: cid,
    expiry,
  });
  if (r.status === "REJECTED") throw new Error(`venue refused: ${r.code ?? ""}`);
  return { orderId: r.orderId, cid };
}

describe("orders a killed run left that the next start finds gone from the exchange", () => {
  it("are journaled closed with the exchange's status, never offered again, and a fill made while down is counted once", async () => {
    slots.mock = await startMock();
    const m = slots.mock;
    seedMarket(m, ARG, "0.30", "0.70"); // a wide crowd: our quotes rest inside it
    slots.dir = mkdtempSync(join(tmpdir(), "mm-journal-gone-"));
    const live = join(slots.dir, "journal.sqlite");
    const killed = join(slots.dir, "killed.sqlite");
    const run = (path: string) =>
      startDaemon(daemonConfig(m, [ARG.slug]), {
        logger: memoryLogger("warn").logger,
        journal: settingsOf(path),
      });

    const held0 = heldYes(m);
    // Run 1 quotes, sells 4 shares (a journaled fill), and is "killed": every journal write commits as
    // it happens, so a copy of the file taken now is exactly what a SIGKILL here would leave.
    slots.daemon = await run(live);
    const d1 = slots.daemon;
    await settledQuotes(m, YES, 4);
    const bestAsk = m.context.venue
      .openOrders(WALLET)
      .filter((o) => o.tokenId === YES && o.side === "sell")
      .sort((a, b) => Number(a.price - b.price))[0];
    if (bestAsk === undefined) throw new Error("no ask of ours");
    const taken = m.context.venue.place({
      wallet: OTHER,
      marketId: ARG.id,
      outcome: "YES",
      side: "buy",
      price: bestAsk.price,
      quantity: toWei("4"),
      timeInForce: "ioc",
    });
    expect(taken.status).toBe("FILLED");
    await waitFor(() => d1.engine.positionOf(YES) === -4_000_000n, 3_000, "the sell fill");
    await settledQuotes(m, YES, 4);
    withDb(live, (db) => db.exec(`VACUUM INTO '${killed}'`));
    const { account, runId } = withDb(killed, (db) => {
      const r = db.prepare("SELECT account, run_id FROM runs").get() as { account: string; run_id: bigint };
      return { account: r.account, runId: Number(r.run_id) };
    });
    const left = withDb(killed, (db) => readRestore(db, account, runId + 1).orders);
    expect(left.size).toBeGreaterThanOrEqual(4);
    const reportBefore = withDb(killed, (db) => buildReport(db));
    expect(reportBefore.total.fills).toBe(1);

    // While the bot is down: one of the orders it left is filled, the rest are cancelled (run 1's
    // own stop stands in for the exchange cancelling them).
    const bestBid = [...left.keys()]
      .map((id) => m.context.venue.order(WALLET, id))
      .filter((o) => o !== undefined && o.status === "OPEN" && o.tokenId === YES && o.side === "buy")
      .sort((a, b) => Number((b?.price ?? 0n) - (a?.price ?? 0n)))[0];
    if (bestBid === undefined) throw new Error("no bid of run 1 still resting");
    const hit = m.context.venue.place({
      wallet: OTHER,
      marketId: ARG.id,
      outcome: "YES",
      side: "sell",
      price: bestBid.price,
      quantity: bestBid.remainingQty,
      timeInForce: "ioc",
    });
    expect(hit.status).toBe("FILLED");
    expect(m.context.venue.order(WALLET, bestBid.id)?.status).toBe("FILLED");
    // …and the next of its bids is filled in part: that order stays restorable after the next run
    // journals the fill, so a later start must know the fill as journaled.
    const nextBid = [...left.keys()]
      .map((id) => m.context.venue.order(WALLET, id))
      .filter((o) => o !== undefined && o.status === "OPEN" && o.tokenId === YES && o.side === "buy")
      .sort((a, b) => Number((b?.price ?? 0n) - (a?.price ?? 0n)))[0];
    if (nextBid === undefined) throw new Error("no second bid of run 1 still resting");
    const part = m.context.venue.place({
      wallet: OTHER,
      marketId: ARG.id,
      outcome: "YES",
      side: "sell",
      price: nextBid.price,
      quantity: toWei("2"),
      timeInForce: "ioc",
    });
    expect(part.status).toBe("FILLED");
    const downAtMs = Date.now();
    const downQty = bestBid.remainingQty + toWei("2");
    // Short 4 at the ask, then (oldest first) 5 bought at the best bid, 2 at the next: 4 covered.
    const downRealised = toWei("4") * (bestAsk.price - bestBid.price);
    expect((await d1.stop("stand-in for the crash")).exitCode).toBe(0);
    slots.daemon = undefined;

    // Two more placements of the killed run: one still resting when the next run starts (its start-up
    // cancel-all ends it), one that expires while the bot is down.
    const session = "dead01";
    const cid = (seq: number) => clientOrderId({ session, tokenId: YES, side: "buy", level: 3, seq });
    const resting = restOurs(m, cid(1), "0.35");
    const expiring = restOurs(m, cid(2), "0.34", Math.floor(Date.now() / 1000) + 1);
    withDb(killed, (db) => {
      const w = new JournalWriter(db);
      for (const o of [resting, expiring]) {
        const terms = { tokenId: YES, marketId: ARG.id, side: "buy" as const, level: 3 };
        w.intent(runId, {
          clientOrderId: o.cid,
          ...terms,
          priceMicro: 350_000,
          sizeMicro: 5_000_000n,
          sent: true,
          atMs: 1,
        });
        w.outcome(runId, {
          op: "place",
          clientOrderId: o.cid,
          marketId: ARG.id,
          outcome: "accepted",
          orderId: o.orderId,
          code: undefined,
          latencyMs: 5,
          atMs: 1,
        });
      }
    });
    await waitFor(
      () => m.context.venue.order(WALLET, expiring.orderId)?.status === "EXPIRED",
      3_000,
      "the expiry",
    );
    expect(m.context.venue.order(WALLET, resting.orderId)?.status).toBe("OPEN");
    // The down-time fills' fees settle (the mock's settlementDelayMs) before run 2 starts, so run 2
    // journals them with their fee: a later start knows them as journaled fills, not fee-pending ones.
    const settled = downAtMs + SCENARIO.timing.settlementDelayMs + 100;
    await new Promise((r) => setTimeout(r, Math.max(0, settled - Date.now())));
    const offered = new Map([...left, [resting.orderId, resting.cid], [expiring.orderId, expiring.cid]]);

    // Run 2 restores every one of them; once started (its start-up cancel-all ended the one still
    // resting), none is open any more: each is journaled closed with the exchange's status.
    slots.daemon = await run(killed);
    const d2 = slots.daemon;
    expect(d2.journal?.restore.orders).toEqual(offered);
    expect(await d2.journal?.goneClosed).toBe(offered.size);
    await settledQuotes(m, YES, 4);
    // The fill made while the bot was down is applied once, at start: the engine's position is the
    // wallet's change since run 1 started, and mm report has the fill, its cash and the position.
    expect(d2.engine.positionOf(YES)).toBe(-4_000_000n + downQty);
    expect(d2.engine.positionOf(YES)).toBe(heldYes(m) - held0);
    const reportDown = withDb(killed, (db) => buildReport(db));
    expect(reportDown.total.fills).toBe(3);
    expect(reportDown.total.realisedPico - reportBefore.total.realisedPico).toBe(downRealised);
    expect(reportDown.total.volumeMicro).toBe(reportBefore.total.volumeMicro + downQty);
    expect(reportedYes(killed)).toBe(heldYes(m) - held0);
    // What a SIGKILL of run 2 right now would leave, had its check of the gone orders not committed:
    // the next start restores them again, and must not count the down-time fill a second time.
    const killed2 = join(slots.dir, "killed2.sqlite");
    withDb(killed, (db) => db.exec(`VACUUM INTO '${killed2}'`));
    withDb(killed2, (db) => db.exec("DELETE FROM outcomes WHERE outcome = 'closed'"));
    expect((await d2.stop("restart")).exitCode).toBe(0);
    slots.daemon = undefined;
    slots.daemon = await run(killed2);
    const d2b = slots.daemon;
    expect(d2b.journal?.restore.orders.size).toBeGreaterThanOrEqual(offered.size);
    await d2b.journal?.goneClosed;
    await settledQuotes(m, YES, 4);
    expect(d2b.engine.positionOf(YES)).toBe(heldYes(m) - held0);
    expect((await d2b.stop("test over")).exitCode).toBe(0);
    slots.daemon = undefined;
    const reportKilled2 = withDb(killed2, (db) => buildReport(db));
    expect(reportKilled2.total).toEqual(reportDown.total);
    expect(reportedYes(killed2)).toBe(heldYes(m) - held0);

    // Run 3 is offered none of them any more.
    slots.daemon = await run(killed);
    expect(slots.daemon.journal?.restore.runs).toBe(2);
    expect(slots.daemon.journal?.restore.orders).toEqual(new Map());
    expect((await slots.daemon.stop("test over")).exitCode).toBe(0);
    slots.daemon = undefined;

    const closed = withDb(killed, (db) =>
      db
        .prepare("SELECT order_id, client_order_id, code FROM outcomes WHERE outcome = 'closed' ORDER BY id")
        .all(),
    ) as { order_id: string; client_order_id: string; code: string }[];
    const want = [...offered].map(([id, c]) => ({
      order_id: id,
      client_order_id: c,
      code: m.context.venue.order(WALLET, id)?.status,
    }));
    expect(closed.sort((a, b) => a.order_id.localeCompare(b.order_id))).toEqual(
      want.sort((a, b) => a.order_id.localeCompare(b.order_id)),
    );
    const codes = new Set(closed.map((c) => c.code));
    expect(codes).toEqual(new Set(["FILLED", "CANCELLED", "EXPIRED"]));

    // mm report: the journaled partial fill and the fill made while the bot was down, each once.
    const after = withDb(killed, (db) => buildReport(db));
    expect(after.total).toEqual(reportDown.total);
    expect(after.markets).toEqual(reportDown.markets);
    expect(reportedYes(killed)).toBe(heldYes(m) - held0);
  }, 30_000);
});
