import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import type { PlaceIntent } from "../../../src/execution/intents.js";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { FakeSource, fill, journalPath } from "./support.js";

const T0 = Date.UTC(2025, 5, 1, 12);

function setup(snapshotIntervalMs = 0) {
  const db = openJournalDb(journalPath());
  const writer = new JournalWriter(db);
  const clock = new SimClock(T0);
  const run = writer.beginRun({ account: "a", session: "s1", atMs: T0, tokens: [] });
  const sink = collectingStream();
  const logger = createLogger({ level: "error", pretty: false, destination: sink });
  const rec = new JournalRecorder({ writer, run, clock, logger, snapshotIntervalMs });
  const engine = new FakeSource(2);
  rec.attach(engine);
  return { db, clock, rec, engine, sink, run };
}

const intent: PlaceIntent = {
  kind: "place",
  tokenId: "t1",
  marketId: "m1",
  clientOrderId: "mm-s1-aaaaaaaaaa-b0-1",
  quote: { side: "buy", level: 0, priceMicro: 470_000, sizeMicro: 10_000_000n },
  urgencyTicks: 3,
};

describe("JournalRecorder", () => {
  it("journals intents and every send outcome, with the exchange's id or code; intents dropped unsent are counted", () => {
    const { db, rec } = setup();
    const { side, level, priceMicro, sizeMicro } = intent.quote;
    const events: EngineEvent[] = [
      {
        type: "place_sent",
        atMs: T0,
        tokenId: "t1",
        clientOrderId: intent.clientOrderId,
        order: { marketId: "m1", side, level, priceMicro, sizeMicro },
      },
      {
        type: "place_outcome",
        atMs: T0 + 5,
        intent,
        outcome: "accepted",
        code: undefined,
        latencyMs: 5,
        orderId: "o1",
      },
      {
        type: "place_outcome",
        atMs: T0 + 6,
        intent: { ...intent, clientOrderId: "c2" },
        outcome: "rejected",
        code: "insufficient_balance",
        latencyMs: 4,
      },
      {
        type: "place_outcome",
        atMs: T0 + 7,
        intent: { ...intent, clientOrderId: "c3" },
        outcome: "ambiguous",
        code: "timeout",
        latencyMs: 10_000,
      },
      {
        type: "place_dropped",
        atMs: T0 + 8,
        intent: { ...intent, clientOrderId: "c4" },
        reason: "superseded",
      },
      {
        type: "cancel_outcome",
        atMs: T0 + 9,
        clientOrderId: intent.clientOrderId,
        outcome: "done",
        reason: "requote",
      },
      {
        type: "cancel_all_outcome",
        atMs: T0 + 10,
        marketId: undefined,
        outcome: "done",
        reason: "kill_switch",
      },
    ];
    for (const e of events) rec.onEvent(e);
    expect(
      db
        .prepare(
          "SELECT client_order_id, side, level, price_micro, size_micro, sent FROM intents ORDER BY id",
        )
        .all(),
    ).toEqual([
      {
        client_order_id: intent.clientOrderId,
        side: "buy",
        level: 0n,
        price_micro: 470_000n,
        size_micro: 10_000_000n,
        sent: 1n,
      },
    ]);
    expect(
      db.prepare("SELECT op, client_order_id, outcome, order_id, code FROM outcomes ORDER BY id").all(),
    ).toEqual([
      { op: "place", client_order_id: intent.clientOrderId, outcome: "accepted", order_id: "o1", code: null },
      {
        op: "place",
        client_order_id: "c2",
        outcome: "rejected",
        order_id: null,
        code: "insufficient_balance",
      },
      { op: "place", client_order_id: "c3", outcome: "ambiguous", order_id: null, code: "timeout" },
      { op: "cancel", client_order_id: intent.clientOrderId, outcome: "done", order_id: null, code: null },
      { op: "cancel_all", client_order_id: null, outcome: "done", order_id: null, code: null },
    ]);
    rec.close();
    expect(db.prepare("SELECT op, market_id, reason, n FROM unsent").all()).toEqual([
      { op: "place", market_id: "m1", reason: "superseded", n: 1n },
    ]);
    db.close();
  });

  it("journals a fill with the token's account after it, and its fee once known", () => {
    const { db, rec, engine } = setup();
    const f = fill();
    engine.accs.set("t1", applyTrade(EMPTY_ACCOUNT, "buy", f.priceMicro, f.sizeMicro));
    rec.onEvent({
      type: "fill",
      atMs: T0 + 50,
      fill: f,
      source: "stream",
      positionMicro: f.sizeMicro,
      pnlMicro: 0n,
    });
    rec.onEvent({
      type: "fill",
      atMs: T0 + 60,
      fill: f,
      source: "backfill",
      positionMicro: f.sizeMicro,
      pnlMicro: 0n,
    });
    rec.onEvent({ type: "fee", atMs: T0 + 70, fill: f, fee: { asset: "shares", amountMicro: 100_000n } });
    expect(db.prepare("SELECT trade_id, source FROM fills").all()).toEqual([
      { trade_id: "tr1", source: "stream" },
    ]);
    expect(db.prepare("SELECT reason, at_ms, size_micro, cost_pico FROM accounts").all()).toEqual([
      { reason: "fill", at_ms: BigInt(f.tsMs), size_micro: 10_000_000n, cost_pico: "4700000000000" },
      { reason: "fill", at_ms: BigInt(f.tsMs), size_micro: 10_000_000n, cost_pico: "4700000000000" },
    ]);
    // 0.1 share at 0.47 = 0.047 USDC
    expect(db.prepare("SELECT asset, amount_micro, value_pico FROM fees").get()).toEqual({
      asset: "shares",
      amount_micro: 100_000n,
      value_pico: "47000000000",
    });
    db.close();
  });

  it("snapshots moved accounts and the PnL totals on the clock, and ends the run on stop", () => {
    const { db, clock, rec, engine, run } = setup(60_000);
    engine.accs.set("t1", applyTrade(EMPTY_ACCOUNT, "buy", 470_000, 10_000_000n));
    engine.accs.set("t2", EMPTY_ACCOUNT);
    engine.marks.set("t1", 500_000);
    engine.pnlMicro = 300_000n;
    clock.advanceBy(60_000);
    clock.advanceBy(60_000); // nothing moved: only a PnL row
    engine.marks.set("t1", 510_000);
    rec.onEvent({ type: "stopped", atMs: clock.now(), reason: "SIGTERM", openOrders: 0 });
    expect(db.prepare("SELECT reason, token_id, mark_micro FROM accounts ORDER BY id").all()).toEqual([
      { reason: "snapshot", token_id: "t1", mark_micro: 500_000n },
      { reason: "snapshot", token_id: "t2", mark_micro: null },
      { reason: "stop", token_id: "t1", mark_micro: 510_000n },
    ]);
    expect(
      db.prepare("SELECT reason, pnl_micro, unrealised_pico, open_orders FROM pnl ORDER BY id").all(),
    ).toEqual([
      { reason: "snapshot", pnl_micro: 300_000n, unrealised_pico: "300000000000", open_orders: 2n },
      { reason: "snapshot", pnl_micro: 300_000n, unrealised_pico: "300000000000", open_orders: 2n },
      { reason: "stop", pnl_micro: 300_000n, unrealised_pico: "400000000000", open_orders: 2n },
    ]);
    expect(db.prepare("SELECT stop_reason, open_at_stop FROM runs WHERE run_id = ?").get(run)).toEqual({
      stop_reason: "SIGTERM",
      open_at_stop: 0n,
    });
    rec.close();
    expect(clock.nextDeadline()).toBeUndefined();
    db.close();
  });

  it("never throws into the engine when a write fails: counts it and logs once per 10 s", () => {
    const { db, rec, sink, clock } = setup();
    db.close();
    const sent: EngineEvent = {
      type: "cancel_outcome",
      atMs: T0,
      clientOrderId: "c",
      outcome: "done",
      reason: "requote",
    };
    expect(() => {
      rec.onEvent(sent);
      rec.onEvent(sent);
    }).not.toThrow();
    clock.advanceBy(10_000);
    rec.onEvent(sent);
    expect(rec.failures).toBe(3);
    const lines = sink
      .records()
      .filter((r) => r.msg === "journal write failed: trading goes on, but this history is not on disk");
    expect(lines.map((l) => l.failures)).toEqual([1, 3]);
  });
});
