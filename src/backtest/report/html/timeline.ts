import type { Side } from "../../../core/types.js";
import type { BacktestFill } from "../../sim/bot-fills.js";
import type { BotOrder, BotOrders } from "../../sim/bot-orders.js";
import type { SimSession } from "../../sim/session.js";
import type { Recorder } from "../recorder.js";
import { round, type SeriesJson, StepSeries, Thinned } from "./downsample.js";

/** How much of a run the HTML report keeps. Every bound holds however long the run. */
export interface TimelineOptions {
  /** Points per series (equity, and per token mid, our bid, our ask, inventory). Default 1000. */
  readonly maxPoints?: number;
  /** Fill markers per token (evenly thinned beyond). Default 2000. */
  readonly maxFills?: number;
  /** Tokens charted, the most active first (fills, then quote changes, then book events). Default 6. */
  readonly maxTokens?: number;
}

/** Defaults of TimelineOptions. */
export const TIMELINE_DEFAULTS = { maxPoints: 1000, maxFills: 2000, maxTokens: 6 } as const;

/** One fill marker: [ms since start, +1 buy / −1 sell, price, quantity (shares), 0 maker / 1 taker]. */
export type FillPoint = [number, 1 | -1, number, number, 0 | 1];

/** One token's series as embedded in the report. */
export interface TokenTimeline {
  readonly tokenId: string;
  readonly marketId: string;
  readonly outcome: string;
  /**
   * The mark the summary and the equity line value the position at, price units: the exchange's
   * mid (of its last uncrossed two-sided book), bounded by the side left of a one-sided book
   * (core/mark.ts); before a two-sided book, a fill also sets it at its price; once the market
   * resolved, the payout. Charted as "mark".
   */
  readonly mid: SeriesJson;
  /** Our best resting bid and ask at the venue, price units (null: no order on that side). */
  readonly bid: SeriesJson;
  readonly ask: SeriesJson;
  /** Position relative to the start, shares. */
  readonly inventory: SeriesJson;
  readonly fills: { readonly total: number; readonly stride: number; readonly points: FillPoint[] };
  readonly activity: { readonly fills: number; readonly quoteChanges: number; readonly bookEvents: number };
}

/** Everything the charts draw. */
export interface TimelineData {
  readonly startMs: number;
  readonly endMs: number;
  /** Total PnL (cash + positions at the mark), USDC. */
  readonly equity: SeriesJson;
  /** The charted tokens, most active first. */
  readonly tokens: TokenTimeline[];
  /** Tokens of the run left out by maxTokens. */
  readonly omittedTokens: number;
  readonly limits: { readonly maxPoints: number; readonly maxFills: number; readonly maxTokens: number };
}

interface TokenState {
  readonly meta: { tokenId: string; marketId: string; outcome: string };
  readonly mid: StepSeries;
  readonly bid: StepSeries;
  readonly ask: StepSeries;
  readonly inventory: StepSeries;
  readonly fills: Thinned<FillPoint>;
  /** Resting prices (micro) of our orders → how many orders rest there. */
  readonly buys: Map<bigint, number>;
  readonly sells: Map<bigint, number>;
  quoteChanges: number;
  bookEvents: number;
}

/**
 * Samples what the HTML report charts, from the same hooks as the Recorder and after it (so the
 * accountant and the marks it reads are current): the total PnL at every observation of the
 * Recorder's equity curve (after each market event, fill and resolution), per token the mark (the
 * Recorder's: the mid, bounded by a one-sided book; fills' prices too before a two-sided book; the
 * payout once resolved), our best resting bid and ask (the bot's orders as the venue holds them),
 * the position and the fills. Optional: a run without an HTML report creates none, so the JSON summary
 * and the replay's speed do not depend on it. Memory: O(tokens × maxPoints + tokens × maxFills).
 */
export class Timeline {
  readonly #recorder: Recorder;
  readonly #startMs: number;
  readonly #limits: { maxPoints: number; maxFills: number; maxTokens: number };
  readonly #equity: StepSeries;
  readonly #tokens = new Map<string, TokenState>();
  #endMs: number | undefined;

