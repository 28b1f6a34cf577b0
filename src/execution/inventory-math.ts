import type { Side } from "../core/types.js";

/**
 * Average-cost accounting of one token, in exact integers. Prices are micro-USDC per share and sizes
 * micro-shares, so a trade's value price × size is an integer in pico-USDC (1e-12 USDC): every notional,
 * cost basis and PnL here is in pico-USDC and nothing is rounded except one step, the share of the cost
 * basis a partial close removes (cost × closed / size, truncated). The truncated remainder stays in the
 * basis and leaves with the last share, so no value ever leaks: at every point
 *
 *   realisedPico − feesPico = Σ cash received − Σ cash paid (net of USDC fees, in pico) + costPico
 *
 * and a position that returns to flat has realised exactly its cash flow. The PnL is the value of the
 * trades at their prices; the venue's per-fill rounding of the USDC actually moved (≤ 1 micro-USDC per
 * fill) is not modelled; balances come from the exchange.
 */
export interface TokenAccount {
  /** Signed micro-shares: positive long, negative short. */
  readonly sizeMicro: bigint;
  /** Cost basis of the open position, signed like sizeMicro (negative = proceeds of a short). */
  readonly costPico: bigint;
  /** Realised PnL before fees. */
  readonly realisedPico: bigint;
  /** Fees paid: USDC fees, plus share fees valued at their fill's price. */
  readonly feesPico: bigint;
  /** Share fees paid (BUY-taker fees), in micro-shares. */
  readonly feeSharesMicro: bigint;
}

export const EMPTY_ACCOUNT: TokenAccount = {
  sizeMicro: 0n,
  costPico: 0n,
  realisedPico: 0n,
  feesPico: 0n,
  feeSharesMicro: 0n,
};

/** A fee of one fill: BUY-taker fees are paid in shares, SELL-taker fees in USDC (see core/fees.ts). */
export interface FeeAmount {
  readonly asset: "shares" | "usdc";
  /** Micro-units of the asset. */
  readonly amountMicro: bigint;
}

/** pico-USDC per micro-USDC. */
export const PICO_PER_MICRO = 1_000_000n;

/**
 * One fill. A share fee (the BUY-taker rule) means fewer shares arrive: the position moves by
 * size − fee at the fill price and the fee's value (price × fee) is booked as a fee; a share fee on a
 * sell (no rule names one) would hand over fee more shares, booked the same way. A USDC fee is booked
 * as a fee. Either way realised PnL stays gross: net = realisedPico − feesPico.
 * @example applyTrade(EMPTY_ACCOUNT, "buy", 400_000, 10_000_000n).costPico // 4_000_000_000_000n (4 USDC)
 */
export function applyTrade(
  acc: TokenAccount,
  side: Side,
  priceMicro: number,
  sizeMicro: bigint,
  fee?: FeeAmount,
): TokenAccount {
  const price = BigInt(priceMicro);
  let delta = side === "buy" ? sizeMicro : -sizeMicro;
  let feesPico = acc.feesPico;
  let feeShares = acc.feeSharesMicro;
  if (fee !== undefined && fee.amountMicro > 0n) {
    if (fee.asset === "shares") {
      // A buyer cannot pay more shares than it receives; a seller paying in shares hands over extra ones.
      const paid = side === "buy" && fee.amountMicro > sizeMicro ? sizeMicro : fee.amountMicro;
      delta -= paid;
      feeShares += paid;
      feesPico += price * paid;
    } else {
      feesPico += fee.amountMicro * PICO_PER_MICRO;
    }
  }
  const next = moveAtPrice(acc, delta, price);
  return { ...next, feesPico, feeSharesMicro: feeShares };
}

/**
 * Moves the position by `delta` micro-shares at `price`: a move away from zero adds to the basis; a move
 * towards zero realises against the average cost; a move through zero closes, then opens the rest.
 */
export function moveAtPrice(acc: TokenAccount, delta: bigint, price: bigint): TokenAccount {
  if (delta === 0n) return acc;
  const q = acc.sizeMicro;
  if (q === 0n || q > 0n === delta > 0n) {
    return { ...acc, sizeMicro: q + delta, costPico: acc.costPico + price * delta };
  }
  const absQ = abs(q);
  const closed = abs(delta) < absQ ? abs(delta) : absQ;
  const removed = (acc.costPico * closed) / absQ;
  const proceeds = price * closed;
  const realised = acc.realisedPico + (q > 0n ? proceeds - removed : -removed - proceeds);
  const after: TokenAccount = {
    ...acc,
    sizeMicro: q > 0n ? q - closed : q + closed,
    costPico: acc.costPico - removed,
    realisedPico: realised,
  };
  const rest = abs(delta) - closed;
  if (rest === 0n) return after;
  return moveAtPrice(after, delta > 0n ? rest : -rest, price);
}

/**
 * Sets the position to `targetMicro` without a trade (the exchange's position disagreed). Shares that
 * vanished leave at the average cost (no PnL); shares that appeared enter at `markMicro`, or at the
 * average cost when no mark is given (at zero when the position was flat). Realised PnL is unchanged.
 */
export function correctTo(
  acc: TokenAccount,
  targetMicro: bigint,
  markMicro: number | undefined,
): TokenAccount {
  const q = acc.sizeMicro;
  if (targetMicro === q) return acc;
  const sameSide = q !== 0n && targetMicro !== 0n && q > 0n === targetMicro > 0n;
  if (sameSide && abs(targetMicro) < abs(q)) {
    return { ...acc, sizeMicro: targetMicro, costPico: (acc.costPico * targetMicro) / q };
  }
  const kept = sameSide ? q : 0n;
  const keptCost = sameSide ? acc.costPico : 0n;
  const added = targetMicro - kept;
  const price = markMicro !== undefined ? BigInt(markMicro) : sameSide ? (acc.costPico + q / 2n) / q : 0n;
  return { ...acc, sizeMicro: targetMicro, costPico: keptCost + price * added };
}

/** Unrealised PnL of the open position marked at `markMicro` (e.g. the book's mid): size × mark − cost. */
export function unrealisedPico(acc: TokenAccount, markMicro: number): bigint {
  return acc.sizeMicro * BigInt(markMicro) - acc.costPico;
}

/** pico-USDC → micro-USDC, truncated towards zero. */
export function picoToMicro(pico: bigint): bigint {
  return pico / PICO_PER_MICRO;
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}
