import type { Fill, Position } from "../core/trading.js";
import {
  applyTrade,
  correctTo,
  EMPTY_ACCOUNT,
  type FeeAmount,
  picoToMicro,
  type TokenAccount,
  unrealisedPico,
} from "./inventory-math.js";

/** A ledger entry: a fill (with its fee once known) or a correction to the exchange's position. */
type Entry =
  | { readonly kind: "fill"; readonly fill: Fill; fee: FeeAmount | undefined }
  | {
      readonly kind: "correction";
      readonly tsMs: number;
      readonly seq: number;
      readonly targetMicro: bigint;
      readonly markMicro: number | undefined;
    };

interface Ledger {
  readonly entries: Entry[];
  acc: TokenAccount;
  /** An entry went in before the end (or a fee changed): recompute before the next read. */
  dirty: boolean;
}

/**
 * Positions and PnL per token, from fills, by the average-cost method (inventory-math.ts).
 *
 * INVARIANTS
 * - Idempotent: a fill is identified by (tradeId, orderId); applying it again changes nothing. (A
 *   self-trade gives the wallet two fills with one tradeId, one per order, and both count.)
 * - Order-independent: each token's account is the fold of its fills in canonical order, by time
 *   (tsMs), then tradeId (shorter first, then lexicographic, so numeric ids sort numerically), then
 *   orderId; corrections sort after the fills of their millisecond. So any shuffle or duplication of
 *   the same set of fills, and fees arriving before or after their fill, give the same account.
 * - Exact: bigint micro/pico units throughout (see inventory-math.ts for the one truncation).
 * In-order arrivals cost O(1); an out-of-order one re-folds its token once, on the next read.
 * @example
 * inv.applyFill(fill); inv.position(fill.tokenId).sizeMicro // 10_000_000n after a 10-share buy
 */
export class Inventory {
  readonly #ledgers = new Map<string, Ledger>();
  readonly #fills = new Map<string, Entry & { kind: "fill" }>();
  readonly #pendingFees = new Map<string, FeeAmount>();
  #corrections = 0;

  /** Applies a fill; false when it was already applied (a duplicate). */
  applyFill(fill: Fill): boolean {
    const key = fillKey(fill.tradeId, fill.orderId);
    if (this.#fills.has(key)) return false;
    const entry: Entry & { kind: "fill" } = { kind: "fill", fill, fee: this.#pendingFees.get(key) };
    this.#pendingFees.delete(key);
    this.#fills.set(key, entry);
    this.#insert(fill.tokenId, entry);
    return true;
  }

  /** True when the fill (tradeId, orderId) has been applied. */
  hasFill(tradeId: string, orderId: string): boolean {
    return this.#fills.has(fillKey(tradeId, orderId));
  }

  /**
   * Sets the fee of a fill, before or after the fill itself arrives (fees resolve after settlement).
   * @returns true when it changed anything.
   */
  setFee(tradeId: string, orderId: string, fee: FeeAmount): boolean {
    const key = fillKey(tradeId, orderId);
    const entry = this.#fills.get(key);
    if (entry === undefined) {
      const prior = this.#pendingFees.get(key);
      this.#pendingFees.set(key, fee);
      return prior === undefined || !sameFee(prior, fee);
    }
    if (entry.fee !== undefined && sameFee(entry.fee, fee)) return false;
    entry.fee = fee;
    this.#ledger(entry.fill.tokenId).dirty = true;
    return true;
  }

  /**
   * Sets the token's position to the exchange's figure as of `atMs` (see correctTo in inventory-math.ts
   * for how cost moves). Fills stamped before `atMs` that arrive later are folded in before it, so they
   * do not count twice; fills after it add on top.
   */
  correct(tokenId: string, targetMicro: bigint, atMs: number, markMicro?: number): void {
    this.#insert(tokenId, {
      kind: "correction",
      tsMs: atMs,
      seq: this.#corrections++,
      targetMicro,
      markMicro,
    });
  }

