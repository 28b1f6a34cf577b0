import { describe, expect, it } from "vitest";
import type { MockContext } from "../../../src/mock/context.js";
import { flowTakerAccount } from "../../../src/mock/flow/accounts.js";
import { startFlow } from "../../../src/mock/flow/start-flow.js";
import type { VenueEvent } from "../../../src/venue/events.js";
import { recordingContext, scenario, simContext, type VenueCall } from "./sim-support.js";

const MINUTE = 60_000;

function run(seed: number, minutes: number): { log: VenueCall[]; events: VenueEvent[]; ctx: MockContext } {
  const { ctx: base, clock } = simContext(scenario({ seed }));
  const log: VenueCall[] = [];
  const ctx = recordingContext(base, log);
  const events: VenueEvent[] = [];
  ctx.venue.subscribe((e) => events.push(e));
  const flow = startFlow(ctx);
  clock.advanceBy(minutes * MINUTE);
  flow.stop();
  return { log, events, ctx };
}

describe("flow simulator on a SimClock", () => {
  it("replays the same venue operations for the same seed, and others for another seed", () => {
    const a = run(7, 3);
    const b = run(7, 3);
    const c = run(8, 3);
    expect(a.log.length).toBeGreaterThan(1_000);
    expect(b.log).toEqual(a.log);
    expect(b.events.length).toBe(a.events.length);
    expect(c.log).not.toEqual(a.log);
  });

  it("keeps both sides of every open book around fair value, on tick, and leaves paused markets alone", () => {
    const { ctx, clock } = simContext();
    const flow = startFlow(ctx);
    clock.advanceBy(2 * MINUTE);
    const { levels, spreadTicks } = ctx.scenario.flow;
    for (const m of ctx.markets.all) {
      const status = ctx.venue.market(m.id)?.status;
      const tick = BigInt(Math.round(Number(m.tickSize) * 1e6));
      const fairYes = BigInt(Math.round((flow.fairValue(m.id) ?? Number.NaN) * 1e6));
      for (const [token, fair] of [
        [m.yesTokenId, fairYes],
        [m.noTokenId, 1_000_000n - fairYes],
      ] as const) {
        const book = ctx.venue.bookSnapshot(token, 100);
        if (status !== "OPEN") {
          expect(book?.bids.length).toBe(0);
          expect(book?.asks.length).toBe(0);
          continue;
        }
        const bids = book?.bids ?? [];
        const asks = book?.asks ?? [];
        expect(bids.length).toBeGreaterThanOrEqual(levels - 1);
        expect(asks.length).toBeGreaterThanOrEqual(levels - 1);
        const reach = BigInt(spreadTicks + 1) * tick;
        expect(bids[0]?.price ?? 0n).toBeLessThan(fair);
        expect(bids[0]?.price ?? 0n).toBeGreaterThanOrEqual(fair - reach);
        expect(asks[0]?.price ?? 0n).toBeGreaterThan(fair);
        expect(asks[0]?.price ?? 0n).toBeLessThanOrEqual(fair + reach);
        for (const l of [...bids, ...asks]) expect(l.price % tick).toBe(0n);
      }
    }
    flow.stop();
  });

  it("sends Poisson takers at the configured rate that trade without cancelling the flow's own levels", () => {
    const minutes = 6;
    const { events, ctx } = run(scenario().seed, minutes);
    const open = ctx.markets.all.filter((m) => ctx.venue.market(m.id)?.status === "OPEN").length;
    const takers = events.filter(
      (e) => e.type === "order_placed" && e.order.userWallet === flowTakerAccount(ctx.scenario.flow.wallet),
    ).length;
    const expected = open * 2 * ctx.scenario.flow.takerRatePerMin * minutes;
    expect(Math.abs(takers - expected) / expected).toBeLessThan(0.08);
    const trades = events.filter((e) => e.type === "trade");
    expect(trades.length).toBeGreaterThanOrEqual(takers);
    const selfTrade = events.filter((e) => e.type === "order_cancelled" && e.reason === "self_trade");
    expect(selfTrade).toEqual([]);
    // Taker leftovers never rest: every taker order ends FILLED or CANCELLED (IOC remainder).
    const placedTaker = events.filter(
      (e) => e.type === "order_placed" && e.order.userWallet === flowTakerAccount(ctx.scenario.flow.wallet),
    );
    expect(placedTaker.every((e) => e.type === "order_placed" && e.order.timeInForce === "ioc")).toBe(true);
    expect(ctx.venue.openOrders(flowTakerAccount(ctx.scenario.flow.wallet))).toEqual([]);
  });

  it("splits the flow wallet with its taker account without minting anything", () => {
    const { ctx } = simContext();
    const maker = ctx.scenario.flow.wallet;
    const before = ctx.venue.balances(maker).usdc.balance;
    const flow = startFlow(ctx);
    const taker = ctx.venue.balances(flow.takerAccount).usdc.balance;
    const reserved = ctx.venue.balances(maker).usdc.reserved;
    expect(taker).toBe(before / 2n);
    expect(ctx.venue.balances(maker).usdc.balance + taker).toBe(before);
    expect(reserved).toBeGreaterThan(0n); // the levels are laid at once, before the first step
    flow.stop();
    // A restarted flow keeps the split instead of halving again.
    startFlow(ctx).stop();
    expect(ctx.venue.balances(flow.takerAccount).usdc.balance).toBe(taker);
  });

  it("does nothing while the platform is frozen or after stop, and resumes after unfreeze", () => {
    const { ctx: base, clock } = simContext();
    const log: VenueCall[] = [];
    const ctx = recordingContext(base, log);
    const flow = startFlow(ctx);
    clock.advanceBy(MINUTE);
    ctx.faults.platformFrozen = true;
    const frozenAt = log.length;
    clock.advanceBy(MINUTE);
    expect(log.length).toBe(frozenAt);
    ctx.faults.platformFrozen = false;
    clock.advanceBy(MINUTE);
    expect(log.length).toBeGreaterThan(frozenAt);
    flow.stop();
    const stoppedAt = log.length;
    clock.advanceBy(MINUTE);
    expect(log.length).toBe(stoppedAt);
    expect(flow.stats().errors).toBe(0);
    expect(flow.stats().rejected).toBe(0);
  });

  it("stops quoting a market when it is paused and re-lays it when it reopens", () => {
    const { ctx, clock } = simContext();
    const flow = startFlow(ctx);
    const m = ctx.markets.bySymbol("PENALTIES");
    if (m === undefined) throw new Error("scenario lacks PENALTIES");
    clock.advanceBy(MINUTE);
    ctx.venue.setMarketStatus(m.id, "PAUSED", { cancelOpenOrders: true });
    clock.advanceBy(MINUTE);
    expect(ctx.venue.openOrders(ctx.scenario.flow.wallet, m.id)).toEqual([]);
    ctx.venue.setMarketStatus(m.id, "OPEN");
    clock.advanceBy(ctx.scenario.flow.stepMs);
    const resting = ctx.venue.openOrders(ctx.scenario.flow.wallet, m.id);
    expect(resting.length).toBe(4 * ctx.scenario.flow.levels);
    // PENALTIES has a 0.001 tick: every level is on it.
    expect(resting.every((o) => o.price % 1_000n === 0n)).toBe(true);
    flow.stop();
  });
});
