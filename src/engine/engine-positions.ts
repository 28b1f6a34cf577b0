import type { Side } from "../core/types.js";
import type { Inventory } from "../execution/inventory.js";
import { PICO_PER_MICRO, unrealisedPico } from "../execution/inventory-math.js";
import type { InventoryExposure } from "../risk/inventory-caps.js";
import type { ExchangePort, PositionsAt } from "./ports.js";

/**
 * The wallet's positions and the exchange-clock instant they stand for (ExchangePort.positionsAt);
 * `asOfMs` is undefined when the port cannot say (no positionsAt, an answer without X-Server-Time).
 * Whoever splits fills by it (the start-up baseline, a position correction) must use this instant,
 * not its own clock: fills carry the exchange's times.
 */
export async function readPositionsAt(exchange: ExchangePort): Promise<PositionsAt> {
  if (exchange.positionsAt === undefined) return { positions: await exchange.positions(), asOfMs: undefined };
  return exchange.positionsAt();
}

/**
 * What the PositionBook reads of our orders (the engine's OrderStore): every order of a token that
 * can still fill (placing, open, cancelling, unknown), and a number that changes whenever any of them
 * does.
 */
export interface OrderRemainders {
  live(
    tokenId: string,
  ): readonly { readonly side: Side; readonly sizeMicro: bigint; readonly filledMicro: bigint }[];
  version(tokenId: string): number;
  /**
   * Fills the exchange reported on the token's orders (an answer's filledQty) that inventory has
   * not taken yet: gone from the remainders, not yet in the position (OrderStore.unapplied).
   */
  unapplied(tokenId: string): { readonly buy: bigint; readonly sell: bigint } | undefined;
}

interface TokenFigures {
  readonly tokenId: string;
  readonly marketId: string;
  /** |position| relative to the baseline as the caps count it: 0 while the market is settled. */
  absMicro: bigint;
  /** Whether the position is zero (no PnL to mark). */
  flat: boolean;
  /** The market is resolved or voided (settleMarket): its shares carry no price risk. */
  settled: boolean;
  /** The mark is the settled market's payout (pin): book mids no longer move it. */
  pinned: boolean;
  /**
   * The largest |position| every order of ours that can still fill could take the token to:
   * max(|p + B|, |p − S|) with B / S its live buy / sell remainders (≥ absMicro). Cached for the
   * store version and the position it was worked out at (`worstAt`, `worstOf`).
   */
  worstMicro: bigint;
  worstAt: number;
  worstOf: bigint;
  /** realised − fees + unrealised at the mark, pico-USDC. */
  pnlPico: bigint;
  /** Integer mark (mid rounded down), micro-units; undefined until the book has two sides. */
  markMicro: number | undefined;
  /** The mark is an earlier run's (restoreMark), not one seen in this run. */
  restored: boolean;
}

/**
 * Running totals over the engine's inventory: each token's exposure (for the risk caps) and the
 * wallet's total PnL (for the kill switch), kept incrementally so that a book update or a fill costs
 * O(1) however many tokens are traded.
 *
 * Inventory (src/execution/inventory.ts) holds positions RELATIVE to the baseline: it starts at zero
 * and moves only by fills and position corrections. The baseline (the wallet's holdings at start) is
 * kept here only to compare with the exchange's absolute positions. PnL is therefore the PnL of what
 * the engine traded since start: realised − fees + unrealised at the mid, the baseline's own value
 * moves excluded (they are not the bot's doing, and would trip the drawdown kill switch).
 */
export class PositionBook {
  readonly #inventory: Inventory;
  readonly #tokens = new Map<string, TokenFigures>();
  readonly #marketGross = new Map<string, bigint>();
  readonly #baseline = new Map<string, bigint>();
  readonly #sharesOut: (tokenId: string) => bigint;
  readonly #orders: OrderRemainders | undefined;
  /** Each market's tokens' figures. */
  readonly #markets = new Map<string, TokenFigures[]>();
  /** Tokens whose orders may have grown since their worst case was cached (see exposure). */
  readonly #unsettled = new Set<TokenFigures>();
  #baselineTaken = false;
  #totalGross = 0n;
  /** Σ worstMicro over every token, as cached. */
  #totalWorst = 0n;
  #pnlPico = 0n;

