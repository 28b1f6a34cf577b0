import type { DesiredQuote, TokenMarket } from "../core/trading.js";
import type { RiskConfig } from "./config.js";
import {
  fmtSize,
  type GateReason,
  marketDecision,
  type RiskDecision,
  tokenDecision,
  walletDecision,
} from "./decision.js";
import { ErrorRateHalt } from "./error-rate.js";
import { type BookHealth, bookGate, marketGate } from "./gates.js";
import { type CommittedSize, fitInFlight } from "./in-flight.js";
import { applyInventoryCaps, type InventoryExposure, type SideLimits, sideLimits } from "./inventory-caps.js";
import { DrawdownKillSwitch, type KillSwitchTrip } from "./kill-switch.js";
import { checkDuplicate, checkLevelCap, laterDuplicates, levelExcess } from "./quote-levels.js";
import { checkSize, sizeDrops } from "./quote-limits.js";
import { type BookTouch, checkOwnCross, checkPrice, mayCrossOwn, ownExtremes } from "./quote-prices.js";

/**
 * Everything the guard needs to judge one token's desired quotes. The touch (BookTouch's best
 * prices) is the book the strategy priced from; without it no quote is judged to cross the book.
 */
export interface RiskTokenContext extends BookTouch {
  readonly market: TokenMarket;
  readonly book: BookHealth;
  readonly inventory: InventoryExposure;
}

/** The quotes that may rest, and every decision taken on the way (log each, count each by reason). */
export interface RiskFilterResult {
  readonly allowed: DesiredQuote[];
  readonly decisions: RiskDecision[];
}

/** What the guard last saw of a token, for `mustCancel` between `filter` calls. */
interface TokenMemo {
  marketId: string | undefined;
  /** The TokenMarket's status (overridden by onMarketStatus reports for its market). */
  status: string | undefined;
  /** The market's close (TokenMarket.closesAtMs): past it, the market is gated whatever its status. */
  closesAtMs: number | undefined;
  book: BookHealth | undefined;
}

/**
 * The last word before quotes reach the order manager. Pure: no I/O, no clock of its own — every
 * time-dependent call takes `now`. Gates, first match wins, each meaning "no quote, cancel the live
 * ones": kill_switch, platform_frozen, error_rate_halt (wallet-wide), market_not_open (the market:
 * a status other than OPEN, or `now` past its closesAt), market_unquotable (the market: OPEN but
 * unquotable, onMarketUnquotable), book_crossed, book_resyncing, book_stale (the token). Then every quote is checked on its own: its price on the grid, in the band and
 * never through the touch of the book the strategy priced from, and no bid of ours at or above an
 * ask of ours (quote-prices.ts; whatever the strategy, not only the shipped ones' clamps), then its
 * size (quote-limits.ts); each side is fitted into the inventory caps and, for asks, the shares
 * held (inventory-caps.ts). What the order manager then places is fitted once more, net of the orders
 * still live on each side (`fitPlacements`, in-flight.ts).
 * Event inputs return a decision on the transition into a blocking state (a wallet or market
 * cancel-all to send once); `filter` returns a token-scoped cancel on every call while a gate holds.
 * @example
 * const guard = new RiskGuard(parseRiskConfig(settings.risk));
 * const { allowed, decisions } = guard.filter({ market, book: tracker.state(tokenId), inventory }, desired, clock.now());
 */
export class RiskGuard {
  readonly config: RiskConfig;
  readonly #kill: DrawdownKillSwitch;
  readonly #errors: ErrorRateHalt;
  #frozen = false;
  readonly #marketStatus = new Map<string, string>();
  /** Markets held unquotable though OPEN (onMarketUnquotable), with why. */
  readonly #unquotable = new Map<string, string>();
  /** Markets whose closesAt the engine reported passed (onMarketClosed decides once). */
  readonly #closed = new Set<string>();
  readonly #tokens = new Map<string, TokenMemo>();

  constructor(config: RiskConfig) {
    this.config = config;
    this.#kill = new DrawdownKillSwitch(config.killSwitch.maxDrawdownMicro);
    this.#errors = new ErrorRateHalt(config.errorRate);
  }

