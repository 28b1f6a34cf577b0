import type { TimerId } from "../../core/clock.js";
import type { TradeEvent } from "../../venue/events.js";
import { weiToString } from "../../venue/wire.js";
import type { MockContext } from "../context.js";
import { isSilenced } from "./feed-faults.js";
import type { Hub } from "./hub.js";

/** The one interval the spec's ohlc_update carries. */
export const OHLC_INTERVAL = "s5";

interface Bar {
  readonly tokenId: string;
  readonly conditionId: string;
  readonly outcomeIndex: number;
  /** Bar open time, ms since epoch, a multiple of the interval. */
  readonly time: number;
  readonly open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
}

/**
 * token_ohlc: bars of `timing.ohlcIntervalMs` (label `s5`) built from venue trades. Every trade
 * pushes the accumulating bar (isClosed false); when the bar's interval ends, a timer on the
 * mock's clock pushes it once more with isClosed true. Intervals without trades have no bar.
 * Bars accumulate whether or not anyone listens, so a late subscriber sees the whole bar.
 */
export class OhlcFeed {
  readonly #ctx: MockContext;
  readonly #hub: Hub;
  readonly #bars = new Map<string, Bar>();
  #timer: { id: TimerId; at: number } | undefined;

  constructor(ctx: MockContext, hub: Hub) {
    this.#ctx = ctx;
    this.#hub = hub;
  }

  onTrade(e: TradeEvent): void {
    const interval = this.#ctx.scenario.timing.ohlcIntervalMs;
    const time = Math.floor(e.tsMs / interval) * interval;
    let bar = this.#bars.get(e.tokenId);
    if (bar !== undefined && bar.time !== time) {
      this.#close(bar, e.tsMs);
      bar = undefined;
    }
    if (bar === undefined) {
      const p = e.price;
      bar = { ...pick(e), time, open: p, high: p, low: p, close: p, volume: 0n };
      this.#bars.set(e.tokenId, bar);
    } else {
      if (e.price > bar.high) bar.high = e.price;
      if (e.price < bar.low) bar.low = e.price;
      bar.close = e.price;
    }
    bar.volume += e.quantity;
    this.#publish(bar, false, e.tsMs);
    this.#arm();
  }

  dispose(): void {
    if (this.#timer !== undefined) this.#ctx.clock.cancelTimer(this.#timer.id);
    this.#timer = undefined;
  }

  #close(bar: Bar, tsMs: number): void {
    this.#bars.delete(bar.tokenId);
    this.#publish(bar, true, tsMs);
  }

  #publish(bar: Bar, isClosed: boolean, tsMs: number): void {
    if (isSilenced(this.#ctx.faults, bar.tokenId)) return;
    this.#hub.publish("token_ohlc", bar.tokenId, "ohlc_update", {
      tokenId: bar.tokenId,
      conditionId: bar.conditionId,
      outcomeIndex: bar.outcomeIndex,
      interval: OHLC_INTERVAL,
      time: bar.time,
      open: weiToString(bar.open),
      high: weiToString(bar.high),
      low: weiToString(bar.low),
      close: weiToString(bar.close),
      volume: weiToString(bar.volume),
      isClosed,
      tsMs,
    });
  }

  // One timer, at the earliest end among the open bars.
  #arm(): void {
    const interval = this.#ctx.scenario.timing.ohlcIntervalMs;
    let at = Number.POSITIVE_INFINITY;
    for (const bar of this.#bars.values()) at = Math.min(at, bar.time + interval);
    if (this.#timer !== undefined && this.#timer.at === at) return;
    if (this.#timer !== undefined) this.#ctx.clock.cancelTimer(this.#timer.id);
    this.#timer = undefined;
    if (at === Number.POSITIVE_INFINITY) return;
    const id = this.#ctx.clock.setTimer(at - this.#ctx.clock.now(), () => {
      this.#timer = undefined;
      const now = this.#ctx.clock.now();
      for (const bar of [...this.#bars.values()]) if (bar.time + interval <= now) this.#close(bar, now);
      this.#arm();
    });
    this.#timer = { id, at };
  }
}

function pick(e: TradeEvent): { tokenId: string; conditionId: string; outcomeIndex: number } {
  return { tokenId: e.tokenId, conditionId: e.conditionId, outcomeIndex: e.outcomeIndex };
}
