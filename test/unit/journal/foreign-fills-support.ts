// The killed run and the run that no longer trades its token: the foreign-fill journal tests.
import type { Database } from "better-sqlite3";
import { expect } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Fill } from "../../../src/core/trading.js";
import type { Side } from "../../../src/core/types.js";
import type { TradeRecord } from "../../../src/exchange/types.js";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { buildReport } from "../../../src/journal/report.js";
import { readRestore } from "../../../src/journal/restore.js";
import type { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { Harness, T0 } from "../engine/support/harness.js";
import { ACCOUNT } from "./support.js";

/** The token run 1 traded and run 2 does not. */
export const TOKEN = "99";
/** Run 1's resting bid (10 at 0.45) and ask (10 at 0.55). */
export const BID = "o-bid";
export const ASK = "o-ask";
export const PLACED_AT = T0 - 3_600_000;

/** Journals an accepted placement of 10 of TOKEN by `run` at PLACED_AT. */
export function journalPlacement(
  w: JournalWriter,
  run: number,
  cid: string,
  orderId: string,
  side: Side,
  price: number,
): void {
  w.intent(run, {
    clientOrderId: cid,
    tokenId: TOKEN,
    marketId: "m9",
    side,
    level: 0,
    priceMicro: price,
    sizeMicro: 10_000_000n,
    sent: true,
    atMs: PLACED_AT,
  });
  w.outcome(run, {
    op: "place",
    clientOrderId: cid,
    marketId: "m9",
    outcome: "accepted",
    orderId,
    code: undefined,
    latencyMs: 3,
    atMs: PLACED_AT,
  });
}

/** A trade of 10 of an order of TOKEN's market, as GET /api/me/trades lists it. */
export const trade = (id: string, orderId: string, side: Side, price: string, atMs: number): TradeRecord =>
  ({
    id,
    orderId,
    marketId: "m9",
    vaultAddress: "0xb0",
    fee: "0",
    side,
    price,
    quantity: "10",
    createdAt: new Date(atMs).toISOString(),
  }) as TradeRecord;

/** Run 1: bought 10 of TOKEN at 0.40, then was killed quoting it both ways (BID and ASK resting). */
export function killedQuotingRun(w: JournalWriter): void {
  const tokens = [{ tokenId: TOKEN, marketId: "m9", slug: "gone", outcome: "YES" }];
  const run = w.beginRun({ account: ACCOUNT, session: "one", atMs: PLACED_AT - 60_000, tokens });
  const bought: Fill = {
    tradeId: "b0",
    orderId: "o-first",
    clientOrderId: "mm-one-aaaaaaaaaa-b0-0",
    tokenId: TOKEN,
    side: "buy",
    priceMicro: 400_000,
    sizeMicro: 10_000_000n,
    tsMs: PLACED_AT - 30_000,
  };
  w.batch(() => {
    w.fill(run, bought, "stream");
    w.fee(bought, { asset: "usdc", amountMicro: 0n }, bought.tsMs);
    const acc = applyTrade(EMPTY_ACCOUNT, "buy", 400_000, 10_000_000n);
    w.account(run, bought.tsMs, "fill", TOKEN, acc, undefined);
  });
  journalPlacement(w, run, "mm-one-aaaaaaaaaa-b0-1", BID, "buy", 450_000);
  journalPlacement(w, run, "mm-one-aaaaaaaaaa-s0-2", ASK, "sell", 550_000);
}

/** Run 2, which trades none of run 1's tokens: its journal run, its restore and its engine. */
export function untradingRun(db: Database, w: JournalWriter) {
  const run = w.beginRun({ account: ACCOUNT, session: "two", atMs: T0, tokens: [] });
  const found = readRestore(db, ACCOUNT, run);
  const h = new Harness({
    options: {
      restore: {
        accounts: new Map(),
        orders: found.orders,
        orderFills: found.orderFills,
        ordersSinceMs: found.ordersSinceMs,
        orderTokens: found.orderTokens,
      },
    },
  });
  return { run, found, h };
}

/** An engine trading no token, as the recorder reads one (a run that quotes other tokens only). */
export const NO_TOKENS_ENGINE = {
  account: () => EMPTY_ACCOUNT,
  accounts: () => [],
  status: () => ({ pnlMicro: 0n, openOrders: 0 }),
};

/** The journal's recorder of `run`, restored from `found` (its clock at `atMs`). */
export function foreignRecorder(
  w: JournalWriter,
  run: number,
  found: ReturnType<typeof readRestore>,
  atMs = T0,
): JournalRecorder {
  return new JournalRecorder({
    writer: w,
    run,
    clock: new SimClock(atMs),
    logger: createLogger({ level: "error", pretty: false, destination: collectingStream() }),
    snapshotIntervalMs: 0,
    restored: new Map(),
    restoredOrders: found.orders,
    foreignAccounts: found.accounts,
  });
}

/**
 * The journal as the exchange made the trades: the ask's sale first (10 × (0.55 − 0.40) = 1.50
 * realised), then the bid's buy, so the next restore holds 10 at 0.45 (cost 4.50 USDC).
 */
export function expectSaleThenBuy(db: Database, w: JournalWriter): void {
  expect(buildReport(db).total.realisedPico).toBe(1_500_000_000_000n);
  const run3 = w.beginRun({ account: ACCOUNT, session: "three", atMs: T0 + 60_000, tokens: [] });
  const next = readRestore(db, ACCOUNT, run3).accounts.get(TOKEN);
  expect(next?.sizeMicro).toBe(10_000_000n);
  expect(next?.costPico).toBe(4_500_000_000_000n);
}
