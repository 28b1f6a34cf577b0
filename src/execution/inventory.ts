import { MmError } from "../core/errors.js";
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
  /**
   * Where the fold starts: empty, or the account carried over from an earlier run (seed), with the
   * entries compacted away folded in.
   */
  base: TokenAccount;
  /** Entries folded into `base` by compact(). */
  compacted: number;
  acc: TokenAccount;
  /** An entry went in before the end (or a fee changed): recompute before the next read. */
  dirty: boolean;
  /** The latest match time (tsMs) of a fill applied to the token, compacted ones included. */
  lastFillMs: number | undefined;
}

/** Optional hooks of an Inventory. */
export interface InventoryOptions {
  /**
   * Told when a fee becomes attached to an applied fill (setFee after the fill, or a fee that waited
   * for its fill), with the fill it belongs to; not for a fee set again unchanged.
   */
  readonly onFee?: (fill: Fill, fee: FeeAmount) => void;
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
 * - Bounded: compact(horizon) folds every entry stamped before the horizon into its token's base and
 *   forgets those fills (their ids too), so memory holds only the recent window however long the run.
 *   Accounts do not change. The two properties above then hold for fills stamped at or after the
 *   floor (the latest horizon); a fill stamped before it is refused as a late duplicate (`late`).
 *   The caller picks a horizon before which every fill has already been applied: the engine uses the
 *   next reconcile's trade cut-off (last reconcile start − tradeLookbackMs), since every REST backfill
 *   pages trades back to at least that instant, and the WebSocket does not replay old fills (the spec
 *   shows no replay of user_fill; an assumption). So a fill stamped before the floor was either
 *   applied when it arrived, or backfilled by a reconcile that covered its instant: it is a duplicate.
 *   Should that premise fail (a trade missing from REST for longer than the lookback), the fill is
 *   dropped here and the position check corrects the size to the exchange's.
 * In-order arrivals cost O(1); an out-of-order one re-folds its token's window once, on the next read.
 * @example
 * inv.applyFill(fill); inv.position(fill.tokenId).sizeMicro // 10_000_000n after a 10-share buy
 */
export class Inventory {
  readonly #ledgers = new Map<string, Ledger>();
  readonly #fills = new Map<string, Entry & { kind: "fill" }>();
  /** Fills held by the positions baseline (excludeFill), key → tsMs. */
  readonly #excluded = new Map<string, number>();
  // Fees that came before their fill, in two generations: a compaction drops the older one, so a fee
  // whose fill never arrives (a trade of an untracked order) is kept one compaction period at least.
  #pendingFees = new Map<string, FeeAmount>();
  #pendingOld = new Map<string, FeeAmount>();
  #corrections = 0;
  #floorMs = Number.NEGATIVE_INFINITY;
  #applied = 0;
  #late = 0;
  readonly #onFee: ((fill: Fill, fee: FeeAmount) => void) | undefined;

  constructor(opts: InventoryOptions = {}) {
    this.#onFee = opts.onFee;
  }

  /**
   * Starts a token's account from `account` instead of zero: the state an earlier run left (restored
   * from the journal). Fills and corrections then fold on top of it. Only before the token's first
   * entry: throws MmError `inventory_seed_late` otherwise.
   */
  seed(tokenId: string, account: TokenAccount): void {
    const l = this.#ledger(tokenId);
    if (l.entries.length > 0 || l.compacted > 0) {
      throw new MmError("inventory_seed_late", "a token's account can only be seeded before its first fill", {
        tokenId,
      });
    }
    l.base = account;
    l.acc = account;
    l.dirty = false;
  }

  /**
   * Changes a token's base (the seeded account, with the entries compacted so far folded in) by
   * `amend`: for what belongs before every entry still held — the fee of a fill an earlier run
   * applied, settled after that run stopped (restored-fees.ts). Later entries fold on top of it.
   */
  amendBase(tokenId: string, amend: (base: TokenAccount) => TokenAccount): void {
    const l = this.#ledger(tokenId);
    l.base = amend(l.base);
    l.dirty = true;
  }

