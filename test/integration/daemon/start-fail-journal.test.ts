import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import type { JournalSettings } from "../../../src/app/journal-settings.js";
import type { MmConfig } from "../../../src/config/types.js";
import { clientOrderId } from "../../../src/core/ids.js";
import { toWei } from "../../../src/core/wei.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import { sendJson } from "../../support/http-test-server.js";
import { FRONTED, frontedMocks } from "./rest-front.js";
import { daemonConfig, journalRuns, memoryLogger, tempJournals, WALLET } from "./support.js";

/*
 * A start that fails after the journal has opened (a start-up read answered wrong or 503) used to
 * leave the run row without its stop, as a killed or still running run. The run must be journaled
 * as ended, with the start's failure as its reason; and what an earlier killed run may have left
 * resting must stay restorable for the next start, whatever the failed start did meanwhile.
 */

const ARG = FRONTED;
const YES = ARG.yesTokenId;
const frontedMock = frontedMocks();
const newJournal = tempJournals("mm-start-fail-journal-");

/** What startDaemon throws with `journal`; fails the test when the start succeeds. */
async function failedStart(config: MmConfig, journal: JournalSettings): Promise<unknown> {
  const { logger } = memoryLogger();
  try {
    const d = await startDaemon(config, { logger, journal });
    await d.stop("test over");
  } catch (err) {
    return err;
  }
  throw new Error("the daemon started");
}

/** A run of this account that was killed with one order resting (journaled as a killed run leaves it). */
function killedRunWithRestingOrder(m: MockExchange, config: MmConfig, journal: JournalSettings): string {
  const cid = clientOrderId({ session: "dead01", tokenId: YES, side: "buy", level: 0, seq: 1 });
  const placed = m.context.venue.place({
    wallet: WALLET,
    marketId: ARG.id,
    outcome: "YES",
    side: "buy",
    price: toWei("0.40"),
    quantity: toWei("5"),
    clientOrderId: cid,
    expiry: 0,
  });
  if (placed.status === "REJECTED") throw new Error(`venue refused: ${placed.code ?? ""}`);
  const db = openJournalDb(journal.path);
  try {
    const w = new JournalWriter(db);
    const run = w.beginRun({ account: accountOf(config), session: "dead01", atMs: Date.now(), tokens: [] });
    const terms = { tokenId: YES, marketId: ARG.id, side: "buy" as const, level: 0 };
    w.intent(run, {
      clientOrderId: cid,
      ...terms,
      priceMicro: 400_000,
      sizeMicro: 5_000_000n,
      sent: true,
      atMs: 1,
    });
    w.outcome(run, {
      op: "place",
      clientOrderId: cid,
      marketId: ARG.id,
      outcome: "accepted",
      orderId: placed.orderId,
      code: undefined,
      latencyMs: 5,
      atMs: 1,
    });
  } finally {
    db.close();
  }
  return placed.orderId;
}

/** The journal's account key of the daemon's runs (exchange base URL + wallet). */
function accountOf(config: MmConfig): string {
  return `${config.exchange.baseUrl}|${WALLET}`;
}

/** The orders a new run of `config`'s account would restore from `journal`. */
function restorable(config: MmConfig, journal: JournalSettings): string[] {
  const db = openJournalDb(journal.path, { mustExist: true });
  try {
    return [...readRestore(db, accountOf(config), Number.MAX_SAFE_INTEGER).orders.keys()];
  } finally {
    db.close();
  }
}

describe("daemon: a start that fails after the journal opened journals the run's end", () => {
  it("a malformed positions answer (the baseline): the run ended with the start's failure, nothing open", async () => {
    const { m, url } = await frontedMock((req, res) => {
      if (req.path !== "/api/me/positions") return false;
      sendJson(res, 200, { status: "ok" });
      return true;
    });
    const journal = newJournal();
    const err = await failedStart(daemonConfig(m, [ARG.slug], { MM_EXCHANGE_BASE_URL: url }), journal);
    expect(err).toMatchObject({ code: "start_read_failed" });
    // It used to be { stopped_at_ms: null, stop_reason: null, open_at_stop: null }: a killed run.
    expect(journalRuns(journal)).toEqual([
      { stopped_at_ms: expect.any(BigInt), stop_reason: "start failed: start_read_failed", open_at_stop: 0n },
    ]);
  });

  it("a 503 on the open orders (before the start-up cancel): the same", async () => {
    const { m, url } = await frontedMock((req, res) => {
      if (req.path !== "/api/orders/open") return false;
      sendJson(res, 503, { error: { code: "exchange_unavailable", message: "down" } });
      return true;
    });
    const journal = newJournal();
    const config = daemonConfig(m, [ARG.slug], { MM_EXCHANGE_BASE_URL: url, MM_RETRY_MAX_ATTEMPTS: "1" });
    expect(await failedStart(config, journal)).toMatchObject({ code: "start_read_failed" });
    expect(journalRuns(journal)).toEqual([
      { stopped_at_ms: expect.any(BigInt), stop_reason: "start failed: start_read_failed", open_at_stop: 0n },
    ]);
  });

  it("an order a killed run left, adopted before a later read fails: still restorable, counted open at the end", async () => {
    // The start-up reconcile adopts, then reads the positions a second time: that read is answered wrong.
    let positionReads = 0;
    const { m, url } = await frontedMock((req, res) => {
      if (req.path !== "/api/me/positions" || ++positionReads < 2) return false;
      sendJson(res, 200, { status: "ok" });
      return true;
    });
    const journal = newJournal();
    const config = daemonConfig(m, [ARG.slug], {
      MM_EXCHANGE_BASE_URL: url,
      MM_RECONCILE_ON_START: "adopt",
    });
    const orderId = killedRunWithRestingOrder(m, config, journal);
    expect(await failedStart(config, journal)).toMatchObject({ code: "start_read_failed" });
    expect(positionReads).toBe(2);
    // The killed run stays a killed run; the failed start ends with the adopted order it held open.
    expect(journalRuns(journal)).toEqual([
      { stopped_at_ms: null, stop_reason: null, open_at_stop: null },
      { stopped_at_ms: expect.any(BigInt), stop_reason: "start failed: start_read_failed", open_at_stop: 1n },
    ]);
    // The order still rests, and the next start still finds it in the journal.
    expect(m.context.venue.order(WALLET, orderId)?.status).toBe("OPEN");
    expect(restorable(config, journal)).toEqual([orderId]);
  });
});
