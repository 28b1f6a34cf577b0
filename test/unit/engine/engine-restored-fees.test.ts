import { describe, expect, it } from "vitest";
import type { Fill } from "../../../src/core/trading.js";
import { toWei } from "../../../src/core/wei.js";
import { RESTORED_FEE_WAIT_MS } from "../../../src/engine/engine-reconcile-run.js";
import { applyTrade, EMPTY_ACCOUNT, type TokenAccount } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { journalPath } from "../journal/support.js";
import { BOT, Harness, T0 } from "./support/harness.js";

/*
 * A fee resolves after settlement, so the last fills of a run are journaled without one when it stops
 * (cleanly or not). The next run restores them as "fee pending" and its reconciles apply their fee
 * alone once the exchange shows it: the fill is already in the restored account.
 */

const ACCOUNT = "http://127.0.0.1:1|0xb0";
const YES = "11"; // the Harness's first token

/** Run 1's taker BUY of 10 at 0.50 number `n`, as the venue below produces it (counter ids). */
const buy = (n: number, tsMs: number): Fill => ({
  tradeId: `t-00000000${n}`,
  orderId: `o-00000000${n + 1}`,
  clientOrderId: undefined,
  tokenId: YES,
  side: "buy",
  priceMicro: 500_000,
  sizeMicro: 10_000_000n,
  tsMs,
});

/** The bot's IOC BUY of 10 at 0.50 against the crowd's ask: run 1's trade, on the venue's side. */
function botBuys(h: Harness): void {
  h.venue.place({
    wallet: BOT,
    marketId: "m1",
    outcome: "YES",
    side: "buy",
    price: toWei("0.50", "price"),
    quantity: toWei("10", "qty"),
    timeInForce: "ioc",
  });
}

/**
 * The exchange's trade records with the fees of `fees` settled and every other fee still null (the
 * Harness's venue settles at once, and its markets charge no fee).
 */
function settle(h: Harness, fees: Map<string, { fee: string; feeAsset: "shares" | "usdc" }>): void {
  const trades = h.exchange.trades.bind(h.exchange);
  h.exchange.trades = async (opts) => {
    const page = await trades(opts);
    return { ...page, trades: page.trades.map((t) => ({ ...t, fee: null, ...fees.get(t.id) })) };
  };
}

/**
 * Run 1 (an earlier process) journaled `fills` from the WebSocket with the account after each, and
 * the fees in `feesKnown`; then it stopped. Run 2 restores from the journal, as openDaemonJournal
 * does, and gets a Harness whose venue holds run 1's trades (delivered to run 1's process only).
 */
async function restarted(fills: Fill[], feesKnown: Map<string, bigint> = new Map()) {
  const db = openJournalDb(journalPath());
  const w = new JournalWriter(db);
  const run1 = w.beginRun({ account: ACCOUNT, session: "old", atMs: T0 - 60_000, tokens: [] });
  let acc: TokenAccount = EMPTY_ACCOUNT;
  for (const f of fills) {
    acc = applyTrade(acc, f.side, f.priceMicro, f.sizeMicro);
    w.batch(() => {
      w.fill(run1, f, "stream");
      w.account(run1, f.tsMs, "fill", YES, acc, undefined);
    });
    const shares = feesKnown.get(f.tradeId);
    if (shares !== undefined) {
      const fee = { asset: "shares" as const, amountMicro: shares };
      acc = applyTrade(
        applyTrade(EMPTY_ACCOUNT, f.side, f.priceMicro, f.sizeMicro, fee),
        f.side,
        f.priceMicro,
        acc.sizeMicro - f.sizeMicro,
      );
      w.batch(() => {
        w.fee(f, fee, f.tsMs + 2_000);
        w.account(run1, f.tsMs + 2_000, "reconcile", YES, acc, undefined);
      });
    }
  }
  w.endRun(run1, T0 + 5_000, "SIGTERM", 0);
  const run2 = w.beginRun({ account: ACCOUNT, session: "t1", atMs: T0 + 20_000, tokens: [] });
  const restore = readRestore(db, ACCOUNT, run2);
  db.close();

  const h = new Harness({ options: { restore } });
  h.dropFills = true;
  h.crowdOrder(YES, "sell", "0.50", String(10 * fills.length));
  for (const f of fills) {
    await h.run(f.tsMs - h.clock.now());
    botBuys(h);
  }
  await h.run();
  h.dropFills = false;
  expect(h.fills).toEqual(fills);
  await h.run(T0 + 20_000 - h.clock.now()); // the restart takes a while
  h.crowdQuote(YES, "0.48", "0.52");
  return { h, restore };
}

