import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import type { Fill } from "../../../src/core/trading.js";
import type { OrderStatus } from "../../../src/core/types.js";
import type { Order } from "../../../src/exchange/types.js";
import { EMPTY_ACCOUNT, type TokenAccount } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import type { JournalSource } from "../../../src/journal/recorder.js";
import { JournalWriter, type OutcomeRecord } from "../../../src/journal/writer.js";

/**
 * A journal path in a fresh private temp folder, removed when the calling test finishes. The
 * clean-up is the test's own, not a module-level afterEach: with isolate: false a module loads once
 * per worker, and such a hook would serve only the first file that imported it.
 */
export function journalPath(name = "journal.sqlite"): string {
  const dir = mkdtempSync(join(tmpdir(), "mm-journal-test-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, name);
}

/** A fill of token "t1" (override any field). */
export function fill(over: Partial<Fill> = {}): Fill {
  return {
    tradeId: "tr1",
    orderId: "o1",
    clientOrderId: "mm-s1-aaaaaaaaaa-b0-1",
    tokenId: "t1",
    side: "buy",
    priceMicro: 470_000,
    sizeMicro: 10_000_000n,
    tsMs: Date.UTC(2025, 5, 1, 12),
    ...over,
  };
}

/** The journaled outcome of a placement the exchange accepted as `orderId`, in market m1. */
export function placed(cid: string, orderId: string, atMs = 10): OutcomeRecord {
  return {
    op: "place",
    clientOrderId: cid,
    marketId: "m1",
    outcome: "accepted",
    orderId,
    code: undefined,
    latencyMs: 3,
    atMs,
  };
}

/** An account key (exchange base URL + wallet) as the daemon writes it. */
export const ACCOUNT = "http://127.0.0.1:1|0xabc";

/** The exchange's record of an order of ours in market m1, with `status` (FILLED: filled whole). */
export function exchangeOrder(id: string, status: OrderStatus): Order {
  const filled = status === "FILLED";
  return {
    id,
    userWallet: "0xabc",
    vault: "0xabc",
    marketId: "m1",
    side: "buy",
    outcome: "YES",
    price: "0.47",
    quantity: "10",
    filledQty: filled ? "10" : "0",
    remainingQty: filled ? "0" : "10",
    expiry: 0,
    type: "limit",
    timeInForce: "gtc",
    status,
    createdAt: "2025-06-01T12:00:00.000Z",
    updatedAt: "2025-06-01T12:00:00.000Z",
  };
}

/**
 * A journal whose only run (of ACCOUNT, at `atMs`) was killed with `n` placements accepted, orders
 * o1…on (clientOrderIds c1…cn) in market m1: what restore offers as possibly resting.
 */
export function killedJournal(n: number, atMs: number): string {
  const path = journalPath();
  const db = openJournalDb(path);
  const w = new JournalWriter(db);
  const run = w.beginRun({ account: ACCOUNT, session: "dead", atMs, tokens: [] });
  for (let i = 1; i <= n; i++) {
    w.outcome(run, placed(`c${i}`, `o${i}`, atMs));
  }
  db.close();
  return path;
}

/**
 * The engine as the recorder reads it: the accounts and marks the test sets (a token's mark now is
 * `marks`' entry, as TradingEngine.markOf), its PnL and open orders.
 */
export class FakeSource implements JournalSource {
  readonly accs = new Map<string, TokenAccount>();
  readonly marks = new Map<string, number>();
  pnlMicro = 0n;
  constructor(readonly openOrders = 0) {}
  account(t: string): TokenAccount {
    return this.accs.get(t) ?? EMPTY_ACCOUNT;
  }
  markOf(t: string): number | undefined {
    return this.marks.get(t);
  }
  accounts() {
    return [...this.accs].map(([tokenId, account]) => ({
      tokenId,
      account,
      markMicro: this.marks.get(tokenId),
    }));
  }
  status() {
    return { pnlMicro: this.pnlMicro, openOrders: this.openOrders };
  }
}

/**
 * Journals under `run` the intent of a bid of 3 at 0.4 on the engine Harness's YES token ("11",
 * market m1), sent at `atMs`: the restart tests' placement of a killed run.
 */
export function sentHarnessBid(w: JournalWriter, run: number, clientOrderId: string, atMs: number): void {
  w.intent(run, {
    clientOrderId,
    tokenId: "11",
    marketId: "m1",
    side: "buy",
    level: 0,
    priceMicro: 400_000,
    sizeMicro: 3_000_000n,
    sent: true,
    atMs,
  });
}

/** Journals under `run` an ambiguous answer (`code`) to that placement, `latencyMs` after `sentAtMs`. */
export function ambiguousAnswer(
  w: JournalWriter,
  run: number,
  clientOrderId: string,
  sentAtMs: number,
  code: string,
  latencyMs: number,
): void {
  w.outcome(run, {
    op: "place",
    clientOrderId,
    marketId: "m1",
    outcome: "ambiguous",
    orderId: undefined,
    code,
    latencyMs,
    atMs: sentAtMs + latencyMs,
  });
}
