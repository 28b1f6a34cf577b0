import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Inventory } from "../../../src/execution/inventory.js";
import { accountOfRow, feeValuePico } from "../../../src/journal/codec.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { ACCOUNT, fill, journalPath } from "./support.js";

function fresh() {
  const db = openJournalDb(journalPath());
  const w = new JournalWriter(db);
  const run = w.beginRun({
    account: ACCOUNT,
    session: "s1",
    atMs: 1,
    tokens: [{ tokenId: "t1", marketId: "m1", slug: "will-it-rain", outcome: "YES" }],
  });
  return { db, w, run };
}

describe("JournalWriter", () => {
  it("keeps one row per fill, whichever of WebSocket and backfill delivers it first", () => {
    const { db, w, run } = fresh();
    expect(w.fill(run, fill(), "stream")).toBe(true);
    expect(w.fill(run, fill(), "backfill")).toBe(false);
    expect(w.fill(run, fill({ sizeMicro: 1n }), "stream")).toBe(false);
    // A self-trade gives the wallet two fills with one tradeId, one per order: both count.
    expect(w.fill(run, fill({ orderId: "o2", side: "sell" }), "stream")).toBe(true);
    const rows = db.prepare("SELECT trade_id, order_id, source, size_micro FROM fills ORDER BY id").all();
    expect(rows).toEqual([
      { trade_id: "tr1", order_id: "o1", source: "stream", size_micro: 10_000_000n },
      { trade_id: "tr1", order_id: "o2", source: "stream", size_micro: 10_000_000n },
    ]);
    db.close();
  });

  it("stores money as exact integers, beyond 2^53 and, for pico figures, beyond 2^63", () => {
    const { db, w, run } = fresh();
    const big = 9_007_199_254_740_993_123n; // > 2^63: would not fit an INTEGER column
    const size = 9_000_000_000_000_001n; // > 2^53: a float would round it
    w.fill(run, fill({ sizeMicro: size }), "stream");
    const acc = { sizeMicro: size, costPico: -big, realisedPico: big, feesPico: 1n, feeSharesMicro: 3n };
    w.account(run, 5, "fill", "t1", acc, 530_000);
    expect(db.prepare("SELECT size_micro FROM fills").get()).toEqual({ size_micro: size });
    const row = db.prepare("SELECT * FROM accounts").get() as Parameters<typeof accountOfRow>[0];
    expect(accountOfRow(row)).toEqual(acc);
    expect(row.mark_micro).toBe(530_000n);
    db.close();
  });

  it("cannot hold a float in a money column (STRICT tables)", () => {
    const { db, run } = fresh();
    const insert = db.prepare(
      `INSERT INTO fills (run_id, trade_id, order_id, token_id, side, price_micro, size_micro, ts_ms, source)
       VALUES (?, 'x', 'y', 't1', 'buy', ?, 1, 1, 'stream')`,
    );
    expect(() => insert.run(run, 0.47)).toThrow(/REAL/);
    expect(() =>
      db
        .prepare(
          `INSERT INTO accounts (run_id, at_ms, reason, token_id, size_micro, cost_pico, realised_pico, fees_pico, fee_shares_micro)
           VALUES (?, 1, 'fill', 't1', 0, '1.5', '0', '0', 0)`,
        )
        .run(run),
    ).toThrow(/CHECK/);
    db.close();
  });

  it("values a fee exactly as Inventory books it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("buy" as const, "sell" as const),
        fc.integer({ min: 1, max: 999_999 }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.constantFrom("shares" as const, "usdc" as const),
        fc.bigInt({ min: 0n, max: 2n * 10n ** 12n }),
        (side, priceMicro, sizeMicro, asset, amountMicro) => {
          const f = fill({ side, priceMicro, sizeMicro });
          const fee = { asset, amountMicro };
          const inv = new Inventory();
          inv.applyFill(f);
          inv.setFee(f.tradeId, f.orderId, fee);
          expect(feeValuePico(side, priceMicro, sizeMicro, fee)).toBe(inv.account("t1").feesPico);
        },
      ),
    );
  });

  it("closes a run with its stop reason and what it left open", () => {
    const { db, w, run } = fresh();
    w.endRun(run, 99, "SIGTERM", 0);
    expect(db.prepare("SELECT session, stopped_at_ms, stop_reason, open_at_stop FROM runs").get()).toEqual({
      session: "s1",
      stopped_at_ms: 99n,
      stop_reason: "SIGTERM",
      open_at_stop: 0n,
    });
    expect(db.prepare("SELECT * FROM tokens").all()).toEqual([
      { token_id: "t1", market_id: "m1", slug: "will-it-rain", outcome: "YES" },
    ]);
    db.close();
  });
});
