import type { BacktestFill } from "../sim/bot-fills.js";

/** pico-USDC per micro-USDC (a price in micro × a size in micro is pico). */
export const PICO = 1_000_000n;

/** One token's position and its average-cost accounting, in exact integers. */
export interface TokenLedger {
  /** Shares held relative to the start, micro (signed). */
  q: bigint;
  /** Cash paid for the open position, pico-USDC (negative: proceeds of a short). */
  cost: bigint;
  /** Realised PnL, pico-USDC, net of fees. */
  realised: bigint;
  /** Cash flow, micro-USDC (negative: paid). */
  cash: bigint;
}

/** Fill counts and volumes of one liquidity role. */
export interface RoleVolume {
  count: number;
  /** Shares, micro. */
  quantity: bigint;
  /** USDC, micro. */
  notional: bigint;
}

/**
 * The bot's books, from the venue's fills alone: per token the position, the cash that actually
 * moved (the venue's rounded notionals, fees deducted where they were paid — BUY fees in shares,
 * SELL fees in USDC) and average-cost realised PnL. Exact: with every amount in pico-USDC,
 *   realised − cost = cash   and   total = cash + q·mark = realised + (q·mark − cost),
 * so realised + unrealised is the total to the last unit; the one rounding (the cost share a
 * partial close removes, truncated) stays in `cost` and leaves with the last share.
 */
export class Accountant {
  readonly tokens = new Map<string, TokenLedger>();
  readonly fees = { usdc: 0n, shares: 0n, valuePico: 0n };
  readonly maker: RoleVolume = { count: 0, quantity: 0n, notional: 0n };
  readonly taker: RoleVolume = { count: 0, quantity: 0n, notional: 0n };

  /** Books one fill. */
  apply(f: BacktestFill): void {
    const t = this.ledger(f.tokenId);
    const feeShares = f.fee.asset === "shares" ? f.fee.amount : 0n;
    const feeUsdc = f.fee.asset === "usdc" ? f.fee.amount : 0n;
    const dq = (f.side === "buy" ? f.quantity : -f.quantity) - feeShares;
    const dCash = (f.side === "buy" ? -f.notional : f.notional) - feeUsdc;
    t.cash += dCash;
    move(t, dq, -dCash * PICO);
    this.fees.usdc += feeUsdc;
    this.fees.shares += feeShares;
    this.fees.valuePico += feeUsdc * PICO + feeShares * f.price;
    const role = f.role === "maker" ? this.maker : this.taker;
    role.count++;
    role.quantity += f.quantity;
    role.notional += f.notional;
  }

  /** A token's ledger (zeros before its first fill). */
  ledger(tokenId: string): TokenLedger {
    let t = this.tokens.get(tokenId);
    if (t === undefined) {
      t = { q: 0n, cost: 0n, realised: 0n, cash: 0n };
      this.tokens.set(tokenId, t);
    }
    return t;
  }

  /** Σ cash, micro-USDC. */
  get cash(): bigint {
    let c = 0n;
    for (const t of this.tokens.values()) c += t.cash;
    return c;
  }
}

/** Moves a position by `dq` shares for `paid` pico-USDC (negative: received). */
function move(t: TokenLedger, dq: bigint, paid: bigint): void {
  if (dq === 0n) {
    t.realised -= paid;
    return;
  }
  if (t.q === 0n || t.q > 0n === dq > 0n) {
    t.q += dq;
    t.cost += paid;
    return;
  }
  const absQ = t.q < 0n ? -t.q : t.q;
  const absD = dq < 0n ? -dq : dq;
  const closed = absD < absQ ? absD : absQ;
  const costOut = (t.cost * closed) / absQ;
  const paidClosing = (paid * closed) / absD;
  t.realised += -paidClosing - costOut;
  t.cost -= costOut;
  t.q += dq > 0n ? closed : -closed;
  if (absD > closed) {
    t.q += dq > 0n ? absD - closed : closed - absD;
    t.cost += paid - paidClosing;
  }
}