describe("engine restart: fees of the previous run's last fills", () => {
  it("a share fee settled meanwhile is counted once, the fill is not applied again, nothing drifts", async () => {
    const { h, restore } = await restarted([buy(1, T0)]);
    expect(restore.accounts.get(YES)?.sizeMicro).toBe(10_000_000n);
    expect(restore.feePending.map((f) => f.tradeId)).toEqual(["t-000000001"]);
    settle(h, new Map([["t-000000001", { fee: "0.05", feeAsset: "shares" }]]));
    await h.engine.start();
    await h.run(1_000); // the start-up reconcile has read the trade history

    // 0.05 share at 0.50 = 0.025 USDC of fees, which the exchange charged and the PnL must carry; the
    // fill itself is in the restored account and must not be applied a second time.
    const acc = h.engine.account(YES);
    expect(acc.feesPico).toBe(25_000_000_000n);
    expect(acc.feeSharesMicro).toBe(50_000n);
    expect(acc.sizeMicro).toBe(9_950_000n);
    expect(h.eventsOf("fill")).toEqual([]);
    expect(h.eventsOf("fee").map((e) => [e.fill.tradeId, e.fee.amountMicro])).toEqual([
      ["t-000000001", 50_000n],
    ]);
    // The exchange's position already lacked the fee's shares when the baseline was read: it takes
    // them back, so baseline + inventory is still the exchange's position.
    const startup = h.eventsOf("reconcile")[0]?.summary;
    expect(startup?.reason).toBe("startup");
    expect(startup?.drifts).toEqual([]);
    await h.engine.reconcileNow();
    expect(h.eventsOf("reconcile").flatMap((e) => e.summary.drifts)).toEqual([]);
    expect(h.eventsOf("fee")).toHaveLength(1);
  });

  it("pages back only for the fills still waiting: a journaled fee's fill is not touched again", async () => {
    // Run 1: two buys; the second one's fee (0.05 share) was journaled, the first one's was not.
    const fills = [buy(1, T0), buy(2, T0 + 1_000)];
    const { h, restore } = await restarted(fills, new Map([["t-000000002", 50_000n]]));
    expect(restore.accounts.get(YES)).toMatchObject({ sizeMicro: 19_950_000n, feeSharesMicro: 50_000n });
    expect(restore.feePending.map((f) => f.tradeId)).toEqual(["t-000000001"]);
    const feed = new Map([
      ["t-000000001", { fee: "0.1", feeAsset: "shares" as const }],
      ["t-000000002", { fee: "0.05", feeAsset: "shares" as const }],
    ]);
    settle(h, feed);
    await h.engine.start();
    await h.run(1_000);
    expect(h.engine.account(YES)).toMatchObject({
      sizeMicro: 19_850_000n,
      feeSharesMicro: 150_000n,
      feesPico: 75_000_000_000n,
    });
    expect(h.eventsOf("fill")).toEqual([]);
    expect(h.eventsOf("fee").map((e) => e.fill.tradeId)).toEqual(["t-000000001"]);
  });

  it("waits for a fee that settles after the start, and gives up on one that never does", async () => {
    const fills = [buy(1, T0), buy(2, T0 + 1_000)];
    const { h } = await restarted(fills);
    const feed = new Map<string, { fee: string; feeAsset: "shares" | "usdc" }>();
    settle(h, feed);
    await h.engine.start();
    await h.run(1_000);
    expect(h.engine.account(YES).sizeMicro).toBe(20_000_000n); // nothing settled yet

    feed.set("t-000000002", { fee: "0.1", feeAsset: "usdc" });
    await h.run(30_000); // the next periodic reconcile pages back to both fills again
    expect(h.engine.account(YES)).toMatchObject({ sizeMicro: 20_000_000n, feesPico: 100_000_000_000n });

    // The other one's fee never shows up within RESTORED_FEE_WAIT_MS of its fill: no longer waited
    // for, so a fee that appears later is not counted and reconciles stop paging back for it.
    await h.run(RESTORED_FEE_WAIT_MS);
    const warned = h.logs
      .records()
      .filter((r) => r.msg === "no fee found for fills of an earlier run: their fee is not counted");
    expect(warned).toHaveLength(1);
    feed.set("t-000000001", { fee: "0.1", feeAsset: "usdc" });
    await h.engine.reconcileNow();
    expect(h.engine.account(YES).feesPico).toBe(100_000_000_000n);
    expect(h.eventsOf("fee").map((e) => e.fill.tradeId)).toEqual(["t-000000002"]);
  });

  it("a fill of this session that reuses a restored fill's ids is a new fill, not a fee", async () => {
    // A paper mock with a kept journal hands out the same seeded ids again: the ids of run 1's fill
    // come back on a new trade in this session, whose WebSocket delivery is lost.
    // (The venue's counter ids make our bid's fill below t-2 of o-3, deterministically.)
    const earlier = { ...buy(1, T0 - 120_000), tradeId: "t-000000002", orderId: "o-000000003" };
    const restore = {
      accounts: new Map([[YES, applyTrade(EMPTY_ACCOUNT, "buy", 500_000, 10_000_000n)]]),
      orders: new Map<string, string>(),
      feePending: [earlier],
    };
    const h = new Harness({ options: { restore } });
    h.crowdQuote(YES, "0.48", "0.52");
    await h.engine.start();
    await h.run(1_000);
    h.dropFills = true;
    h.take(YES, "sell", "0.47", "200"); // the crowd's bid, then our own bid
    await h.run();
    h.dropFills = false;
    expect(h.fills.map((f) => [f.tradeId, f.orderId, f.side, f.sizeMicro])).toEqual([
      [earlier.tradeId, earlier.orderId, "buy", 10_000_000n],
    ]);
    expect(h.engine.account(YES).sizeMicro).toBe(10_000_000n); // the restored 10 only
    await h.engine.reconcileNow();
    expect(h.engine.account(YES).sizeMicro).toBe(20_000_000n);
    expect(h.eventsOf("fill").map((e) => [e.fill.tradeId, e.source])).toEqual([
      [earlier.tradeId, "backfill"],
    ]);
  });
});