  /** Filters one token's desired quotes; `allowed` may be empty (the order manager then cancels the live ones). */
  filter(ctx: RiskTokenContext, desired: readonly DesiredQuote[], now: number): RiskFilterResult {
    const { market } = ctx;
    const memo = this.#tokens.get(market.tokenId);
    if (memo === undefined) {
      this.#tokens.set(market.tokenId, { ...marketMemo(market), book: ctx.book });
    } else {
      // In place: filter runs per token on every book update, hundreds of tokens at a time.
      memo.marketId = market.marketId;
      memo.status = market.status;
      memo.closesAtMs = market.closesAtMs;
      memo.book = ctx.book;
    }
    const gate = this.#gate(market.tokenId, now);
    if (gate !== undefined) {
      return { allowed: [], decisions: [tokenDecision(gate, market.tokenId, market.marketId)] };
    }
    const decisions: RiskDecision[] = [];
    const checked: DesiredQuote[] = [];
    // Our own extremes among the quotes that will be sent (price passes, no size rule drops them:
    // a quote that never rests crosses nothing of ours), worked out only when some bid meets some
    // ask (±∞ let every quote through); nothing allocated when none does.
    let maxBid = Number.NEGATIVE_INFINITY;
    let minAsk = Number.POSITIVE_INFINITY;
    let sent: ((q: DesiredQuote) => boolean) | undefined;
    // A later quote on a side and level already quoted is never sent (the order manager keeps a
    // level's first): dropped, named, and crossing nothing of ours.
    const duplicates = laterDuplicates(desired);
    // Beyond risk.order.maxLevels on its side: dropped, and crossing nothing of ours either.
    const cap = this.config.order.maxLevels;
    const excess = levelExcess(desired, cap, duplicates);
    if (mayCrossOwn(desired)) {
      const order = this.config.order;
      sent = (q) =>
        duplicates?.has(q) !== true && excess?.dropped.has(q) !== true && !sizeDrops(q, market, order);
      ({ maxBid, minAsk } = ownExtremes(desired, market.tickMicro, ctx, sent));
    }
    for (const q of desired) {
      // Prices first (shape, grid, band, the touch), then our own other side, then sizes: a quote
      // that may not rest at all is dropped before any limit clips it, one decision per quote, and
      // one the size rules drop is dropped for its size (it crosses nothing: it is never sent).
      if (!checkDuplicate(q, market, duplicates, decisions)) continue;
      if (!checkLevelCap(q, market, cap, excess, decisions)) continue;
      if (!checkPrice(q, market, ctx, decisions)) continue;
      if (sent?.(q) === true && !checkOwnCross(q, market, maxBid, minAsk, decisions)) continue;
      const ok = checkSize(q, market, this.config.order, decisions);
      if (ok !== undefined) checked.push(ok);
    }
    const allowed = applyInventoryCaps(checked, ctx.inventory, this.config.inventory, market, decisions);
    return { allowed, decisions };
  }

  /** The most each side of a token may total, resting orders and new ones (inventory-caps.ts). */
  sideLimits(ctx: Pick<RiskTokenContext, "market" | "inventory">): SideLimits {
    const min = ctx.market.minSizeMicro > 1n ? ctx.market.minSizeMicro : 1n;
    return sideLimits(ctx.inventory, this.config.inventory, min);
  }

  /**
   * Fits a step's new placements (quotes `filter` allowed that the order manager is about to place)
   * into the side limits net of the token's orders of ours that stay live meanwhile (in-flight.ts):
   * `fitted[i]` is the placement to make, clipped, or undefined when held back.
   */
  fitPlacements(
    ctx: Pick<RiskTokenContext, "market" | "inventory">,
    places: readonly DesiredQuote[],
    committed: CommittedSize,
  ): { fitted: (DesiredQuote | undefined)[]; decisions: RiskDecision[] } {
    const decisions: RiskDecision[] = [];
    const fitted = fitInFlight(places, committed, this.sideLimits(ctx), ctx.market, decisions);
    return { fitted, decisions };
  }

