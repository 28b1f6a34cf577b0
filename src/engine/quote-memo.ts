import type { Decimal } from "decimal.js";
import type { BookView, QueueAhead, WireLevel } from "../book/order-book.js";
import type { BookSide, Level, LevelsView } from "../book/price-levels.js";
import type { GateReason, RiskDecision } from "../risk/decision.js";
import type { SideLimits } from "../risk/inventory-caps.js";

/** What a strategy read of its context in a quoting step, as bits. */
const PRICES = 1;
const SIZES = 2;
const DEEP = 4;
const TIME = 8;
const VOL = 16;

/**
 * The read a step depends on when the risk guard judged desired quotes against the touch (a quote
 * through it is dropped): the best prices, whatever the strategy itself read.
 */
export const TOUCH_READ = PRICES;

/**
 * The token's book as a strategy sees it: every query answered by the real book, each noted by
 * what it depends on — the best prices (mid, spread, a best level's price), the best sizes
 * (microprice, a best level's size), or anything deeper (levels, depth, queue estimates: the
 * whole book). One per token, reused step after step.
 */
export class WatchedBook implements BookView {
  reads = 0;
  #book: BookView;
  readonly bids: LevelsView;
  readonly asks: LevelsView;

  constructor(book: BookView) {
    this.#book = book;
    this.bids = new WatchedLevels(this, "bid");
    this.asks = new WatchedLevels(this, "ask");
  }

  /** The book answering the queries. */
  get book(): BookView {
    return this.#book;
  }

  /** Points the view at the token's current book and clears what was read. */
  watch(book: BookView): void {
    this.#book = book;
    this.reads = 0;
  }

  /** The strategy read the clock time (the context's getter calls this). */
  noteTime(): void {
    this.reads |= TIME;
  }

  /** The strategy read σ. */
  noteVolatility(): void {
    this.reads |= VOL;
  }

