import type { TimerId } from "../../core/clock.js";
import type { Address } from "../../core/types.js";
import { toWei, WEI_PER_UNIT } from "../../core/wei.js";
import type { MockContext } from "../context.js";
import type { MarketScenario } from "../scenario/types.js";
import { flowTakerAccount, fundTakerAccount } from "./accounts.js";
import { clampFairValue, stepFairValue } from "./fair-value.js";
import { fairMicro } from "./layout.js";
import { type LiquidityParams, type MakerCounts, relayMarket } from "./liquidity.js";
import type { Uniform } from "./random.js";
import { drawTaker, nextArrivalGap, takerOrder } from "./takers.js";

/** Counters of what the flow has done since it started. */
export interface FlowStats extends MakerCounts {
  steps: number;
  /** Taker orders the venue accepted (each traded at least once). */
  takerOrders: number;
  /** Trades those takers produced (one per maker order they met). */
  takerTrades: number;
  /** Takers refused by the venue (e.g. insufficient funds). */
  takerRejected: number;
  /** Takers that found the opposite side empty and sent nothing. */
  takerSkipped: number;
  /** Steps that threw (logged; the flow keeps running). */
  errors: number;
}

/** A running flow simulator. */
export interface FlowHandle {
  /** Cancels the step timer. Resting flow orders stay on the books. */
  stop(): void;
  /** A copy of the counters. */
  stats(): FlowStats;
  /** Current YES fair value of a market, in (0, 1); undefined for an unknown market. */
  fairValue(marketId: string): number | undefined;
  /** The ledger account the takers trade from (see accounts.ts). */
  readonly takerAccount: Address;
}

export interface FlowOptions {
  /** Uniform source; default ctx.random (the scenario's seeded generator). */
  readonly random?: Uniform;
}

interface MarketFlow {
  readonly market: MarketScenario;
  readonly tick: bigint;
  fair: number;
  /** Next taker arrival time (clock ms) of YES [0] and NO [1]. */
  readonly next: [number, number];
}

const OUTCOMES = ["YES", "NO"] as const;

/**
 * Starts the simulated market activity of a mock exchange (scenario.flow): per market a seeded
 * fair-value walk for YES (NO priced at 1 − YES), background levels from the flow wallet around
 * both tokens' fair values, re-laid every `stepMs` when they changed, and Poisson-arriving takers
 * per token trading from the flow's taker account against the whole book, the bot's quotes
 * included. Everything runs on ctx.clock timers and draws from one seeded source, so on a SimClock
 * the same seed gives the same venue operations. Markets not OPEN, and the whole flow while the
 * platform is frozen, are left alone (their fair values keep walking so draws stay aligned).
 * The caller decides whether to run it (createMockExchange defaults to scenario.flow.enabled);
 * this function does not read `enabled`.
 * @example
 * const flow = startFlow(ctx); // … later
 * flow.stop();
 */
export function startFlow(ctx: MockContext, opts: FlowOptions = {}): FlowHandle {
  const f = ctx.scenario.flow;
  const u = opts.random ?? ctx.random;
  const maker = f.wallet;
  const taker = flowTakerAccount(maker);
  const stats: FlowStats = {
    steps: 0,
    placed: 0,
    cancelled: 0,
    rejected: 0,
    takerOrders: 0,
    takerTrades: 0,
    takerRejected: 0,
    takerSkipped: 0,
    errors: 0,
  };
  const byId = new Map<string, MarketFlow>();
  const liquidity: LiquidityParams = {
    levels: f.levels,
    spreadTicks: f.spreadTicks,
    levelSize: toWei(f.levelSize, "flow.levelSize"),
  };
  fundTakerAccount(ctx.venue, maker, taker);
  const start = ctx.clock.now();
  const flows: MarketFlow[] = ctx.markets.all.map((market) => ({
    market,
    tick: toWei(market.tickSize, "tickSize"),
    fair: clampFairValue(Number(market.initialFairValue)),
    next: [start + nextArrivalGap(u, f.takerRatePerMin), start + nextArrivalGap(u, f.takerRatePerMin)],
  }));
  for (const m of flows) byId.set(m.market.id, m);

  const active = (m: MarketFlow) =>
    !ctx.faults.platformFrozen && ctx.venue.market(m.market.id)?.status === "OPEN";

  const relay = (m: MarketFlow) => {
    const yes = fairMicro(m.fair);
    const tokens = [
      { tokenId: m.market.yesTokenId, outcome: "YES", fair: yes },
      { tokenId: m.market.noTokenId, outcome: "NO", fair: WEI_PER_UNIT - yes },
    ];
    relayMarket(ctx.venue, maker, m.market.id, m.tick, tokens, liquidity, stats);
  };

  const take = (m: MarketFlow, outcomeIndex: 0 | 1) => {
    const draw = drawTaker(u, f);
    if (!active(m)) return;
    const tokenId = outcomeIndex === 0 ? m.market.yesTokenId : m.market.noTokenId;
    const book = ctx.venue.bookSnapshot(tokenId, 1);
    const touch = draw.side === "buy" ? book?.asks[0]?.price : book?.bids[0]?.price;
    const order = takerOrder(draw, {
      account: taker,
      marketId: m.market.id,
      outcome: OUTCOMES[outcomeIndex],
      tick: m.tick,
      touch,
    });
    if (order === undefined) {
      stats.takerSkipped++;
      return;
    }
    const result = ctx.venue.place(order);
    if (result.status === "REJECTED") stats.takerRejected++;
    else {
      stats.takerOrders++;
      stats.takerTrades += result.trades.length;
    }
  };

  const step = () => {
    stats.steps++;
    const now = ctx.clock.now();
    for (const m of flows) m.fair = stepFairValue(m.fair, f.volatilityPerStep, u);
    for (const m of flows) if (active(m)) relay(m);
    for (const m of flows) {
      for (const i of [0, 1] as const) {
        while (m.next[i] <= now) {
          take(m, i);
          m.next[i] += nextArrivalGap(u, f.takerRatePerMin);
        }
      }
    }
  };

  let stopped = false;
  let timer: TimerId | undefined;
  const tick = () => {
    if (stopped) return;
    try {
      step();
    } catch (err) {
      stats.errors++;
      ctx.log.error({ err }, "mock: flow step failed");
    } finally {
      if (!stopped) timer = ctx.clock.setTimer(f.stepMs, tick);
    }
  };

  for (const m of flows) if (active(m)) relay(m);
  timer = ctx.clock.setTimer(f.stepMs, tick);
  ctx.log.info({ markets: flows.length, takerAccount: taker, stepMs: f.stepMs }, "mock: flow started");
  return {
    stop() {
      stopped = true;
      if (timer !== undefined) ctx.clock.cancelTimer(timer);
    },
    stats: () => ({ ...stats }),
    fairValue: (id) => byId.get(id)?.fair,
    takerAccount: taker,
  };
}