  /**
   * Why the token's live quotes must be cancelled right now (the same gates as `filter`, from the
   * last known book and market status), or undefined. Takes `now` because the error-rate halt ends
   * with time.
   */
  mustCancel(tokenId: string, now: number): GateReason | undefined {
    return this.#gate(tokenId, now);
  }

  /** Registers a token's market so that `mustCancel` can see its market status before any `filter`. */
  watch(market: TokenMarket): void {
    const book = this.#tokens.get(market.tokenId)?.book;
    this.#tokens.set(market.tokenId, { ...marketMemo(market), book });
  }

  /** A book changed state (BookTracker event); a token cancel when it stops being quotable. */
  onBookState(tokenId: string, book: BookHealth): RiskDecision | undefined {
    const memo = this.#tokens.get(tokenId) ?? {
      marketId: undefined,
      status: undefined,
      closesAtMs: undefined,
      book: undefined,
    };
    const before = memo.book === undefined ? undefined : bookGate(memo.book);
    memo.book = { status: book.status, crossed: book.crossed };
    this.#tokens.set(tokenId, memo);
    const after = bookGate(memo.book);
    return after === undefined || after === before ? undefined : tokenDecision(after, tokenId, memo.marketId);
  }

  /** Total PnL (USDC micro-units); a wallet cancel-all when the trailing drawdown trips the kill switch. */
  onPnl(totalPnlMicro: bigint, now: number): RiskDecision | undefined {
    if (!this.#kill.observe(totalPnlMicro, now)) return undefined;
    const t = this.#kill.trip;
    return walletDecision("kill_switch", {
      peak: fmtSize(t?.peakMicro ?? 0n),
      pnl: fmtSize(totalPnlMicro),
      drawdown: fmtSize(t?.drawdownMicro ?? 0n),
      limit: fmtSize(this.#kill.maxDrawdownMicro),
    });
  }

  /** An order error (exchange code of a reject or failed send); a wallet cancel-all when it trips the halt. */
  onOrderError(code: string, now: number): RiskDecision | undefined {
    if (!this.#errors.record(code, now)) return undefined;
    const s = this.config.errorRate;
    return walletDecision("error_rate_halt", {
      code,
      maxErrors: s.maxErrors,
      windowMs: s.windowMs,
      until: this.#errors.haltedUntil,
    });
  }

  /** platform_status (`frozen` field); a wallet cancel-all when the platform becomes frozen. */
  onPlatformStatus(frozen: boolean): RiskDecision | undefined {
    const was = this.#frozen;
    this.#frozen = frozen;
    return frozen && !was ? walletDecision("platform_frozen") : undefined;
  }

  /**
   * A market's status (market_status, or "PAUSED" on market_paused, "OPEN" on market_unpaused,
   * "RESOLVED" on market_resolved, or a REST refresh). The latest report wins over the
   * TokenMarket's status. A market cancel-all when the market leaves OPEN.
   */
  onMarketStatus(marketId: string, status: string): RiskDecision | undefined {
    const before = this.#marketStatus.get(marketId);
    this.#marketStatus.set(marketId, status);
    if (marketGate(status) === undefined || (before !== undefined && before !== "OPEN")) return undefined;
    return marketDecision("market_not_open", marketId, { status });
  }

  /**
   * A market that is OPEN but cannot be quoted, and why (`why`, the halt's status label, e.g.
   * FEE_TOO_HIGH: its feeTakerBps above the cap every order's feeRateBps is held to, so no order
   * there can be signed), or quotable again (`why` undefined). Gated as `market_unquotable`, apart
   * from its status (a status report does not lift it). A market cancel-all when it becomes so.
   */
  onMarketUnquotable(
    marketId: string,
    why: string | undefined,
    detail: Readonly<Record<string, string | number | boolean>> = {},
  ): RiskDecision | undefined {
    const was = this.#unquotable.has(marketId);
    if (why === undefined) {
      this.#unquotable.delete(marketId);
      return undefined;
    }
    this.#unquotable.set(marketId, why);
    return was ? undefined : marketDecision("market_unquotable", marketId, { status: why, ...detail });
  }

  /** Why a market is held unquotable (onMarketUnquotable); undefined when it is not. */
  marketUnquotable(marketId: string): string | undefined {
    return this.#unquotable.get(marketId);
  }

  /**
   * The clock has passed the market's closesAt (the engine's timer, market-closes.ts): a market
   * cancel-all, once per market. The gate itself needs no report: `mustCancel` and `filter` compare
   * `now` with the closesAt of the token's market and hold from the first millisecond after it,
   * whatever status is reported later (a refusal's cool-down ending, a late OPEN push).
   */
  onMarketClosed(marketId: string, closesAtMs: number): RiskDecision | undefined {
    if (this.#closed.has(marketId)) return undefined;
    this.#closed.add(marketId);
    return marketDecision("market_not_open", marketId, {
      status: "CLOSED",
      closesAt: new Date(closesAtMs).toISOString(),
    });
  }

  /** True from a kill-switch trip until `resetKillSwitch`. */
  killSwitchActive(): boolean {
    return this.#kill.active;
  }

  /**
   * Operator action: re-arms the kill switch, the drawdown peak restarting at `pnlMicro` (the
   * current PnL; default the last one observed).
   */
  resetKillSwitch(pnlMicro?: bigint): void {
    this.#kill.reset(pnlMicro);
  }

  /** Starts with the kill switch tripped as an earlier run left it (the journal's restore). */
  restoreKillSwitch(trip: KillSwitchTrip): void {
    this.#kill.restore(trip);
  }

  /**
   * Starts the kill switch with an earlier run's drawdown already used (the journal's restore):
   * see DrawdownKillSwitch.carry.
   */
  carryKillSwitchDrawdown(drawdownMicro: bigint): void {
    this.#kill.carry(drawdownMicro);
  }

  /** The kill switch's drawdown when it rose by 1% of the limit since last told: DrawdownKillSwitch.risen. */
  killSwitchDrawdownRisen(): bigint | undefined {
    return this.#kill.risen();
  }

  /** The PnL moved by `deltaMicro` for no gain or loss of the run: see DrawdownKillSwitch.shift. */
  shiftKillSwitchPeak(deltaMicro: bigint): void {
    this.#kill.shift(deltaMicro);
  }

  /** The kill switch's peak − last observed PnL (before any: the carried drawdown, else 0). */
  get killSwitchDrawdownMicro(): bigint {
    return this.#kill.drawdownMicro;
  }

  /** The kill switch's trip, while tripped. */
  get killSwitchTrip(): KillSwitchTrip | undefined {
    return this.#kill.trip;
  }

  /** True while the error-rate halt's cool-down runs. */
  errorHalted(now: number): boolean {
    return this.#errors.halted(now);
  }

  /**
   * Clock time the error-rate halt ends (-Infinity when it never tripped). Read it after
   * errorHalted(now): that call moves the halt back with a clock that stepped back.
   */
  get errorHaltedUntil(): number {
    return this.#errors.haltedUntil;
  }

  /** Whether platform_status last said frozen. */
  platformFrozen(): boolean {
    return this.#frozen;
  }

  /** The gates in precedence order; a token never seen is judged by the wallet-wide gates only. */
  #gate(tokenId: string, now: number): GateReason | undefined {
    if (this.#kill.active) return "kill_switch";
    if (this.#frozen) return "platform_frozen";
    if (this.#errors.halted(now)) return "error_rate_halt";
    const memo = this.#tokens.get(tokenId);
    if (memo === undefined) return undefined;
    if (memo.closesAtMs !== undefined && now > memo.closesAtMs) return "market_not_open";
    const reported = memo.marketId === undefined ? undefined : this.#marketStatus.get(memo.marketId);
    const status = reported ?? memo.status;
    if (status !== undefined && marketGate(status) !== undefined) return "market_not_open";
    if (memo.marketId !== undefined && this.#unquotable.has(memo.marketId)) return "market_unquotable";
    return memo.book === undefined ? undefined : bookGate(memo.book);
  }
}

function marketMemo(market: TokenMarket): Omit<TokenMemo, "book"> {
  return { marketId: market.marketId, status: market.status, closesAtMs: market.closesAtMs };
}
