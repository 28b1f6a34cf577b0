import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { applyTrade, EMPTY_ACCOUNT, type TokenAccount } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { ACCOUNT, fill, journalPath } from "./support.js";

const T0 = Date.UTC(2025, 5, 1, 12);

describe("JournalRecorder: a fee and the account it changed", () => {
  it("commit together, so a fill without a fee row is journaled without its fee everywhere", () => {
    const db = openJournalDb(journalPath());
    const writer = new JournalWriter(db);
    const run = writer.beginRun({ account: ACCOUNT, session: "s1", atMs: T0, tokens: [] });
    const logger = createLogger({ level: "error", pretty: false, destination: collectingStream() });
    const rec = new JournalRecorder({ writer, run, clock: new SimClock(T0), logger, snapshotIntervalMs: 0 });
    let acc: TokenAccount = EMPTY_ACCOUNT;
    rec.attach({
      account: () => acc,
      accounts: () => [{ tokenId: "t1", account: acc, markMicro: undefined }],
      status: () => ({ pnlMicro: 0n, openOrders: 0 }),
    });
    const f = fill({ tsMs: T0 + 1 });
    const fee = { asset: "shares" as const, amountMicro: 100_000n };
    acc = applyTrade(EMPTY_ACCOUNT, "buy", f.priceMicro, f.sizeMicro);
    rec.onEvent({ type: "fill", atMs: T0 + 1, fill: f, source: "stream", positionMicro: 0n, pnlMicro: 0n });
    acc = applyTrade(EMPTY_ACCOUNT, "buy", f.priceMicro, f.sizeMicro, fee);
    rec.onEvent({ type: "fee", atMs: T0 + 2_000, fill: f, fee });
    rec.onEvent({ type: "fee", atMs: T0 + 3_000, fill: f, fee }); // the same again: no new account row

    expect(
      db.prepare("SELECT reason, at_ms, size_micro, fee_shares_micro FROM accounts ORDER BY id").all(),
    ).toEqual([
      { reason: "fill", at_ms: BigInt(T0 + 1), size_micro: 10_000_000n, fee_shares_micro: 0n },
      { reason: "reconcile", at_ms: BigInt(T0 + 2_000), size_micro: 9_900_000n, fee_shares_micro: 100_000n },
    ]);
    // The next run finds the fee in the account, and no fill waiting for one.
    const next = writer.beginRun({ account: ACCOUNT, session: "s2", atMs: T0 + 9_000, tokens: [] });
    const r = readRestore(db, ACCOUNT, next);
    expect(r.accounts.get("t1")?.feeSharesMicro).toBe(100_000n);
    expect(r.feePending).toEqual([]);

    // A failed fee write leaves neither row: the fill stays fee-pending for the next run.
    const g = fill({ tradeId: "tr2", tsMs: T0 + 4_000 });
    acc = applyTrade(acc, "buy", g.priceMicro, g.sizeMicro);
    rec.onEvent({
      type: "fill",
      atMs: T0 + 4_000,
      fill: g,
      source: "stream",
      positionMicro: 0n,
      pnlMicro: 0n,
    });
    db.exec("CREATE TRIGGER no_fees BEFORE INSERT ON fees BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    acc = applyTrade(acc, "buy", g.priceMicro, 0n, { asset: "usdc", amountMicro: 5n });
    rec.onEvent({ type: "fee", atMs: T0 + 5_000, fill: g, fee: { asset: "usdc", amountMicro: 5n } });
    expect(rec.failures).toBe(1);
    const last = db.prepare("SELECT reason, fees_pico FROM accounts ORDER BY id DESC LIMIT 1").get();
    expect(last).toEqual({ reason: "fill", fees_pico: "47000000000" });
    const after = readRestore(
      db,
      ACCOUNT,
      writer.beginRun({ account: ACCOUNT, session: "s3", atMs: T0 + 9_500, tokens: [] }),
    );
    expect(after.feePending.map((x) => x.tradeId)).toEqual(["tr2"]);
    db.close();
  });
});
