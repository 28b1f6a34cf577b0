import type { Fill } from "../../core/trading.js";
import { EMPTY_ACCOUNT, type FeeAmount } from "../../execution/inventory-math.js";
import { feeAlone } from "../../execution/restored-fees.js";
import type { FillRole } from "./fill-roles.js";

/** Where a booked fee is counted: the fill's token and role, and the USDC it adds, pico-USDC. */
export type FeeCount = (fill: Fill, role: FillRole, pico: bigint) => void;

/**
 * The fee's value as the engine books it into an account's fees (pico-USDC): a USDC fee as is, a
 * share fee at the fill's price (a buyer pays at most the shares it receives), nothing for a fee ≤ 0.
 * @example bookedFeePico(buyAt030, { asset: "shares", amountMicro: 50_000n }); // 15_000_000_000n (0.015 USDC)
 */
export function bookedFeePico(fill: Fill, fee: FeeAmount): bigint {
  return feeAlone(EMPTY_ACCOUNT, fill, fee, 1n).feesPico;
}

/**
 * Turns the engine's `fee` events into counted fees per fill role. user_fill carries no fee: a fee
 * is booked when it settles, normally long after the fill, so the count follows the booking, never
 * an estimate at fill time. The role is the one its `fill` event was counted under, so the two events
 * are matched by (tradeId, orderId) whatever their order:
 * - fee after fill (a fee settling later): counted at once under the fill's role;
 * - fee before fill (Inventory attaches a fee that waited for its fill inside applyFill; a reconcile's
 *   backfill sets fees before the engine reports the fills it backfilled): held until the fill comes;
 * - fee with no fill this session (a fill an earlier run applied, whose fee settled after it stopped:
 *   restored-fees.ts): still held when the reconcile that booked it ends (`settleHeld`), since every
 *   fill a reconcile applies is reported before it ends; counted then as `unknown`.
 * A changed fee counts only what it adds above the highest value counted for its fill: a counter
 * cannot go down, so a fee corrected downwards leaves the count at the earlier, higher value.
 * Memory is bounded: the least recently used fills are forgotten first (a fee arriving for a fill
 * forgotten counts under `unknown`).
 */
export class BookedFees {
  readonly #count: FeeCount;
  readonly #max: number;
  /** Fills counted, by key: their role and the fee counted so far (pico). */
  readonly #seen = new Map<string, { readonly role: FillRole; pico: bigint }>();
  /** Fees whose fill has not been reported yet, by key. */
  readonly #held = new Map<string, { readonly fill: Fill; readonly pico: bigint }>();

  /** `maxFills` bounds each of the two maps (default 10,000, like FillRoles). */
  constructor(count: FeeCount, maxFills = 10_000) {
    this.#count = count;
    this.#max = maxFills;
  }

  /** A fill counted under `role` (its `fill` event); a fee held for it is counted now. */
  fill(fill: Fill, role: FillRole): void {
    const key = keyOf(fill);
    if (this.#seen.has(key)) return;
    const held = this.#held.get(key);
    this.#held.delete(key);
    this.#remember(key, role, 0n);
    if (held !== undefined) this.fee(fill, held.pico);
  }

  /** A fee booked for `fill` (its `fee` event), as bookedFeePico values it. */
  fee(fill: Fill, pico: bigint): void {
    const key = keyOf(fill);
    const seen = this.#seen.get(key);
    if (seen === undefined) {
      this.#held.delete(key);
      this.#held.set(key, { fill, pico });
      evict(this.#held, this.#max, (h) => this.#countUnknown(h.fill, h.pico));
      return;
    }
    // Re-inserted: a fill whose fee is still moving is the last to be forgotten.
    this.#seen.delete(key);
    this.#seen.set(key, seen);
    if (pico <= seen.pico) return;
    this.#count(fill, seen.role, pico - seen.pico);
    seen.pico = pico;
  }

  /** A reconcile ended (or failed): every fee still held belongs to no fill of this session. */
  settleHeld(): void {
    const held = [...this.#held.values()];
    this.#held.clear();
    for (const h of held) this.#countUnknown(h.fill, h.pico);
  }

  #countUnknown(fill: Fill, pico: bigint): void {
    this.#remember(keyOf(fill), "unknown", 0n);
    this.fee(fill, pico);
  }

  #remember(key: string, role: FillRole, pico: bigint): void {
    this.#seen.set(key, { role, pico });
    evict(this.#seen, this.#max, () => undefined);
  }
}

function keyOf(fill: Fill): string {
  return `${fill.tradeId}\u0000${fill.orderId}`;
}

function evict<V>(m: Map<string, V>, max: number, dropped: (v: V) => void): void {
  while (m.size > max) {
    const first = m.entries().next();
    if (first.done === true) return;
    m.delete(first.value[0]);
    dropped(first.value[1]);
  }
}