  /** The token's account (zero when it never traded). */
  account(tokenId: string): TokenAccount {
    const l = this.#ledgers.get(tokenId);
    if (l === undefined) return EMPTY_ACCOUNT;
    if (l.dirty) {
      l.acc = l.entries.reduce(step, EMPTY_ACCOUNT);
      l.dirty = false;
    }
    return l.acc;
  }

  /** The token's position as the shared type (cost basis truncated to micro-USDC). */
  position(tokenId: string): Position {
    const a = this.account(tokenId);
    return { tokenId, sizeMicro: a.sizeMicro, costMicro: picoToMicro(a.costPico) };
  }

  /** Unrealised PnL of the token marked at `markMicro`, pico-USDC. */
  unrealisedPico(tokenId: string, markMicro: number): bigint {
    return unrealisedPico(this.account(tokenId), markMicro);
  }

  /** Realised PnL before fees, summed over tokens, pico-USDC. */
  realisedPico(): bigint {
    let sum = 0n;
    for (const t of this.#ledgers.keys()) sum += this.account(t).realisedPico;
    return sum;
  }

  /** Fees paid, summed over tokens, pico-USDC. */
  feesPico(): bigint {
    let sum = 0n;
    for (const t of this.#ledgers.keys()) sum += this.account(t).feesPico;
    return sum;
  }

  /** Tokens with a ledger, in first-seen order. */
  tokens(): string[] {
    return [...this.#ledgers.keys()];
  }

  /** Every token's position size, for the position check. */
  sizes(): Map<string, bigint> {
    const out = new Map<string, bigint>();
    for (const t of this.#ledgers.keys()) out.set(t, this.account(t).sizeMicro);
    return out;
  }

  /** How many distinct fills were applied. */
  get fillCount(): number {
    return this.#fills.size;
  }

  #ledger(tokenId: string): Ledger {
    let l = this.#ledgers.get(tokenId);
    if (l === undefined) {
      l = { entries: [], acc: EMPTY_ACCOUNT, dirty: false };
      this.#ledgers.set(tokenId, l);
    }
    return l;
  }

  #insert(tokenId: string, e: Entry): void {
    const l = this.#ledger(tokenId);
    const last = l.entries[l.entries.length - 1];
    if (last === undefined || compareEntries(last, e) < 0) {
      l.entries.push(e);
      if (!l.dirty) l.acc = step(l.acc, e);
      return;
    }
    let lo = 0;
    let hi = l.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareEntries(l.entries[mid] as Entry, e) < 0) lo = mid + 1;
      else hi = mid;
    }
    l.entries.splice(lo, 0, e);
    l.dirty = true;
  }
}

function step(acc: TokenAccount, e: Entry): TokenAccount {
  if (e.kind === "correction") return correctTo(acc, e.targetMicro, e.markMicro);
  return applyTrade(acc, e.fill.side, e.fill.priceMicro, e.fill.sizeMicro, e.fee);
}

/** Canonical order: time, then fills before corrections, then ids (see the class INVARIANTS). */
function compareEntries(a: Entry, b: Entry): number {
  const ta = a.kind === "fill" ? a.fill.tsMs : a.tsMs;
  const tb = b.kind === "fill" ? b.fill.tsMs : b.tsMs;
  if (ta !== tb) return ta - tb;
  if (a.kind !== b.kind) return a.kind === "fill" ? -1 : 1;
  if (a.kind === "correction" || b.kind === "correction") {
    return (a.kind === "correction" ? a.seq : 0) - (b.kind === "correction" ? b.seq : 0);
  }
  return compareIds(a.fill.tradeId, b.fill.tradeId) || compareIds(a.fill.orderId, b.fill.orderId);
}

function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

function fillKey(tradeId: string, orderId: string): string {
  return `${tradeId}\u0000${orderId}`;
}

function sameFee(a: FeeAmount, b: FeeAmount): boolean {
  return a.asset === b.asset && a.amountMicro === b.amountMicro;
}
