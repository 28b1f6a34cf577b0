import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { applyTrade, EMPTY_ACCOUNT, type TokenAccount } from "../../../src/execution/inventory-math.js";
import { fillFromWire } from "../../../src/execution/reconcile-fills.js";
import { parseUserFill, type UserFillEvent } from "../../../src/gateway/schema/user-events.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder, type JournalSource } from "../../../src/journal/recorder.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { fill, journalPath } from "./support.js";

const T0 = Date.UTC(2025, 5, 1, 12);
const TOKEN = "123456";

class FakeEngine implements JournalSource {
  acc: TokenAccount = EMPTY_ACCOUNT;
  account(): TokenAccount {
    return this.acc;
  }
  accounts() {
    return [{ tokenId: TOKEN, account: this.acc, markMicro: undefined }];
  }
  status() {
    return { pnlMicro: 0n, openOrders: 0 };
  }
}

describe("journal: a time that is not a whole millisecond", () => {
  it("a user_fill with a fractional tsMs is journaled (fill, account and fee rows), at the floored ms", () => {
    // The spec types tsMs as "number, milliseconds since epoch"; the gateway accepts any finite number.
    const parsed = parseUserFill({
      walletAddress: "0x00000000000000000000000000000000000000b0",
      side: "buy",
      tradeId: "tr1",
      orderId: "o1",
      clientOrderId: "mm-s1-aaaaaaaaaa-b0-1",
      tokenId: TOKEN,
      conditionId: `0x${"ab".repeat(32)}`,
      outcomeIndex: 0,
      price: "0.47",
      quantity: "10",
      source: "matcher",
      tsMs: T0 + 0.5,
    });
    expect("badField" in parsed).toBe(false);
    const f = fillFromWire(parsed as UserFillEvent);
    expect(f.tsMs).toBe(T0);

    const db = openJournalDb(journalPath());
    const writer = new JournalWriter(db);
    const clock = new SimClock(T0);
    const run = writer.beginRun({ account: "a", session: "s1", atMs: T0, tokens: [] });
    const logger = createLogger({ level: "error", pretty: false, destination: collectingStream() });
    const rec = new JournalRecorder({ writer, run, clock, logger, snapshotIntervalMs: 0 });
    const engine = new FakeEngine();
    rec.attach(engine);

    engine.acc = applyTrade(EMPTY_ACCOUNT, "buy", f.priceMicro, f.sizeMicro);
    rec.onEvent({
      type: "fill",
      atMs: T0 + 1,
      fill: f,
      source: "stream",
      positionMicro: f.sizeMicro,
      pnlMicro: 0n,
    });
    rec.onEvent({ type: "fee", atMs: T0 + 2, fill: f, fee: { asset: "usdc", amountMicro: 1_000n } });

    expect(rec.failures).toBe(0);
    expect(db.prepare("SELECT ts_ms FROM fills").all()).toEqual([{ ts_ms: BigInt(T0) }]);
    expect(db.prepare("SELECT at_ms FROM accounts").all()).toEqual([{ at_ms: BigInt(T0) }]);
    expect(db.prepare("SELECT fill_ts_ms FROM fees").all()).toEqual([{ fill_ts_ms: BigInt(T0) }]);
    db.close();
  });

  it("the writer floors any fractional time itself, so a money row can never fail on it", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const run = w.beginRun({ account: "a", session: "s1", atMs: T0 + 0.25, tokens: [] });
    const f = fill({ tsMs: T0 + 0.75 }); // as if some other path skipped fillFromWire
    expect(() =>
      w.batch(() => {
        w.fill(run, f, "backfill");
        w.account(run, f.tsMs, "fill", "t1", EMPTY_ACCOUNT, undefined);
      }),
    ).not.toThrow();
    w.fee(f, { asset: "usdc", amountMicro: 1n }, T0 + 1.5);
    w.intent(run, { ...f, clientOrderId: "c1", marketId: "m1", level: 0, sent: true, atMs: T0 + 0.1 });
    w.outcome(run, {
      op: "place",
      clientOrderId: "c1",
      marketId: "m1",
      outcome: "accepted",
      orderId: "o1",
      code: undefined,
      latencyMs: 3.7,
      atMs: T0 + 0.9,
    });
    w.pnl(run, {
      atMs: T0 + 0.5,
      reason: "snapshot",
      pnlMicro: 0n,
      realisedPico: 0n,
      feesPico: 0n,
      unrealisedPico: 0n,
      openOrders: 0,
    });
    w.endRun(run, T0 + 9.9, "SIGTERM", 0);
    const t = BigInt(T0);
    expect(db.prepare("SELECT ts_ms FROM fills").get()).toEqual({ ts_ms: t });
    expect(db.prepare("SELECT at_ms FROM accounts").get()).toEqual({ at_ms: t });
    expect(db.prepare("SELECT fill_ts_ms, at_ms FROM fees").get()).toEqual({ fill_ts_ms: t, at_ms: t + 1n });
    expect(db.prepare("SELECT latency_ms, at_ms FROM outcomes").get()).toEqual({ latency_ms: 3n, at_ms: t });
    expect(db.prepare("SELECT started_at_ms, stopped_at_ms FROM runs").get()).toEqual({
      started_at_ms: t,
      stopped_at_ms: t + 9n,
    });
    db.close();
  });
});