  /**
   * Applies a fill; false when it was already applied (a duplicate), or is stamped before the floor
   * of the last compaction (a late duplicate, counted in `late`: see the class INVARIANTS).
   */
  applyFill(fill: Fill): boolean {
    const key = fillKey(fill.tradeId, fill.orderId);
    if (this.#fills.has(key) || this.#excluded.has(key)) return false;
    if (fill.tsMs < this.#floorMs) {
      this.#late++;
      return false;
    }
    const entry: Entry & { kind: "fill" } = { kind: "fill", fill, fee: this.#pendingFee(key) };
    this.#fills.set(key, entry);
    this.#applied++;
    this.#insert(fill.tokenId, entry);
    const l = this.#ledger(fill.tokenId);
    if (l.lastFillMs === undefined || fill.tsMs > l.lastFillMs) l.lastFillMs = fill.tsMs;
    if (entry.fee !== undefined) this.#onFee?.(fill, entry.fee);
    return true;
  }

  /**
   * Marks a fill as counted elsewhere, in the holdings the positions baseline was read from (a fill
   * of the baseline's own millisecond that came before it, engine-fills.ts): applyFill of it, from
   * any source, is then refused as a duplicate. Forgotten at the compaction past its time, like a fill.
   */
  excludeFill(fill: Fill): void {
    this.#excluded.set(fillKey(fill.tradeId, fill.orderId), fill.tsMs);
  }

  /** True when the fill (tradeId, orderId) has been applied and not yet compacted away. */
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
      const prior = this.#pendingFee(key);
      this.#pendingFees.set(key, fee);
      return prior === undefined || !sameFee(prior, fee);
    }
    if (entry.fee !== undefined && sameFee(entry.fee, fee)) return false;
    entry.fee = fee;
    this.#ledger(entry.fill.tokenId).dirty = true;
    this.#onFee?.(entry.fill, fee);
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

  /**
   * Folds every entry stamped before `horizonMs` into its token's base and forgets those fills,
   * bounding memory in a long run; accounts do not change. From then on a fill stamped before the
   * horizon is refused as a late duplicate, so pick a horizon before which every fill has been
   * applied (see the class INVARIANTS). A horizon at or before the current floor does nothing.
   * @returns the entries folded.
   * @example inv.compact(lastReconcileStartMs - tradeLookbackMs)
   */
  compact(horizonMs: number): number {
    if (!(horizonMs > this.#floorMs)) return 0;
    this.#floorMs = horizonMs;
    let folded = 0;
    for (const l of this.#ledgers.values()) {
      const k = firstAtOrAfter(l.entries, horizonMs);
      if (k === 0) continue;
      const old = l.entries.splice(0, k);
      // An in-step `acc` is already the fold of base + every entry, so it stays; a dirty one is
      // recomputed from the new base on the next read.
      l.base = old.reduce(step, l.base);
      l.compacted += k;
      folded += k;
      for (const e of old) if (e.kind === "fill") this.#fills.delete(fillKey(e.fill.tradeId, e.fill.orderId));
    }
    for (const [key, ts] of this.#excluded) if (ts < horizonMs) this.#excluded.delete(key);
    this.#pendingOld = this.#pendingFees;
    this.#pendingFees = new Map();
    return folded;
  }

  /** Fills refused because they were stamped before the compaction floor (late duplicates). */
  get late(): number {
    return this.#late;
  }

  /** Fills and corrections held individually (the window since the last compaction's horizon). */
  get windowSize(): number {
    let n = 0;
    for (const l of this.#ledgers.values()) n += l.entries.length;
    return n;
  }

  /** The token's account (zero when it never traded). */
  account(tokenId: string): TokenAccount {
    const l = this.#ledgers.get(tokenId);
    if (l === undefined) return EMPTY_ACCOUNT;
    if (l.dirty) {
      l.acc = l.entries.reduce(step, l.base);
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

  /**
   * The latest match time (tsMs, the exchange's clock) of any fill applied to the token, kept past
   * compaction; undefined when none was. A position check holds back a drift while such a fill may
   * still be settling (checkPositions).
   */
  lastFillMs(tokenId: string): number | undefined {
    return this.#ledgers.get(tokenId)?.lastFillMs;
  }

  /** How many distinct fills were applied (compacted ones included). */
  get fillCount(): number {
    return this.#applied;
  }

  #pendingFee(key: string): FeeAmount | undefined {
    const fee = this.#pendingFees.get(key) ?? this.#pendingOld.get(key);
    this.#pendingFees.delete(key);
    this.#pendingOld.delete(key);
    return fee;
  }

  #ledger(tokenId: string): Ledger {
    let l = this.#ledgers.get(tokenId);
    if (l === undefined) {
      l = {
        entries: [],
        base: EMPTY_ACCOUNT,
        compacted: 0,
        acc: EMPTY_ACCOUNT,
        dirty: false,
        lastFillMs: undefined,
      };
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

/** Index of the first entry stamped at or after `ms` (entries are in canonical order, time first). */
function firstAtOrAfter(entries: readonly Entry[], ms: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tsOf(entries[mid] as Entry) < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function tsOf(e: Entry): number {
  return e.kind === "fill" ? e.fill.tsMs : e.tsMs;
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