  /**
   * @param sharesOut shares that fees of an earlier run's fills, attached in this session, took out
   *   of a token's position, less those that fills made while mm was down (taken in this session)
   *   put in (RestoredFees.sharesOut): the exchange's position already reflected both when the
   *   baseline was read, so the baseline takes them back (absolute = the exchange's).
   * @param orders our orders (the engine's OrderStore), for the worst cases the hard caps bound;
   *   without it, every other token counts at its |position| alone.
   */
  constructor(
    inventory: Inventory,
    tokens: Iterable<{ tokenId: string; marketId: string }>,
    sharesOut: (tokenId: string) => bigint = () => 0n,
    orders?: OrderRemainders,
  ) {
    this.#inventory = inventory;
    this.#sharesOut = sharesOut;
    this.#orders = orders;
    for (const t of tokens) {
      const f: TokenFigures = {
        tokenId: t.tokenId,
        marketId: t.marketId,
        absMicro: 0n,
        flat: true,
        settled: false,
        pinned: false,
        worstMicro: 0n,
        worstAt: -1,
        worstOf: 0n,
        pnlPico: 0n,
        markMicro: undefined,
        restored: false,
      };
      this.#tokens.set(t.tokenId, f);
      const siblings = this.#markets.get(t.marketId);
      if (siblings === undefined) this.#markets.set(t.marketId, [f]);
      else siblings.push(f);
    }
  }

  /** Whether the engine trades `tokenId` (only its tokens have positions here). */
  trades(tokenId: string): boolean {
    return this.#tokens.has(tokenId);
  }

  /**
   * Sets the baseline of the engine's tokens from their absolute holdings at start (micro-shares):
   * the part of each holding the relative inventory does not explain. That is the whole holding on
   * a first run; after a restore, the position carried over (seeded into inventory) is taken out,
   * so absolute = baseline + inventory still equals what the exchange holds.
   */
  setBaseline(sizes: ReadonlyMap<string, bigint>): void {
    this.#baseline.clear();
    this.#baselineTaken = true;
    for (const t of this.#tokens.keys()) {
      const b = (sizes.get(t) ?? 0n) - this.position(t) - this.#sharesOut(t);
      if (b !== 0n) this.#baseline.set(t, b);
    }
  }

  /**
   * The baseline of a token (0 when none). Without one (baseline `zero`: inventory is the absolute
   * position), a restored fill's share fee moves the absolute position as the exchange's did.
   */
  baseline(tokenId: string): bigint {
    const b = this.#baseline.get(tokenId) ?? 0n;
    return this.#baselineTaken ? b + this.#sharesOut(tokenId) : b;
  }

  /** Absolute positions (baseline + relative) of every engine token, for the check against the exchange. */
  absoluteSizes(): Map<string, bigint> {
    const out = new Map<string, bigint>();
    for (const t of this.#tokens.keys()) {
      const abs = this.baseline(t) + this.#inventory.account(t).sizeMicro;
      if (abs !== 0n) out.set(t, abs);
    }
    return out;
  }

  /** Position relative to the baseline, micro-shares. */
  position(tokenId: string): bigint {
    return this.#inventory.account(tokenId).sizeMicro;
  }

