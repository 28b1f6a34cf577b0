import type { Side } from "../core/types.js";
import type { FeeAmount, TokenAccount } from "../execution/inventory-math.js";

/** An `accounts` row as SQLite returns it (safe integers on: INTEGER columns are bigint). */
export interface AccountRow {
  readonly token_id: string;
  readonly size_micro: bigint;
  readonly cost_pico: string;
  readonly realised_pico: string;
  readonly fees_pico: string;
  readonly fee_shares_micro: bigint;
  readonly mark_micro: bigint | null;
}

/** An account as the columns of an `accounts` row (pico figures as decimal text). */
export function accountColumns(acc: TokenAccount): {
  size_micro: bigint;
  cost_pico: string;
  realised_pico: string;
  fees_pico: string;
  fee_shares_micro: bigint;
} {
  return {
    size_micro: acc.sizeMicro,
    cost_pico: acc.costPico.toString(),
    realised_pico: acc.realisedPico.toString(),
    fees_pico: acc.feesPico.toString(),
    fee_shares_micro: acc.feeSharesMicro,
  };
}

/** The account an `accounts` row holds, exactly. */
export function accountOfRow(row: AccountRow): TokenAccount {
  return {
    sizeMicro: BigInt(row.size_micro),
    costPico: BigInt(row.cost_pico),
    realisedPico: BigInt(row.realised_pico),
    feesPico: BigInt(row.fees_pico),
    feeSharesMicro: BigInt(row.fee_shares_micro),
  };
}

/** True when two accounts hold the same figures. */
export function sameAccount(a: TokenAccount, b: TokenAccount): boolean {
  return (
    a.sizeMicro === b.sizeMicro &&
    a.costPico === b.costPico &&
    a.realisedPico === b.realisedPico &&
    a.feesPico === b.feesPico &&
    a.feeSharesMicro === b.feeSharesMicro
  );
}

/**
 * What a fill's fee costs in pico-USDC, by the rule Inventory books it with (applyTrade in
 * inventory-math.ts): a USDC fee at face value; a share fee at the fill's price, a buyer paying at
 * most the shares it received.
 * @example feeValuePico("buy", 500_000, 10_000_000n, { asset: "shares", amountMicro: 100_000n }) // 5e10 (0.05 USDC)
 */
export function feeValuePico(side: Side, priceMicro: number, sizeMicro: bigint, fee: FeeAmount): bigint {
  if (fee.amountMicro <= 0n) return 0n;
  if (fee.asset === "usdc") return fee.amountMicro * 1_000_000n;
  const paid = side === "buy" && fee.amountMicro > sizeMicro ? sizeMicro : fee.amountMicro;
  return BigInt(priceMicro) * paid;
}
