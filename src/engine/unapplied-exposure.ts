import type { UnappliedFills } from "../execution/order-store.js";
import type { InventoryExposure } from "../risk/inventory-caps.js";

/**
 * A token's exposure as the risk caps must see it: with the fills the exchange has reported on its
 * orders but inventory has not taken yet (OrderStore.unapplied) counted as if applied.
 *
 * Why: a placement answered FILLED or PARTIAL, or a reconcile's filledQty, lowers the order's
 * remainder at once (a FILLED order leaves `live`), while the position moves only when the fill
 * itself arrives (user_fill, a trade backfill): the spec does not order the answer and the push. In
 * between, those shares were in neither the position nor any remainder, and the caps let a new
 * order rest beyond the hard cap. They are real fills, so they count as position (not as orders
 * that may yet fill): the guard's quote-time caps then size the quote as they will once the fill
 * arrives, so the quote does not change when it does (nothing held, no cancel-replace of a clipped
 * order), and the in-flight fit, which reads the same exposure, sizes beside the live orders alone.
 *
 * The position and the grosses (this token's |position| in them) move by the net of the two sides.
 * The shares held drop by the sells on their way (the shares are gone) but do not rise by the buys
 * (not the wallet's to sell until the fill is in: the conservative reading).
 * @example const inventory = withUnapplied(core.positions.exposure(t), core.store.unapplied(t));
 */
export function withUnapplied(exp: InventoryExposure, u: UnappliedFills | undefined): InventoryExposure {
  if (u === undefined) return exp;
  const p = exp.positionMicro;
  const positionMicro = p + u.buy - u.sell;
  const dAbs = abs(positionMicro) - abs(p);
  const held = exp.heldMicro - u.sell;
  // A spread (rare: only while a fill is on its way): any other figure passes through as it is.
  return {
    ...exp,
    positionMicro,
    marketGrossMicro: exp.marketGrossMicro + dAbs,
    totalGrossMicro: exp.totalGrossMicro + dAbs,
    ...(exp.marketWorstMicro === undefined ? {} : { marketWorstMicro: exp.marketWorstMicro + dAbs }),
    ...(exp.totalWorstMicro === undefined ? {} : { totalWorstMicro: exp.totalWorstMicro + dAbs }),
    heldMicro: held > 0n ? held : 0n,
  };
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}