  /** Attach after the Recorder of the same session (hook order matters). */
  constructor(
    session: SimSession,
    bot: BotOrders,
    recorder: Recorder,
    startMs: number,
    opts: TimelineOptions = {},
  ) {
    this.#recorder = recorder;
    this.#startMs = startMs;
    this.#limits = {
      maxPoints: positive(opts.maxPoints, TIMELINE_DEFAULTS.maxPoints),
      maxFills: positive(opts.maxFills, TIMELINE_DEFAULTS.maxFills),
      maxTokens: positive(opts.maxTokens, TIMELINE_DEFAULTS.maxTokens),
    };
    const series = () => new StepSeries(startMs, this.#limits.maxPoints);
    // PnL and positions are relative to the start: both are 0 there.
    this.#equity = series();
    this.#equity.add(startMs, 0);
    for (const t of session.markets.tokens) {
      const inventory = series();
      inventory.add(startMs, 0);
      this.#tokens.set(t.tokenId, {
        meta: { tokenId: t.tokenId, marketId: t.marketId, outcome: t.outcome },
        mid: series(),
        bid: series(),
        ask: series(),
        inventory,
        fills: new Thinned(this.#limits.maxFills),
        buys: new Map(),
        sells: new Map(),
        quoteChanges: 0,
        bookEvents: 0,
      });
    }
    const clock = session.clock;
    // The equity chart draws the very points max drawdown is measured over.
    recorder.onEquity((t, equity2) => {
      if (this.#endMs === undefined) this.#equity.add(t, usdc2(equity2));
    });
    session.bookApplied.push((tokenId) => this.#book(tokenId, clock.now()));
    // A resolution marks the token at its payout: its mid line steps there.
    session.settled.push((tokenId) => this.#mid(tokenId, clock.now()));
    session.filled.push((f) => this.#fill(f));
    bot.onJoin((o) => this.#quote(o, 1, clock.now()));
    bot.onLeave((o) => this.#quote(o, -1, clock.now()));
  }

  /** Freezes the series at `endMs` (call with the same time as Recorder.close). */
  close(endMs: number): void {
    if (this.#endMs !== undefined) return;
    const end = Math.max(endMs, this.#startMs);
    this.#endMs = end;
    this.#equity.add(end, usdc2(this.#recorder.equity2));
    this.#equity.finish(end);
    for (const s of this.#tokens.values()) {
      for (const x of [s.mid, s.bid, s.ask, s.inventory]) x.finish(end);
    }
  }

  /** The charted data: the `maxTokens` most active tokens (ties: the run's token order). */
  data(): TimelineData {
    const endMs = this.#endMs ?? this.#startMs;
    const all = [...this.#tokens.values()];
    const ranked = all
      .map((s, i) => ({ s, i }))
      .sort(
        (a, b) =>
          b.s.fills.seen - a.s.fills.seen ||
          b.s.quoteChanges - a.s.quoteChanges ||
          b.s.bookEvents - a.s.bookEvents ||
          a.i - b.i,
      )
      .slice(0, this.#limits.maxTokens)
      .map(({ s }) => s);
    return {
      startMs: this.#startMs,
      endMs,
      equity: this.#equity.json(6),
      tokens: ranked.map((s) => ({
        ...s.meta,
        mid: s.mid.json(6),
        bid: s.bid.json(6),
        ask: s.ask.json(6),
        inventory: s.inventory.json(6),
        fills: { total: s.fills.seen, stride: s.fills.stride, points: [...s.fills.items] },
        activity: { fills: s.fills.seen, quoteChanges: s.quoteChanges, bookEvents: s.bookEvents },
      })),
      omittedTokens: all.length - ranked.length,
      limits: { ...this.#limits },
    };
  }

  #book(tokenId: string, now: number): void {
    if (this.#endMs !== undefined) return;
    const s = this.#tokens.get(tokenId);
    if (s === undefined) return;
    s.bookEvents++;
    this.#mid(tokenId, now);
  }

  #mid(tokenId: string, now: number): void {
    if (this.#endMs !== undefined) return;
    const s = this.#tokens.get(tokenId);
    const mid2 = this.#recorder.mid2(tokenId);
    if (s !== undefined && mid2 !== undefined) s.mid.add(now, Number(mid2) / 2e6);
  }

  #fill(f: BacktestFill): void {
    if (this.#endMs !== undefined) return;
    const s = this.#tokens.get(f.tokenId);
    if (s === undefined) return;
    const q = this.#recorder.accountant.ledger(f.tokenId).q;
    s.inventory.add(f.tsMs, Number(q) / 1e6);
    // A token without an uncrossed two-sided book is marked at its last fill (Recorder): the line
    // steps there now, as the equity line does, not at the next book frame (or never, if none).
    this.#mid(f.tokenId, f.tsMs);
    s.fills.add([
      Math.max(0, f.tsMs - this.#startMs),
      f.side === "buy" ? 1 : -1,
      round(Number(f.price) / 1e6, 6),
      round(Number(f.quantity) / 1e6, 6),
      f.role === "maker" ? 0 : 1,
    ]);
  }

  #quote(o: BotOrder, delta: 1 | -1, now: number): void {
    if (this.#endMs !== undefined) return;
    const s = this.#tokens.get(o.tokenId);
    if (s === undefined) return;
    s.quoteChanges++;
    const prices = o.side === "buy" ? s.buys : s.sells;
    const n = (prices.get(o.price) ?? 0) + delta;
    if (n > 0) prices.set(o.price, n);
    else prices.delete(o.price);
    const best = bestPrice(prices, o.side);
    (o.side === "buy" ? s.bid : s.ask).add(now, best === undefined ? Number.NaN : Number(best) / 1e6);
  }
}

/** Highest resting buy or lowest resting sell, micro. */
function bestPrice(prices: ReadonlyMap<bigint, number>, side: Side): bigint | undefined {
  let best: bigint | undefined;
  for (const p of prices.keys()) {
    if (best === undefined || (side === "buy" ? p > best : p < best)) best = p;
  }
  return best;
}

// Half-pico-USDC (the Recorder's equity unit) to USDC, for plotting only.
function usdc2(value2: bigint): number {
  return Number(value2) / 2e12;
}

function positive(v: number | undefined, dflt: number): number {
  return v === undefined || !Number.isFinite(v) || v < 1 ? dflt : Math.floor(v);
}
