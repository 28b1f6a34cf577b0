import { microToString } from "../../book/micro.js";
import type { Logger } from "../../observability/logger.js";
import { Timeline, type TimelineData, type TimelineOptions } from "../report/html/timeline.js";
import { Recorder } from "../report/recorder.js";
import { buildRunSummary, type RunSummary } from "../report/summary.js";
import type { BacktestFill } from "../sim/bot-fills.js";
import { BotOrders } from "../sim/bot-orders.js";
import { buildMarkets } from "../sim/markets.js";
import { SimSession } from "../sim/session.js";
import { IntensityFlow } from "./intensity-flow.js";
import { MidProcess } from "./mid-process.js";
import { seededUniform } from "./rng.js";
import { EDGE_MICRO, type Scenario } from "./scenario.js";

/** The synthetic token and its condition. */
export const SYNTHETIC_TOKEN = "1";
export const SYNTHETIC_CONDITION = `0x${"0".repeat(63)}1`;

/** One Monte-Carlo path's outcome. */
export interface PathResult {
  readonly path: number;
  readonly summary: RunSummary;
  /** Orders still open after the engine stopped (0 = clean). */
  readonly openAtEnd: number;
  /**
   * Book frames whose mid lay nearer 0 or 1 than EDGE_MICRO, so the book showed it at that distance
   * instead (only an unbounded process gets there; always 0 for a bounded one).
   */
  readonly clampedSteps: number;
  /** The HTML report's series, when `timeline` was asked for. */
  readonly timeline?: TimelineData;
}

/**
 * Runs path `path` of a scenario: the mid follows the seeded process, each step (every dtMs) the
 * intensity flow first hits the bot's resting quotes at the mid that held during the step, then the
 * mid moves and a book_update frame carries it to the engine. The synthetic book has one level per
 * side placed symmetrically as far out as the price band allows, so its mid is exactly the
 * process's mid (to the micro-unit) and strategies are never clamped by it. The engine, its queue,
 * risk guard and reconciler, and the venue are the same as in a replay.
 */
export async function runPath(
  sc: Scenario,
  path: number,
  opts: {
    logger?: Logger;
    onFill?: (f: BacktestFill) => void;
    timeline?: TimelineOptions;
    /** Called after each book frame the engine took (progress within a long path). */
    onFrame?: () => void;
  } = {},
): Promise<PathResult> {
  const start = sc.startMs;
  const markets = buildMarkets([
    {
      tokenId: SYNTHETIC_TOKEN,
      conditionId: SYNTHETIC_CONDITION,
      marketId: "synthetic",
      tickMicro: sc.market.tickMicro,
      minSizeMicro: sc.market.minSizeMicro,
      feeTakerBps: sc.market.feeTakerBps,
      ...(sc.market.closesAtHorizon ? { closesAtMs: start + sc.horizonMs } : {}),
    },
  ]);
  const session = new SimSession({
    settings: sc,
    markets,
    startMs: start - 1_000,
    seed: sc.seed * 1_000_003 + path,
    ...(opts.logger === undefined ? {} : { logger: opts.logger }),
  });
  const bot = new BotOrders();
  session.venueEvents.push((e) => bot.onVenueEvent(e));
  const recorder = new Recorder(session, bot, sc.report, start);
  if (opts.onFill !== undefined) session.filled.push(opts.onFill);
  const timeline =
    opts.timeline === undefined ? undefined : new Timeline(session, bot, recorder, start, opts.timeline);
  const market = markets.tokens[0] as (typeof markets.tokens)[number];
  const flow = new IntensityFlow(session.venue, bot, market, sc.fills, seededUniform(sc.seed, path, "fills"));
  const mid = new MidProcess(sc.process, seededUniform(sc.seed, path, "mid"));
  const dt = sc.process.dtMs;
  const steps = sc.horizonMs / dt;

  await session.start();
  await session.pump.advanceTo(start);
  let clampedSteps = 0;
  const frame = (type: "book_snapshot" | "book_update", seq: number, m: number, t: number) => {
    if (bookMicro(m) !== Math.round(m * 1_000_000)) clampedSteps++;
    session.marketFrame(bookFrame(type, seq, m, sc.bookSizeMicro, t));
    opts.onFrame?.();
  };
  frame("book_snapshot", 1, mid.value, start);
  for (let n = 1; n <= steps; n++) {
    const t = start + n * dt;
    await session.pump.advanceTo(t);
    const mid2 = recorder.mid2(SYNTHETIC_TOKEN) ?? 0n;
    flow.step(dt / 1000, mid2);
    frame("book_update", n + 1, mid.step(), t);
  }
  const end = start + steps * dt;
  await session.pump.advanceTo(end);
  const figures = recorder.close(end);
  timeline?.close(end);
  const stopped = await session.finish();
  return {
    path,
    summary: buildRunSummary(figures, markets.tokens, session.exchange.counts),
    openAtEnd: stopped.openOrders,
    clampedSteps,
    ...(timeline === undefined ? {} : { timeline: timeline.data() }),
  };
}

/**
 * A token_book frame of the synthetic book around `mid` (price units): one level a side, symmetric
 * and as wide as the (0, 1) band allows. A mid nearer an edge than EDGE_MICRO (only an unbounded
 * process gets there) is shown at EDGE_MICRO from it, so the book stays two-sided.
 */
export function bookFrame(
  type: "book_snapshot" | "book_update",
  seq: number,
  mid: number,
  size: bigint,
  tsMs: number,
) {
  const m = bookMicro(mid);
  const w = Math.max(0, Math.min(m, 1_000_000 - m) - 1);
  const sz = microToString(size);
  const data: Record<string, unknown> = {
    tokenId: SYNTHETIC_TOKEN,
    conditionId: SYNTHETIC_CONDITION,
    outcomeIndex: 0,
    seq,
    ...(type === "book_update" ? { prevSeq: seq - 1 } : {}),
    bids: [{ price: microToString(m - w), size: sz }],
    asks: [{ price: microToString(m + w), size: sz }],
    tsMs,
  };
  return { type, sid: 1, channel: "token_book", id: SYNTHETIC_TOKEN, data };
}

/** The mid the synthetic book shows for `mid` (price units), micro-units: kept EDGE_MICRO from 0 and 1. */
function bookMicro(mid: number): number {
  return Math.min(1_000_000 - EDGE_MICRO, Math.max(EDGE_MICRO, Math.round(mid * 1_000_000)));
}
