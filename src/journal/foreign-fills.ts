import type { Fill } from "../core/trading.js";
import { applyTrade, EMPTY_ACCOUNT, type FeeAmount, type TokenAccount } from "../execution/inventory-math.js";
import type { JournalWriter } from "./writer.js";

/**
 * The journal's own books for tokens this run does not trade, where fills of an earlier run's orders
 * made while mm was down can still land (the engine's `restored_fill`).
 *
 * Why: the engine keeps accounts for its own tokens only, so such a fill was left out of the journal:
 * `mm report` lacked it, and the next run trading that token took its shares into the baseline (the
 * exchange's position minus the journaled account), never into PnL. Booked here under its token — a
 * `restore` row with the account the journal had (a run's starting point, which `mm report` does not
 * count as realised), then the fill, its fee when known, and the account after them — the next run
 * that trades the token restores it with the fill, and knows the fill as journaled. A fee not known
 * yet is then fee-pending like any fill journaled without its fee.
 * @example const f = new ForeignFills(restore.accounts); f.record(writer, run, fill, fee, now);
 */
export class ForeignFills {
  readonly #accounts: Map<string, TokenAccount>;
  readonly #started = new Set<string>();

  /** @param accounts the journaled accounts of the tokens this run does not trade (their last rows). */
  constructor(accounts: ReadonlyMap<string, TokenAccount>) {
    this.#accounts = new Map(accounts);
  }

  /** The account the journal holds for `tokenId` now (undefined: never traded). */
  account(tokenId: string): TokenAccount | undefined {
    return this.#accounts.get(tokenId);
  }

  /**
   * Journals `fill` (with `fee` when known) in run `run`, in one transaction, unless its fill row is
   * there already. Returns whether it wrote.
   */
  record(writer: JournalWriter, run: number, fill: Fill, fee: FeeAmount | undefined, atMs: number): boolean {
    const t = fill.tokenId;
    const before = this.#accounts.get(t);
    const after = applyTrade(before ?? EMPTY_ACCOUNT, fill.side, fill.priceMicro, fill.sizeMicro, fee);
    const wrote = writer.batch(() => {
      if (!writer.fill(run, fill, "backfill")) return false;
      // The run's starting point for the token, first: mm report counts only the steps after it.
      if (before !== undefined && !this.#started.has(t))
        writer.account(run, atMs, "restore", t, before, undefined);
      if (fee !== undefined) writer.fee(fill, fee, atMs);
      writer.account(run, fill.tsMs, "fill", t, after, undefined);
      return true;
    });
    if (wrote) {
      this.#accounts.set(t, after);
      this.#started.add(t);
    }
    return wrote;
  }
}