  get tokenId(): string {
    return this.#book.tokenId;
  }
  bestBid(): Level | undefined {
    return watchedLevel(this, this.#book.bestBid());
  }
  bestAsk(): Level | undefined {
    return watchedLevel(this, this.#book.bestAsk());
  }
  isCrossed(): boolean {
    this.reads |= PRICES;
    return this.#book.isCrossed();
  }
  spread(): number | undefined {
    this.reads |= PRICES;
    return this.#book.spread();
  }
  mid(): Decimal | undefined {
    this.reads |= PRICES;
    return this.#book.mid();
  }
  microprice(): Decimal | undefined {
    this.reads |= PRICES | SIZES;
    return this.#book.microprice();
  }
  depthAt(side: BookSide, price: number): bigint {
    this.reads |= DEEP;
    return this.#book.depthAt(side, price);
  }
  depthThrough(side: BookSide, price: number): bigint {
    this.reads |= DEEP;
    return this.#book.depthThrough(side, price);
  }
  sizeAhead(side: BookSide, price: number): QueueAhead {
    this.reads |= DEEP;
    return this.#book.sizeAhead(side, price);
  }
  top(side: BookSide, n: number): Level[] {
    this.reads |= DEEP;
    return this.#book.top(side, n);
  }
  toWire(depth?: number): { bids: WireLevel[]; asks: WireLevel[] } {
    this.reads |= DEEP;
    return this.#book.toWire(depth);
  }
  equals(other: BookView): boolean {
    this.reads |= DEEP;
    return this.#book.equals(other);
  }
}

/** One side of a WatchedBook. */
class WatchedLevels implements LevelsView {
  readonly side: BookSide;
  readonly #owner: WatchedBook;

  constructor(owner: WatchedBook, side: BookSide) {
    this.#owner = owner;
    this.side = side;
  }

  get #levels(): LevelsView {
    return this.side === "bid" ? this.#owner.book.bids : this.#owner.book.asks;
  }
  get length(): number {
    this.#owner.reads |= DEEP;
    return this.#levels.length;
  }
  bestPrice(): number | undefined {
    this.#owner.reads |= PRICES;
    return this.#levels.bestPrice();
  }
  bestSize(): bigint | undefined {
    this.#owner.reads |= SIZES;
    return this.#levels.bestSize();
  }
  at(rank: number): Level | undefined {
    if (rank === 0) return watchedLevel(this.#owner, this.#levels.at(0));
    this.#owner.reads |= DEEP;
    return this.#levels.at(rank);
  }
  sizeAt(price: number): bigint {
    this.#owner.reads |= DEEP;
    return this.#levels.sizeAt(price);
  }
  sizeBetterThan(price: number): bigint {
    this.#owner.reads |= DEEP;
    return this.#levels.sizeBetterThan(price);
  }
  sizeThrough(price: number): bigint {
    this.#owner.reads |= DEEP;
    return this.#levels.sizeThrough(price);
  }
  top(n: number): Level[] {
    this.#owner.reads |= DEEP;
    return this.#levels.top(n);
  }
  equals(other: LevelsView): boolean {
    this.#owner.reads |= DEEP;
    return this.#levels.equals(other);
  }
}

// A best level whose price and size are noted when read (most strategies use only the price).
function watchedLevel(owner: WatchedBook, level: Level | undefined): Level | undefined {
  owner.reads |= PRICES; // whether there is a best level at all
  if (level === undefined) return undefined;
  return {
    get price() {
      owner.reads |= PRICES;
      return level.price;
    },
    get size() {
      owner.reads |= SIZES;
      return level.size;
    },
  };
}

/** Everything a quoting step depends on, as cheap values (see QuoteMemo). */
export interface StepInputs {
  readonly enabled: boolean;
  readonly gate: GateReason | undefined;
  /** Identities: the engine replaces these objects when they change. */
  readonly market: object;
  readonly bookState: object | undefined;
  readonly book: BookView | undefined;
  /**
   * The book as the strategy reads it — `book` without our own orders (bookWithout). Its touch is
   * what a remembered step is compared on: when our quote is the book's best level, the market
   * moving behind it changes what the strategy sees but not the book's best level.
   */
  readonly net: BookView | undefined;
  readonly positionMicro: bigint;
  readonly marketGrossMicro: bigint;
  readonly totalGrossMicro: bigint;
  /**
   * The worst-case grosses the hard caps read (the other tokens' orders: InventoryExposure). They
   * move with every placement and cancel of any token: see QuoteMemo.within.
   */
  readonly marketWorstMicro: bigint | undefined;
  readonly totalWorstMicro: bigint | undefined;
  /** The order store's version of the token's orders. */
  readonly orders: number;
  readonly nowMs: number;
  /** σ as the strategy would see it. */
  readonly volatility: number | undefined;
}

/**
 * The last quoting step of a token that sent nothing, and what it depended on. A step is a pure
 * function of its inputs — quoting switch, risk gate, market, tracker state, what the strategy read
 * of the book, position and exposure, the token's orders, and the clock time or σ when the
 * strategy read them — so while they are unchanged, running it again would send nothing again:
 * the engine skips the strategy, the risk filter and the diff, and replays the step's risk
 * decisions to the listener (counts stay the same). A strategy that reads deeper than the touch
 * depends on the whole book, which changes with every delta: it is never skipped. A step that sent
 * intents, or whose strategy threw (logged each time), is never remembered.
 */
export class QuoteMemo {
  #in: StepInputs | undefined;
  #reads = 0;
  #touch: Touch = NO_TOUCH;
  #demand: SideDemand | undefined;
  /** The decisions the step handed to the decision log; undefined when it handed none. */
  decisions: readonly RiskDecision[] | undefined;
  /** Which desired quotes the step had for the guard to judge (DecisionLog.step; judged-quotes.ts). */
  judged: boolean | number = true;

  /** True when a step with these inputs would repeat the remembered one (see also `within`). */
  holds(i: StepInputs): boolean {
    return this.#sameWorst(i) && this.#same(i);
  }

  /**
   * For inputs that differ from the remembered ones in the worst-case grosses alone (other tokens'
   * orders), whether a step would still repeat it. Those reach a step only through the side limits
   * (`limits`, worked out for these inputs): a remembered step sent nothing, so the in-flight fit
   * had nothing to place, and when no inventory limit cut its quotes, limits that still take each
   * side's quotes (`demand`) give the same step.
   */
  within(i: StepInputs, limits: () => SideLimits): boolean {
    const d = this.#demand;
    if (d === undefined || this.#sameWorst(i) || !this.#same(i)) return false;
    const l = limits();
    return l.buy.capMicro >= d.buy && l.sell.capMicro >= d.sell;
  }

  #sameWorst(i: StepInputs): boolean {
    const m = this.#in;
    return (
      m !== undefined && i.marketWorstMicro === m.marketWorstMicro && i.totalWorstMicro === m.totalWorstMicro
    );
  }

  #same(i: StepInputs): boolean {
    const m = this.#in;
    if (m === undefined) return false;
    if (
      i.enabled !== m.enabled ||
      i.gate !== m.gate ||
      i.market !== m.market ||
      i.bookState !== m.bookState ||
      i.book !== m.book ||
      i.positionMicro !== m.positionMicro ||
      i.marketGrossMicro !== m.marketGrossMicro ||
      i.totalGrossMicro !== m.totalGrossMicro ||
      i.orders !== m.orders
    ) {
      return false;
    }
    const r = this.#reads;
    if ((r & TIME) !== 0 && i.nowMs !== m.nowMs) return false;
    if ((r & VOL) !== 0 && i.volatility !== m.volatility) return false;
    if ((r & DEEP) !== 0) return false;
    if (i.net === undefined || (r & (PRICES | SIZES)) === 0) return true;
    const t = this.#touch;
    const b = i.net;
    if (b.bids.bestPrice() !== t.bid || b.asks.bestPrice() !== t.ask) return false;
    return (r & SIZES) === 0 || (b.bids.bestSize() === t.bidSize && b.asks.bestSize() === t.askSize);
  }

  /**
   * Remembers a step that sent nothing; `reads` is what its strategy read (0 when it did not run),
   * `judged` which quotes it desired (judged-quotes.ts; true: all), `demand` what its quotes took of
   * each side's limit when no inventory limit cut them (undefined otherwise: the step repeats only
   * with the same worst-case grosses).
   */
  remember(
    i: StepInputs,
    reads: number,
    decisions: readonly RiskDecision[] | undefined,
    judged: boolean | number = true,
    demand?: SideDemand,
  ): void {
    this.#in = i;
    this.#demand = demand;
    this.#reads = reads;
    this.decisions = decisions;
    this.judged = judged;
    const b = i.net;
    this.#touch =
      b === undefined
        ? NO_TOUCH
        : {
            bid: b.bids.bestPrice(),
            ask: b.asks.bestPrice(),
            bidSize: b.bids.bestSize(),
            askSize: b.asks.bestSize(),
          };
  }

  /**
   * Whether the remembered step read the clock: time alone may change what it would quote, with no
   * event to say so (requote-timer.ts). Not σ: the estimator has no decay in time and moves only
   * with a book frame (strategies/volatility.ts), which steps the token anyway.
   */
  get timeBound(): boolean {
    return this.#in !== undefined && (this.#reads & TIME) !== 0;
  }

  /**
   * Whether time alone moved what the remembered step read (the clock time, when it read it): a
   * step now would run rather than be skipped. False when nothing is remembered.
   */
  movedBy(nowMs: number): boolean {
    const m = this.#in;
    return m !== undefined && (this.#reads & TIME) !== 0 && nowMs !== m.nowMs;
  }

  /**
   * Forgets the step (it sent intents, or its strategy failed); `reads`: what the strategy of a step
   * that sent intents read (0 for a failed one: nothing steps a throwing strategy again on its own).
   */
  forget(reads = 0): void {
    this.#in = undefined;
    this.#reads = reads;
    this.decisions = undefined;
  }

  /**
   * Forgets the remembered step but not what its strategy read: the next step runs even if nothing
   * it read changed, because something it does not read did (an order came due for renewal before
   * its on-chain expiry: order-renewal.ts).
   */
  lapse(): void {
    this.#in = undefined;
    this.decisions = undefined;
  }

  /**
   * Whether the last step read the clock and sent intents (nothing remembered): the timer steps no
   * such token, so the answer that ends one of its orders does (engine-reports.ts). A step that only
   * cancelled has no other answer to be stepped by in a replay, where our own cancel never comes back
   * as a book delta: its other side would stay at that step's time until the next market frame.
   */
  get clockedUnremembered(): boolean {
    return this.#in === undefined && (this.#reads & TIME) !== 0;
  }
}

/** Per side, the size a step's quotes took of the side's limit. */
export interface SideDemand {
  readonly buy: bigint;
  readonly sell: bigint;
}

interface Touch {
  readonly bid: number | undefined;
  readonly ask: number | undefined;
  readonly bidSize: bigint | undefined;
  readonly askSize: bigint | undefined;
}

const NO_TOUCH: Touch = { bid: undefined, ask: undefined, bidSize: undefined, askSize: undefined };
