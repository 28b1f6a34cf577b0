import { afterEach, describe, expect, it } from "vitest";
import type { Address } from "../../../src/core/types.js";
import { toWei, weiToString } from "../../../src/core/wei.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { USDC } from "../../../src/venue/ledger.js";
import { type MmChild, reap } from "../../e2e/support.js";
import { quotesSettled, reconcileRuns, runChild, scrape, waitForAsync } from "../../fault/child.js";
import { ARG, pause, startWorld, venuePositions, WAIT_MS, type World } from "../../fault/harness.js";
import { OTHER, rest, SCENARIO, WALLET, waitFor } from "../daemon/support.js";

/**
 * `mm run` SIGKILLed at awkward moments — placements on the wire, the stop's cancels under way, a
 * fill not yet read, a kill-switch trip whose cancels failed — and restarted on the same journal
 * against the same exchange (the mock, in this process, outlives the child): every order the
 * exchange holds is known (adopted or cancelled, never quoting beside new ones), each fill counted
 * once, positions and cash as the exchange has them, the kill switch carried. The fault suite's
 * SIGKILL scenario covers the `cancel` restart mid-requote; these take the `adopt` one and the
 * other moments.
 */

const TAKER = SCENARIO.wallets[1]?.address.toLowerCase() as Address;
const ADOPT = { MM_RECONCILE_ON_START: "adopt" };

let world: World | undefined;
const children: MmChild[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) await reap(c);
  await world?.close();
  world = undefined;
});

/** Our best open order on a YES side (highest bid, lowest ask). */
function best(w: World, side: "buy" | "sell") {
  const o = w.venue
    .open()
    .filter((v) => v.tokenId === ARG.yesTokenId && v.side === side)
    .sort((a, b) => (side === "buy" ? Number(b.price - a.price) : Number(a.price - b.price)))[0];
  if (o === undefined) throw new Error(`no YES ${side} of ours`);
  return o;
}

