import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { clientOrderId } from "../../../src/core/ids.js";
import { LiveClock } from "../../../src/core/live-clock.js";
import type { Address } from "../../../src/core/types.js";
import { toWei } from "../../../src/core/wei.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createMockExchange } from "../../../src/mock/mock-exchange.js";
import {
  daemonConfig,
  market,
  memoryLogger,
  SCENARIO,
  seedMarket,
  WALLET,
  waitFor,
} from "../daemon/support.js";
import { journalDaemonSlots } from "./support.js";

const ARG = market("arg-vs-fra-final-arg-win");
const YES = ARG.yesTokenId;
const TAKER = SCENARIO.wallets[1]?.address.toLowerCase() as Address;
/** Bands 0.03 around the mid, 10 shares: on a 0.50 / 0.60 book, a bid at 0.52 and an ask at 0.58. */
const BANDS = JSON.stringify({
  name: "bands",
  params: { reference: "mid", bands: [{ margin: "0.03", size: "10" }] },
});

const slots = journalDaemonSlots();

function withDb<T>(path: string, fn: (db: ReturnType<typeof openJournalDb>) => T): T {
  const db = openJournalDb(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

describe("orders an earlier run left that this run adopts, ended during the run without a cancel of ours", () => {
  it("are journaled closed by this run: the journal's open orders match the exchange's during the run and at its end", async () => {
    const m = await createMockExchange({
      scenario: SCENARIO,
      flow: false,
      admin: true,
      clock: new LiveClock(),
    });
    slots.mock = m;
    seedMarket(m, ARG, "0.50", "0.60");
    m.context.venue.credit(TAKER, YES, toWei("100"));
    m.context.venue.credit(WALLET, YES, toWei("10")); // for the killed run's ask
    slots.dir = mkdtempSync(join(tmpdir(), "mm-journal-adopted-"));
    const path = join(slots.dir, "journal.sqlite");
    const config = daemonConfig(m, [ARG.slug], {
      MM_ENGINE_STRATEGY: BANDS,
      MM_RECONCILE_ON_START: "adopt",
      MM_RECONCILE_INTERVAL_MS: "1000",
    });
    const account = `${config.exchange.baseUrl}|${WALLET}`;

    // A killed run 1: its bid and ask at the prices this run wants, resting, journaled as accepted
    // (intent and placement), the run never stopped.
    const session = "dead01";
    const rested = (side: "buy" | "sell", price: string) => {
      const cid = clientOrderId({ session, tokenId: YES, side, level: 0, seq: side === "buy" ? 1 : 2 });
      const r = m.context.venue.place({
        wallet: WALLET,
        marketId: ARG.id,
        outcome: "YES",
        side,
        price: toWei(price),
        quantity: toWei("10"),
        clientOrderId: cid,
      });
      if (r.status !== "OPEN") throw new Error(`venue: ${r.status}`);
      return { orderId: r.orderId, cid, side, priceMicro: Number(toWei(price)) };
    };
    const bid = rested("buy", "0.52");
    const ask = rested("sell", "0.58");
    withDb(path, (db) => {
      const w = new JournalWriter(db);
      const run1 = w.beginRun({ account, session, atMs: Date.now() - 60_000, tokens: [] });
      for (const o of [bid, ask]) {
        w.intent(run1, {
          clientOrderId: o.cid,
          tokenId: YES,
          marketId: ARG.id,
          side: o.side,
          level: 0,
          priceMicro: o.priceMicro,
          sizeMicro: 10_000_000n,
          sent: true,
          atMs: Date.now() - 30_000,
        });
        w.outcome(run1, {
          op: "place",
          clientOrderId: o.cid,
          marketId: ARG.id,
          outcome: "accepted",
          orderId: o.orderId,
          code: undefined,
          latencyMs: 5,
          atMs: Date.now() - 30_000,
        });
      }
    });
    /** The orders the journal would offer a start after run 2 (its view of what may rest). */
    const mayRest = (run2: number) => withDb(path, (db) => readRestore(db, account, run2 + 1).orders);

    // Run 2 adopts both (still open: the start's check of gone orders closes neither).
    const d = await startDaemon(config, {
      logger: memoryLogger("error").logger,
      journal: { path, snapshotIntervalMs: 60_000, sync: "normal" },
    });
    slots.daemon = d;
    const run2 = d.journal?.run ?? -1;
    expect(d.journal?.restore.orders).toEqual(
      new Map([
        [bid.orderId, bid.cid],
        [ask.orderId, ask.cid],
      ]),
    );
    expect(await d.journal?.goneClosed).toBe(0);
    const live = () => new Set(d.engine.liveOrders().flatMap((o) => (o.tokenId === YES ? [o.orderId] : [])));
    expect(live()).toEqual(new Set([bid.orderId, ask.orderId]));

    // Someone else cancels the adopted bid (another session of the wallet, the web UI): the run
    // finds it gone at its next reconcile, and keeps the ask.
    expect(m.context.venue.cancel(WALLET, bid.orderId).ok).toBe(true);
    await waitFor(() => !live().has(bid.orderId), 5_000, "the adopted bid seen gone");
    // Had run 2 been killed now, the next start would be offered only what may still rest.
    await waitFor(() => !mayRest(run2).has(bid.orderId), 3_000, "the bid journaled closed");
    expect(live().has(ask.orderId)).toBe(true);
    expect(mayRest(run2).get(ask.orderId)).toBe(ask.cid);

    // A clean stop cancels the ask with every quote (a wallet-wide cancel-all: no cancel row of its own).
    expect((await d.stop("test over")).exitCode).toBe(0);
    slots.daemon = undefined;
    expect(m.context.venue.openOrders(WALLET)).toEqual([]);
    expect(mayRest(run2)).toEqual(new Map());
    // The bid by a `closed` row of run 2 (no status read: it ended in run 2's order store), the ask
    // by the stop's own cancel of it (covered by the cancel-all).
    const rows = withDb(path, (db) =>
      db
        .prepare("SELECT order_id, client_order_id, outcome, code, run_id FROM outcomes WHERE op = 'cancel'")
        .all(),
    ) as {
      order_id: string | null;
      client_order_id: string;
      outcome: string;
      code: string | null;
      run_id: bigint;
    }[];
    expect(rows.filter((r) => r.outcome === "closed")).toEqual([
      {
        order_id: bid.orderId,
        client_order_id: bid.cid,
        outcome: "closed",
        code: "ended",
        run_id: BigInt(run2),
      },
    ]);
    expect(rows.filter((r) => r.client_order_id === ask.cid).map((r) => r.outcome)).toEqual(["covered"]);
  }, 20_000);
});
