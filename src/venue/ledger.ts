import { MmError } from "../core/errors.js";
import type { AccountId, Balance } from "./types.js";

/** Ledger key of USDC; every other asset key is an outcome token id (a decimal string). */
export const USDC = "usdc";

/** The account that collects every fee, so that totals per asset are conserved by trading. */
export const FEE_ACCOUNT: AccountId = "fee-account";

interface Slot {
  balance: bigint;
  reserved: bigint;
}

/**
 * Balances and reservations per (account, asset). An open order reserves what it may still spend;
 * a fill spends from the reservation; a cancel releases it. Every mutation keeps
 * balance ≥ reserved ≥ 0 or throws `venue_invariant` (a bug, never a business reject: callers
 * check `available` first).
 */
export class Ledger {
  readonly #slots = new Map<AccountId, Map<string, Slot>>();

  /** Balance of one asset; zeros when the account never held it. */
  get(account: AccountId, asset: string): Balance {
    const s = this.#slots.get(account)?.get(asset);
    const balance = s?.balance ?? 0n;
    const reserved = s?.reserved ?? 0n;
    return { balance, reserved, available: balance - reserved };
  }

  /** Unreserved balance. */
  available(account: AccountId, asset: string): bigint {
    const s = this.#slots.get(account)?.get(asset);
    return s === undefined ? 0n : s.balance - s.reserved;
  }

  /** Assets an account has ever held, in first-seen order. */
  assets(account: AccountId): string[] {
    return [...(this.#slots.get(account)?.keys() ?? [])];
  }

  /** Accounts known to the ledger, in first-seen order. */
  accounts(): AccountId[] {
    return [...this.#slots.keys()];
  }

  /** Adds to the balance. */
  credit(account: AccountId, asset: string, amount: bigint): void {
    this.#apply(account, asset, nonNegative(amount), 0n);
  }

  /** Removes unreserved balance. */
  debit(account: AccountId, asset: string, amount: bigint): void {
    this.#apply(account, asset, -nonNegative(amount), 0n);
  }

  /** Sets part of the available balance aside for an open order. */
  reserve(account: AccountId, asset: string, amount: bigint): void {
    this.#apply(account, asset, 0n, nonNegative(amount));
  }

  /** Returns reserved balance to available. */
  release(account: AccountId, asset: string, amount: bigint): void {
    this.#apply(account, asset, 0n, -nonNegative(amount));
  }

  /** Pays out of a reservation: balance and reservation both fall by `amount`. */
  spendReserved(account: AccountId, asset: string, amount: bigint): void {
    const a = nonNegative(amount);
    this.#apply(account, asset, -a, -a);
  }

  // Checks before writing, so a refused mutation leaves the ledger untouched.
  #apply(account: AccountId, asset: string, dBalance: bigint, dReserved: bigint): void {
    let byAsset = this.#slots.get(account);
    if (byAsset === undefined) {
      byAsset = new Map();
      this.#slots.set(account, byAsset);
    }
    const s = byAsset.get(asset) ?? { balance: 0n, reserved: 0n };
    const balance = s.balance + dBalance;
    const reserved = s.reserved + dReserved;
    if (reserved < 0n || balance < reserved) {
      throw new MmError("venue_invariant", `ledger of ${account} in ${asset} would go negative`, {
        account,
        asset,
        balance: balance.toString(),
        reserved: reserved.toString(),
      });
    }
    s.balance = balance;
    s.reserved = reserved;
    byAsset.set(asset, s);
  }
}

function nonNegative(amount: bigint): bigint {
  if (amount < 0n) {
    throw new MmError("venue_invariant", "ledger amounts are non-negative", { amount: amount.toString() });
  }
  return amount;
}