  /**
   * What the risk caps see for one token: the position and grosses relative to the baseline, the
   * worst-case grosses (every other token of the market / the wallet at its worst case, its orders
   * that can still fill all filling: inventory-caps.ts) and the absolute holding (baseline +
   * position: the shares a SELL can deliver).
   *
   * Costs O(tokens of the market) plus the tokens re-read since the last call, not O(tokens): the
   * wallet's worst case is a running sum of cached figures, each re-read when its token's orders or
   * position changed: the order store reports every change of a token's orders (ordersMoved, wired
   * in engine-wiring.ts), and a quoting step's own token is re-read at the next call (it is about to
   * place). So no figure stays stale: a cancel answered, or a prune, frees the room it held for the
   * other tokens at once.
   */
  exposure(tokenId: string): InventoryExposure {
    const f = this.#tokens.get(tokenId);
    const positionMicro = this.position(tokenId);
    const heldMicro = this.baseline(tokenId) + positionMicro;
    if (f === undefined) {
      return { positionMicro, marketGrossMicro: 0n, totalGrossMicro: this.#totalGross, heldMicro };
    }
    // This token's own figure is not read here (its own orders are the in-flight fit's): only the others'.
    const unsettled = this.#unsettled;
    if (unsettled.size > 0) {
      for (const u of unsettled) if (u !== f) this.#settle(u);
      unsettled.clear();
    }
    let marketWorstMicro = f.absMicro;
    for (const s of this.#markets.get(f.marketId) ?? []) {
      if (s === f) continue;
      this.#settle(s);
      marketWorstMicro += s.worstMicro;
    }
    // The step that asked is about to place (or not): its figure is re-read at the next call.
    unsettled.add(f);
    return {
      positionMicro,
      marketGrossMicro: this.#marketGross.get(f.marketId) ?? 0n,
      totalGrossMicro: this.#totalGross,
      marketWorstMicro,
      totalWorstMicro: this.#totalWorst - f.worstMicro + f.absMicro,
      heldMicro,
    };
  }

  /**
   * Marks a market settled (resolved or voided: the payout is fixed, so its shares carry no price
   * risk) or not. A settled market's tokens count zero in every gross and worst case: the
   * redemption takes the shares held at start out of the wallet, and the position check then puts
   * those tokens below their baseline; counted, that would hold every other market reduce-only.
   * Their PnL still counts. Callers requote what the grosses moved (requoteExposed).
   */
  settleMarket(marketId: string, settled: boolean): void {
    for (const f of this.#markets.get(marketId) ?? []) {
      if (f.settled === settled) continue;
      f.settled = settled;
      if (!settled) f.pinned = false;
      f.worstAt = -1;
      this.refresh(f.tokenId);
    }
  }

  /** Whether the token's market is settled (settleMarket). */
  settled(tokenId: string): boolean {
    return this.#tokens.get(tokenId)?.settled === true;
  }

  /**
   * Marks a settled token at its payout per share (micro-USDC), for good: what a share is worth
   * once redeemed, whatever its book shows. True when the total PnL changed.
   */
  pin(tokenId: string, payoutMicro: number): boolean {
    const f = this.#tokens.get(tokenId);
    if (f === undefined || !f.settled) return false;
    f.pinned = true;
    f.restored = false;
    f.markMicro = payoutMicro;
    return this.refresh(tokenId);
  }

  /**
   * Marks a token at an earlier run's last journaled mark (micro-USDC) until a mid or payout of this
   * run replaces it (a market listed settled without payouts has no book). True when the PnL changed.
   */
  restoreMark(tokenId: string, markMicro: number): boolean {
    const f = this.#tokens.get(tokenId);
    if (f === undefined || f.pinned || f.markMicro !== undefined) return false;
    f.markMicro = Math.floor(markMicro);
    f.restored = true;
    return this.refresh(tokenId);
  }

  /** The token's mark while it is still the earlier run's (restoreMark); undefined otherwise. */
  restoredMarkOf(tokenId: string): number | undefined {
    const f = this.#tokens.get(tokenId);
    return f?.restored === true ? f.markMicro : undefined;
  }

  /** The payout a settled token is marked at (pin), micro-USDC; undefined until pinned. */
  payoutOf(tokenId: string): number | undefined {
    const f = this.#tokens.get(tokenId);
    return f?.pinned === true ? f.markMicro : undefined;
  }

  /**
   * Whether the market is settled and some token of it is not yet marked at a payout: its
   * resolution's payouts are still unknown (a push or a record without them), so those tokens
   * keep their last mark until the payouts are read (ClosedMarketWatch).
   */
  awaitingPayouts(marketId: string): boolean {
    const figures = this.#markets.get(marketId) ?? [];
    return figures.some((f) => f.settled && !f.pinned);
  }

  /**
   * The exchange holds `absoluteMicro` of a settled token: the redemption took its shares out of
   * the wallet. That is not a fill of ours, so the baseline follows the exchange's figure and the
   * position (what the engine traded, valued at the payout) stays: a correction of the inventory
   * would drop the traded shares at their cost and lose their payout from the PnL.
   */
  followRedemption(tokenId: string, absoluteMicro: bigint): void {
    if (!this.#tokens.has(tokenId)) return;
    const b = absoluteMicro - this.position(tokenId) - (this.#baselineTaken ? this.#sharesOut(tokenId) : 0n);
    if (b === 0n) this.#baseline.delete(tokenId);
    else this.#baseline.set(tokenId, b);
  }

  /** The token's orders changed (OrderStore's onChange): its worst case is re-read at the next exposure(). */
  ordersMoved(tokenId: string): void {
    const f = this.#tokens.get(tokenId);
    if (f !== undefined) this.#unsettled.add(f);
  }

  /** Σ |position| over every token (relative to the baseline). */
  get totalGrossMicro(): bigint {
    return this.#totalGross;
  }

  /** Σ of every token's worst case (see exposure): the wallet's gross if every order of ours filled. */
  totalWorstMicro(): bigint {
    this.#settleUnsettled();
    return this.#totalWorst;
  }

  #settleUnsettled(): void {
    for (const u of this.#unsettled) this.#settle(u);
    this.#unsettled.clear();
  }

  // Re-reads a token's worst case when its orders or position changed since it was cached.
  #settle(f: TokenFigures): void {
    const orders = this.#orders;
    const version = orders === undefined ? 0 : orders.version(f.tokenId);
    const p = this.position(f.tokenId);
    if (version === f.worstAt && p === f.worstOf) return;
    if (f.settled) {
      this.#totalWorst -= f.worstMicro;
      f.worstMicro = 0n;
      f.worstAt = version;
      f.worstOf = p;
      return;
    }
    let buy = 0n;
    let sell = 0n;
    for (const o of orders?.live(f.tokenId) ?? []) {
      const r = o.sizeMicro - o.filledMicro;
      if (r <= 0n) continue;
      if (o.side === "buy") buy += r;
      else sell += r;
    }
    // Reported fills on their way count as filled: in neither the position nor a remainder yet.
    const u = orders?.unapplied(f.tokenId);
    const q = u === undefined ? p : p + u.buy - u.sell;
    // max(|q + B|, |q − S|) = max(q + B, S − q), since q − S ≤ q + B.
    const up = q + buy;
    const down = sell - q;
    const worst = up > down ? up : down;
    this.#totalWorst += worst - f.worstMicro;
    f.worstMicro = worst;
    f.worstAt = version;
    f.worstOf = p;
  }

  /** Total PnL in USDC micro-units (truncated towards zero). */
  get pnlMicro(): bigint {
    return this.#pnlPico / PICO_PER_MICRO;
  }

  /** Re-reads a token's account after a fill or a correction; true when its PnL changed. */
  refresh(tokenId: string): boolean {
    const f = this.#tokens.get(tokenId);
    if (f === undefined) return false;
    const acc = this.#inventory.account(tokenId);
    f.flat = acc.sizeMicro === 0n;
    const abs = f.settled ? 0n : acc.sizeMicro < 0n ? -acc.sizeMicro : acc.sizeMicro;
    if (abs !== f.absMicro) {
      const d = abs - f.absMicro;
      this.#marketGross.set(f.marketId, (this.#marketGross.get(f.marketId) ?? 0n) + d);
      this.#totalGross += d;
      f.absMicro = abs;
    }
    this.#settle(f);
    const unrealised =
      f.markMicro === undefined || acc.sizeMicro === 0n ? 0n : unrealisedPico(acc, f.markMicro);
    const pnl = acc.realisedPico - acc.feesPico + unrealised;
    if (pnl === f.pnlPico) return false;
    this.#pnlPico += pnl - f.pnlPico;
    f.pnlPico = pnl;
    return true;
  }

  /** A new mid (micro-units, possibly fractional); true when the total PnL changed. */
  mark(tokenId: string, midMicro: number): boolean {
    const f = this.#tokens.get(tokenId);
    if (f === undefined) return false;
    const m = Math.floor(midMicro);
    if (f.pinned) return false;
    f.restored = false;
    if (m === f.markMicro) return false;
    f.markMicro = m;
    return !f.flat && this.refresh(tokenId);
  }

  /** The token's integer mark, when known. */
  markOf(tokenId: string): number | undefined {
    return this.#tokens.get(tokenId)?.markMicro;
  }
}
