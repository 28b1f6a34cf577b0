import type { Fill } from "../core/trading.js";
import { applyTrade, EMPTY_ACCOUNT, type FeeAmount, type TokenAccount } from "../execution/inventory-math.js";
import { feeAlone } from "../execution/restored-fees.js";
import { sameAccount } from "./codec.js";
import type { JournalWriter } from "./writer.js";

/**
 * The journal's own books for tokens this run does not trade (the engine's `restored_fill`): fills
 * of an earlier run's orders made while mm was down (the start-up search), and any user_fill the
 * wallet's stream delivers on such a token (an earlier run's order filled before its orphan cancel
 * landed, another process on the wallet).
 *
 * Why: the engine keeps accounts for its own tokens only, so such a fill was left out of the journal
 * (or, from the stream, journaled with an account of that fill alone, written over the real one):
 * `mm report` lacked it or counted an earlier run's realised PnL again, and the next run trading that
 * token restored a position the exchange does not hold. Booked here under its token — a `restore`
 * row with the account the journal had (a run's starting point, which `mm report` does not count as
 * realised), then the fill, its fee when known, and the account after them — the next run that
 * trades the token restores it with the fill, and knows the fill as journaled. Each fill is written
 * once (its fill row decides): the search's copy of a fill the stream delivered first only brings
 * its fee. A fee not known by the end of the run is then fee-pending like any fill journaled
 * without its fee.
 * @example const f = new ForeignFills(restore.accounts); f.record(writer, run, fill, fee, now);
 */
export class ForeignFills {
  readonly #accounts: Map<string, TokenAccount>;
  readonly #started = new Set<string>();
  /**
   * Fills booked here without their fee, by tradeId + orderId, until the start-up search is over:
   * its copy of the trade may bring the fee; nothing later does (bounded: a busy other process on
   * the wallet streams fills all run long).
   */
  readonly #feeless = new Map<string, Fill>();
  #searchOver = false;

  /** @param accounts the journaled accounts of the tokens this run does not trade (their last rows). */
  constructor(accounts: ReadonlyMap<string, TokenAccount>) {
    this.#accounts = new Map(accounts);
  }

  /** The account the journal holds for `tokenId` now (undefined: never traded). */
  account(tokenId: string): TokenAccount | undefined {
    return this.#accounts.get(tokenId);
  }

  /**
   * The start-up search for fills made while mm was down is over (the engine's `started`): later
   * fills come from the stream, without a fee, and no later copy brings one.
   */
  searchOver(): void {
    this.#searchOver = true;
    this.#feeless.clear();
  }

  /**
   * Journals `fill` (with `fee` when known) in run `run`, in one transaction, unless its fill row is
   * there already; then only a fee for a fill booked here without one is written (with the account
   * it changes). Returns whether it wrote.
   */
  record(writer: JournalWriter, run: number, fill: Fill, fee: FeeAmount | undefined, atMs: number): boolean {
    const t = fill.tokenId;
    const key = keyOf(fill);
    const before = this.#accounts.get(t);
    const after = applyTrade(before ?? EMPTY_ACCOUNT, fill.side, fill.priceMicro, fill.sizeMicro, fee);
    // Set inside the transaction, applied to this object's state only once it has committed.
    let done: (() => void) | undefined;
    writer.batch(() => {
      if (!writer.fill(run, fill, "backfill")) {
        if (fee !== undefined) done = this.#feeOnly(writer, run, key, fee, atMs);
        return;
      }
      // The run's starting point for the token, first: mm report counts only the steps after it.
      if (before !== undefined && !this.#started.has(t))
        writer.account(run, atMs, "restore", t, before, undefined);
      if (fee !== undefined) writer.fee(fill, fee, atMs);
      writer.account(run, fill.tsMs, "fill", t, after, undefined);
      done = () => {
        this.#accounts.set(t, after);
        this.#started.add(t);
        if (fee === undefined && !this.#searchOver) this.#feeless.set(key, fill);
      };
    });
    done?.();
    return done !== undefined;
  }

  /**
   * The fee of a fill booked here without one (the stream carries none; the search's copy of the
   * trade may): its fee row, and the token's account with the fee applied on its own (feeAlone, as
   * the engine does for an earlier run's fill whose fee comes late). Runs inside record's batch;
   * returns what to apply once it commits, or undefined when there is nothing to write.
   */
  #feeOnly(
    writer: JournalWriter,
    run: number,
    key: string,
    fee: FeeAmount,
    atMs: number,
  ): (() => void) | undefined {
    const fill = this.#feeless.get(key);
    if (fill === undefined) return undefined;
    const t = fill.tokenId;
    const acc = this.#accounts.get(t) ?? EMPTY_ACCOUNT;
    const next = feeAlone(acc, fill, fee, 1n);
    writer.fee(fill, fee, atMs);
    if (!sameAccount(acc, next)) writer.account(run, atMs, "reconcile", t, next, undefined);
    return () => {
      this.#feeless.delete(key);
      this.#accounts.set(t, next);
    };
  }
}

function keyOf(f: Fill): string {
  return `${f.tradeId}\u0000${f.orderId}`;
}
