import { markAfterBook2 } from "../../core/mark.js";
import type { ReportSettings } from "../settings.js";
import type { BotOrders } from "../sim/bot-orders.js";
import type { SimSession } from "../sim/session.js";
import { Accountant, PICO } from "./accountant.js";
import { EquityCurve, type SharpeFigures } from "./equity.js";
import { type InventoryFigures, InventoryStats } from "./inventory.js";
import { type MarkoutFigures, Markouts } from "./markouts.js";
import { QuoteUptime } from "./uptime.js";

/** Everything the summary reports, frozen at the end of the data. */
export interface RunFigures {
  readonly startMs: number;
  readonly endMs: number;
  readonly accountant: Accountant;
  /**
   * Per token, twice the mark (micro): the live engine's (core/mark.ts markAfterBook2), bid + ask
   * of the last uncrossed two-sided exchange book, bounded by the side left of a one-sided one;
   * before a two-sided book, a fill sets it at its price.
   */
  readonly marks2: ReadonlyMap<string, bigint>;
  readonly equity2: bigint;
  readonly maxDrawdown2: bigint;
  readonly sharpe: SharpeFigures;
  readonly inventory: ReadonlyMap<string, InventoryFigures>;
  readonly uptime: ReadonlyMap<string, number>;
  readonly markouts: readonly MarkoutFigures[];
}

/**
 * Measures one simulation from the exchange's side: the bot's fills (accounting, inventory,
 * markouts), the market's mid (marks, equity curve) and the bot's resting orders (quote uptime).
 * Every figure covers [startMs, endMs]; `close` freezes them before the engine is stopped.
 */
export class Recorder {
  readonly accountant = new Accountant();
  readonly #equity: EquityCurve;
  readonly #inventory: InventoryStats;
  readonly #uptime: QuoteUptime;
  readonly #markouts: Markouts;
  readonly #mid2 = new Map<string, bigint>();
  /** Tokens whose exchange book has been two-sided and uncrossed: from then on only books mark them, not fills. */
  readonly #twoSided = new Set<string>();
  /** Tokens of a resolved market: marked at their payout for good. */
  readonly #paid = new Set<string>();
  readonly #startMs: number;
  readonly #equityListeners: ((t: number, equity2: bigint) => void)[] = [];
  /** Inside a market event (between `beforeMarket` and `afterMarket`). */
  #inMarket = false;
  /** A fill of the current market event whose equity is not observed yet. */
  #fillPending = false;
  #closed = false;

