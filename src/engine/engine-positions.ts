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

interface TokenFigures {
  readonly marketId: string;
  /** |position| relative to the baseline. */
  absMicro: bigint;
  /** realised − fees + unrealised at the mark, pico-USDC. */
  pnlPico: bigint;
  /** Integer mark (mid rounded down), micro-units; undefined until the book has two sides. */
  markMicro: number | undefined;
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
  #baselineTaken = false;
  #totalGross = 0n;
  #pnlPico = 0n;

  /**
   * @param sharesOut shares that fees of an earlier run's fills, attached in this session, took out
   *   of a token's position, less those that fills made while mm was down (taken in this session)
   *   put in (RestoredFees.sharesOut): the exchange's position already reflected both when the
   *   baseline was read, so the baseline takes them back (absolute = the exchange's).
   */
  constructor(
    inventory: Inventory,
    tokens: Iterable<{ tokenId: string; marketId: string }>,
    sharesOut: (tokenId: string) => bigint = () => 0n,
  ) {
    this.#inventory = inventory;
    this.#sharesOut = sharesOut;
    for (const t of tokens) {
      this.#tokens.set(t.tokenId, { marketId: t.marketId, absMicro: 0n, pnlPico: 0n, markMicro: undefined });
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
   * What the risk caps see for one token: the position and grosses relative to the baseline, and the
   * absolute holding (baseline + position: the shares a SELL can deliver).
   */
  exposure(tokenId: string): InventoryExposure {
    const f = this.#tokens.get(tokenId);
    const positionMicro = this.position(tokenId);
    const marketGrossMicro = f === undefined ? 0n : (this.#marketGross.get(f.marketId) ?? 0n);
    return {
      positionMicro,
      marketGrossMicro,
      totalGrossMicro: this.#totalGross,
      heldMicro: this.baseline(tokenId) + positionMicro,
    };
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
    const abs = acc.sizeMicro < 0n ? -acc.sizeMicro : acc.sizeMicro;
    if (abs !== f.absMicro) {
      const d = abs - f.absMicro;
      this.#marketGross.set(f.marketId, (this.#marketGross.get(f.marketId) ?? 0n) + d);
      this.#totalGross += d;
      f.absMicro = abs;
    }
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
    if (m === f.markMicro) return false;
    f.markMicro = m;
    return f.absMicro !== 0n && this.refresh(tokenId);
  }

  /** The token's integer mark, when known. */
  markOf(tokenId: string): number | undefined {
    return this.#tokens.get(tokenId)?.markMicro;
  }
}