/** How many of our orders rest per token, side and level (the level from the clientOrderId). */
function perLevel(w: World): Map<string, number> {
  const out = new Map<string, number>();
  for (const o of w.venue.open()) {
    const level = /-([bs]\d+)-\d+$/.exec(o.clientOrderId ?? "")?.[1] ?? `? ${o.orderId}`;
    const key = `${o.tokenId} ${level}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** Kills a child at once and waits until every request it left on the wire was served. */
async function sigkill(w: World, mm: MmChild): Promise<void> {
  mm.child.kill("SIGKILL");
  expect(await mm.exited).toBe("SIGKILL");
  await waitFor(() => w.tap.idle(), WAIT_MS, "the killed run's requests served");
}

/** Waits for `n` reconciles of a child completed after now. */
async function reconciles(metrics: string, n: number): Promise<void> {
  const from = await reconcileRuns(metrics);
  await waitForAsync(async () => (await reconcileRuns(metrics)) >= from + n, 8_000, `${n} reconciles`);
}

/** Cancel requests of a child by reason (mm_order_cancel_requests_total). */
async function cancelReasons(metrics: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [labels, v] of await scrape(metrics, "mm_order_cancel_requests_total")) {
    const reason = /reason="([^"]*)"/.exec(labels)?.[1];
    if (reason !== undefined && v > 0) out[reason] = v;
  }
  return out;
}

/** SIGTERM: exit 0 and nothing of ours left on the exchange. */
async function stopClean(w: World, mm: MmChild): Promise<void> {
  mm.child.kill("SIGTERM");
  expect(await mm.exited).toBe(0);
  expect(w.venue.open()).toEqual([]);
}

function journalRows<T>(w: World, sql: string): T[] {
  const db = openJournalDb(w.env().MM_JOURNAL_PATH as string, { mustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

describe("mm run SIGKILLed and restarted on its journal (onStart adopt)", () => {
  it("with placements unanswered on the wire: the restart finds and adopts them, quotes no level twice, cancels nothing for its own start", async () => {
    world = await startWorld();
    const w = world;
    const first = await runChild(w, "a", children, ADOPT);
    await quotesSettled(w, first.metrics, "the first run's quotes");
    // A fill moves the quotes; the requote's first two placements rest on the exchange unanswered.
    await w.admin("hang-placements", { count: 2 });
    const before = w.tap.requests.length;
    const bid = best(w, "buy");
    w.mock.context.venue.credit(TAKER, ARG.yesTokenId, toWei("100"));
    rest(w.mock, ARG, "sell", weiToString(bid.price), weiToString(bid.remaining), "YES", TAKER);
    const hung = () =>
      w.tap.requests.slice(before).filter((r) => r.clientOrderId !== undefined && r.status === undefined);
    await waitFor(() => hung().length >= 2, WAIT_MS, "two placements hung");
    await sigkill(w, first.mm);
    await w.admin("reset");
    const atKill = w.venue.open().map((o) => o.orderId);
    for (const r of hung()) expect(w.venue.open().map((o) => o.clientOrderId)).toContain(r.clientOrderId);

    const second = await runChild(w, "b", children, ADOPT);
    const started = second.mm.records.find((r) => r.msg === "engine started");
    expect(started?.adopted).toBe(atKill.length);
    await reconciles(second.metrics, 2);
    for (const [level, n] of perLevel(w)) expect(n, level).toBe(1);
    expect(w.quoting()).toBe(true);
    // What it adopted and still wants stays: no quote went for the start itself (quoting_disabled).
    expect(await cancelReasons(second.metrics)).not.toHaveProperty("quoting_disabled");
    await stopClean(w, second.mm);
  }, 40_000);

  it("during the stop's cancels (every one failing): the restart adopts what was left, doubles nothing, and its own stop leaves none", async () => {
    world = await startWorld();
    const w = world;
    const first = await runChild(w, "a", children, ADOPT);
    await quotesSettled(w, first.metrics, "the first run's quotes");
    const quoted = w.venue.open().length;
    await w.admin("fail-next", {
      count: 100,
      status: 500,
      paths: ["/api/orders/cancel", "/api/orders/cancel-all"],
    });
    const before = w.tap.requests.length;
    first.mm.child.kill("SIGTERM");
    await waitFor(
      () => w.tap.requests.slice(before).some((r) => r.path === "/api/orders/cancel-all" && r.status === 500),
      WAIT_MS,
      "the stop's cancel-all refused",
    );
    await sigkill(w, first.mm);
    await w.admin("reset");
    expect(w.venue.open()).toHaveLength(quoted);

    const second = await runChild(w, "b", children, ADOPT);
    expect(second.mm.records.find((r) => r.msg === "engine started")?.adopted).toBe(quoted);
    await reconciles(second.metrics, 2);
    for (const [level, n] of perLevel(w)) expect(n, level).toBe(1);
    await stopClean(w, second.mm);
    // The second run stopped cleanly: a third start has nothing of either run to look for.
    const runs = journalRows<{ stopped: bigint | null; open: bigint | null }>(
      w,
      "SELECT stopped_at_ms AS stopped, open_at_stop AS open FROM runs ORDER BY run_id",
    );
    expect(runs.map((r) => [r.stopped !== null, r.open])).toEqual([
      [false, null],
      [true, 0n],
    ]);
  }, 40_000);

  it("with a fill not yet read, more while down and after: each fill journaled once, positions and cash the exchange's", async () => {
    world = await startWorld();
    const w = world;
    const shares0 = venuePositions(w.mock);
    const usdc0 = w.mock.context.venue.balances(WALLET).usdc.balance;
    const first = await runChild(w, "a", children, ADOPT);
    await quotesSettled(w, first.metrics, "the first run's quotes");
    w.mock.context.venue.credit(TAKER, ARG.yesTokenId, toWei("100"));
    w.mock.context.venue.credit(TAKER, USDC, toWei("100"));
    // Part of our best bid fills, and the process dies in the same instant (the fill unread).
    const bid = best(w, "buy");
    rest(w.mock, ARG, "sell", weiToString(bid.price), "3", "YES", TAKER);
    await sigkill(w, first.mm);
    // While mm is down: more of that bid, and part of our best ask.
    rest(w.mock, ARG, "sell", weiToString(bid.price), "2", "YES", TAKER);
    const ask = best(w, "sell");
    rest(w.mock, ARG, "buy", weiToString(ask.price), "1", "YES", TAKER);

    const second = await runChild(w, "b", children, ADOPT);
    await reconciles(second.metrics, 2);
    // And once it runs again: its best bid, adopted or new.
    rest(w.mock, ARG, "sell", weiToString(best(w, "buy").price), "2", "YES", TAKER);
    await reconciles(second.metrics, 2);
    await stopClean(w, second.mm);

    const trades = w.mock.context.venue.walletTrades(WALLET, { limit: 1000 }).items;
    expect(trades).toHaveLength(4);
    const fills = journalRows<{ trade_id: string; order_id: string }>(
      w,
      "SELECT trade_id, order_id FROM fills",
    );
    const key = (t: { tradeId: string; orderId: string }) => `${t.tradeId}|${t.orderId}`;
    expect(fills.map((f) => key({ tradeId: f.trade_id, orderId: f.order_id })).sort()).toEqual(
      trades.map(key).sort(),
    );
    // The last account of each token (position, cost, realised, fees): the exchange's position, and
    // realised − fees − cost is the cash it moved (inventory-math.ts), to the micro-USDC.
    const accounts = journalRows<{
      token_id: string;
      size_micro: bigint;
      cost_pico: string;
      realised_pico: string;
      fees_pico: string;
    }>(
      w,
      `SELECT a.token_id, a.size_micro, a.cost_pico, a.realised_pico, a.fees_pico FROM accounts a
       WHERE a.id = (SELECT max(id) FROM accounts b WHERE b.token_id = a.token_id)`,
    );
    const shares = venuePositions(w.mock);
    let cashPico = 0n;
    for (const t of w.tokens) {
      const a = accounts.find((r) => r.token_id === t);
      expect(a?.size_micro ?? 0n, t).toBe((shares.get(t) ?? 0n) - (shares0.get(t) ?? 0n));
      if (a !== undefined) cashPico += BigInt(a.realised_pico) - BigInt(a.fees_pico) - BigInt(a.cost_pico);
    }
    expect(BigInt(accounts.find((r) => r.token_id === ARG.yesTokenId)?.realised_pico ?? "0")).not.toBe(0n);
    expect(cashPico).toBe((w.mock.context.venue.balances(WALLET).usdc.balance - usdc0) * 1_000_000n);
  }, 40_000);

  it("right after a kill-switch trip whose cancels failed: the restart starts tripped, cancels what rests, places nothing", async () => {
    world = await startWorld();
    const w = world;
    const env = {
      ...ADOPT,
      MM_RISK: JSON.stringify({ errorRate: { coolDownMs: 1000 }, killSwitch: { maxDrawdown: "1" } }),
    };
    const first = await runChild(w, "a", children, env);
    await quotesSettled(w, first.metrics, "the first run's quotes");
    // We buy both our bids (35 YES), then the crowd's YES book falls to 0.05/0.09 with the cancels failing.
    w.mock.context.venue.credit(TAKER, ARG.yesTokenId, toWei("100"));
    rest(w.mock, ARG, "sell", "0.50", "35", "YES", TAKER);
    await waitForAsync(
      async () => [...(await scrape(first.metrics, "mm_position_shares")).values()].some((v) => v >= 35),
      WAIT_MS,
      "the bids filled",
    );
    await w.admin("fail-next", {
      count: 100,
      status: 500,
      paths: ["/api/orders/cancel", "/api/orders/cancel-all"],
    });
    for (const o of w.mock.context.venue.openOrders(OTHER))
      if (o.tokenId === ARG.yesTokenId) w.mock.context.venue.cancel(OTHER, o.id);
    rest(w.mock, ARG, "buy", "0.05", "100", "YES");
    rest(w.mock, ARG, "sell", "0.09", "100", "YES");
    await waitForAsync(
      async () => (await scrape(first.metrics, "mm_risk_kill_switch")).get("") === 1,
      WAIT_MS,
      "the kill switch's trip",
    );
    await pause(200); // its cancel-all and single cancels answered 500
    await sigkill(w, first.mm);
    await w.admin("reset");
    const left = w.venue.open().length;
    expect(left).toBeGreaterThan(0);

    const placed = () => w.tap.requests.filter((r) => r.clientOrderId !== undefined).length;
    const placedBefore = placed();
    const second = await runChild(w, "b", children, env);
    expect(
      second.mm.records.some((r) => String(r.msg).startsWith("kill switch tripped in an earlier run")),
    ).toBe(true);
    await reconciles(second.metrics, 2);
    expect((await scrape(second.metrics, "mm_risk_kill_switch")).get("")).toBe(1);
    expect(w.venue.open()).toEqual([]);
    expect(placed()).toBe(placedBefore);
    await stopClean(w, second.mm);
  }, 40_000);
});