  constructor(session: SimSession, bot: BotOrders, settings: ReportSettings, startMs: number) {
    const tokens = session.markets.tokens.map((t) => t.tokenId);
    this.#startMs = startMs;
    this.#equity = new EquityCurve(startMs, settings.sharpeIntervalMs);
    this.#inventory = new InventoryStats(startMs, tokens);
    this.#uptime = new QuoteUptime(startMs, tokens);
    this.#markouts = new Markouts(settings.markoutsMs);
    const clock = session.clock;
    session.beforeMarket.push((now) => {
      this.#inMarket = true;
      if (!this.#closed) this.#markouts.resolve(now, (t) => this.#mid2.get(t));
    });
    // A fill a market event causes (its book coming onto our order, a print) is booked while the
    // event acts, before its book reaches the marks: its equity is observed once the event is
    // done, or it would value the new position at the mid the event replaced (a PnL the run never
    // had, a phantom peak for the drawdown).
    session.afterMarket.push((now) => {
      this.#inMarket = false;
      if (this.#fillPending) this.#observe(now);
    });
    session.settled.push((tokenId, payoutMicro) => {
      this.#paid.add(tokenId);
      this.#mid2.set(tokenId, 2n * BigInt(payoutMicro));
      this.#observe(clock.now());
    });
    session.bookApplied.push((tokenId) => {
      if (!this.#paid.has(tokenId)) {
        const b = session.books.book(tokenId);
        const bid = b.bids.bestPrice();
        const ask = b.asks.bestPrice();
        // The live engine's rule (core/mark.ts): the mid of a two-sided uncrossed book; one side
        // left bounds the last mark (a long is worth no more than the ask); a crossed, locked or
        // empty book marks nothing.
        const last = this.#mid2.get(tokenId);
        const mark2 = markAfterBook2(last === undefined ? undefined : Number(last), bid, ask);
        if (mark2 !== undefined) this.#mid2.set(tokenId, BigInt(mark2));
        if (bid !== undefined && ask !== undefined && bid < ask) this.#twoSided.add(tokenId);
      }
      this.#observe(clock.now());
    });
    session.filled.push((f) => {
      if (this.#closed) return;
      // Markouts due before this fill take the mark as it stands: the fill may move it (below).
      this.#markouts.resolve(f.tsMs, (t) => this.#mid2.get(t));
      this.accountant.apply(f);
      // No uncrossed two-sided book yet: the last trade is the best price there is (the first one would
      // value the position, and mark out every later fill, at a price the market has left; a one-sided
      // book since bounds it at its next change).
      if (!this.#twoSided.has(f.tokenId) && !this.#paid.has(f.tokenId))
        this.#mid2.set(f.tokenId, 2n * f.price);
      this.#inventory.update(f.tokenId, f.tsMs, this.accountant.ledger(f.tokenId).q);
      this.#markouts.add(f);
      if (this.#inMarket) this.#fillPending = true;
      else this.#observe(f.tsMs);
    });
    bot.onJoin((o) => {
      if (!this.#closed) this.#uptime.change(o.tokenId, o.side, 1, clock.now());
    });
    bot.onLeave((o) => {
      if (!this.#closed) this.#uptime.change(o.tokenId, o.side, -1, clock.now());
    });
  }

  /**
   * Mark of a token, micro, twice (bid + ask of a two-sided book): the live engine's rule
   * (core/mark.ts markAfterBook2: the mid of its last two-sided book with bid < ask, bounded since
   * by the side left of a one-sided one); until its book has been two-sided, a fill also sets it,
   * at twice its price; once its market resolved with payouts, twice its payout.
   */
  mid2(tokenId: string): bigint | undefined {
    return this.#mid2.get(tokenId);
  }

  /** Total PnL as last observed (after the latest market event or fill), half-pico-USDC. */
  get equity2(): bigint {
    return this.#equity.equity2;
  }

  /**
   * Calls `fn` with every observation of the equity curve (time, total PnL in half-pico-USDC): the
   * points max drawdown and the Sharpe ratio are taken from, the end of the run included.
   */
  onEquity(fn: (t: number, equity2: bigint) => void): void {
    this.#equityListeners.push(fn);
  }

  /** Freezes every figure at `endMs` (later fills, if any, are not counted). */
  close(endMs: number): RunFigures {
    const end = Math.max(endMs, this.#startMs);
    this.#observe(end);
    this.#equity.finish(end);
    const markouts = this.#markouts.finish(
      end,
      (t) => this.#mid2.get(t),
      (t) => (this.#paid.has(t) ? this.#mid2.get(t) : undefined),
    );
    this.#closed = true;
    return {
      startMs: this.#startMs,
      endMs: end,
      accountant: this.accountant,
      marks2: new Map(this.#mid2),
      equity2: this.#equity.equity2,
      maxDrawdown2: this.#equity.maxDrawdown2,
      sharpe: this.#equity.sharpe(),
      inventory: this.#inventory.figures(end),
      uptime: this.#uptime.fractions(end),
      markouts,
    };
  }

  #observe(t: number): void {
    if (this.#closed) return;
    this.#fillPending = false;
    const e = this.#equityNow();
    this.#equity.observe(t, e);
    for (const fn of this.#equityListeners) fn(t, e);
  }

  #equityNow(): bigint {
    let e = 2n * this.accountant.cash * PICO;
    for (const [tokenId, t] of this.accountant.tokens) {
      if (t.q !== 0n) e += t.q * (this.#mid2.get(tokenId) ?? 0n);
    }
    return e;
  }
}
