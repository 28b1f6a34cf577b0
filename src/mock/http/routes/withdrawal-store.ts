import { keccak256, toBytes } from "viem";
import type { Address, WithdrawalStatus } from "../../../core/types.js";
import { KeysetList } from "../../../venue/keyset.js";
import { USDC } from "../../../venue/ledger.js";
import type { Keyset, Page } from "../../../venue/types.js";
import type { MockContext } from "../../context.js";
import { HttpProblem } from "../problem.js";
import { uuidFrom } from "./format.js";

/** A withdrawal as the mock keeps it (amount in USDC micro-units). */
export interface WithdrawalRow {
  readonly id: string;
  readonly wallet: Address;
  readonly amount: bigint;
  readonly destination: Address;
  readonly createdAt: number;
  /** True when it went to compliance review (new destination above the threshold). */
  readonly review: boolean;
  status: WithdrawalStatus;
  updatedAt: number;
  txHash: string | undefined;
  reason: string | undefined;
}

/** New destinations at or above this many USDC go to MLRO review (`new_destination_edd`). */
export const REVIEW_THRESHOLD_USDC = 10_000n * 1_000_000n;

/**
 * The mock's withdrawals: the spec's states, moved forward by the clock since the operations that
 * trigger processing are not shown. Each step takes the scenario's settlementDelayMs: PENDING →
 * CO_SIGNED → SUBMITTED (txHash set) → CONFIRMED; a review adds four steps in MLRO_REVIEW before
 * CO_SIGNED. The amount is debited from the wallet's available USDC at request time and credited
 * back on cancel. Cancel is allowed while PENDING or MLRO_REVIEW, 409 `invalid_state` after.
 */
export class WithdrawalStore {
  readonly #ctx: MockContext;
  readonly #byId = new Map<string, WithdrawalRow>();
  readonly #byWallet = new Map<Address, KeysetList<WithdrawalRow>>();
  readonly #step: number;
  #seq = 0;

  constructor(ctx: MockContext) {
    this.#ctx = ctx;
    this.#step = Math.max(1, ctx.scenario.timing.settlementDelayMs);
  }

  /** Records a request whose funds were checked; debits the amount. */
  create(wallet: Address, amount: bigint, destination: Address): WithdrawalRow {
    const now = this.#ctx.clock.now();
    const review = amount >= REVIEW_THRESHOLD_USDC && !this.#usedBefore(wallet, destination);
    this.#ctx.venue.debit(wallet, USDC, amount);
    const row: WithdrawalRow = {
      id: uuidFrom(`withdrawal:${this.#ctx.scenario.seed}:${++this.#seq}`),
      wallet,
      amount,
      destination,
      createdAt: now,
      review,
      status: review ? "MLRO_REVIEW" : "PENDING",
      updatedAt: now,
      txHash: undefined,
      reason: undefined,
    };
    this.#byId.set(row.id, row);
    let list = this.#byWallet.get(wallet);
    if (list === undefined) {
      list = new KeysetList((w) => ({ createdAt: w.createdAt, id: w.id }));
      this.#byWallet.set(wallet, list);
    }
    list.insert(row);
    return row;
  }

  /** One withdrawal of `wallet`, brought up to date; 404 `withdrawal_not_found` otherwise. */
  get(wallet: Address, id: string): WithdrawalRow {
    const row = this.#byId.get(id);
    if (row === undefined || row.wallet !== wallet) {
      throw new HttpProblem(404, "withdrawal_not_found", `no withdrawal ${id.slice(0, 64)}`, {
        id: id.slice(0, 64),
      });
    }
    return this.#advance(row);
  }

  /** Cancels a withdrawal that has not been co-signed yet and credits the amount back. */
  cancel(wallet: Address, id: string): WithdrawalRow {
    const row = this.get(wallet, id);
    if (row.status !== "PENDING" && row.status !== "MLRO_REVIEW") {
      throw new HttpProblem(
        409,
        "invalid_state",
        `withdrawal is ${row.status}; it can no longer be cancelled`,
        {
          id: row.id,
          status: row.status,
        },
      );
    }
    row.status = "CANCELLED";
    row.reason = "user_cancelled";
    row.updatedAt = this.#ctx.clock.now();
    this.#ctx.venue.credit(wallet, USDC, row.amount);
    return row;
  }

  /** A page of `wallet`'s withdrawals, newest first. */
  list(
    wallet: Address,
    q: { status?: WithdrawalStatus; from?: number; to?: number; after?: Keyset; limit: number },
  ): Page<WithdrawalRow> {
    const list = this.#byWallet.get(wallet);
    if (list === undefined) return { items: [], next: undefined };
    for (const row of list.all()) this.#advance(row);
    return list.page(
      q.after,
      q.limit,
      (w) =>
        (q.status === undefined || w.status === q.status) &&
        (q.from === undefined || w.createdAt >= q.from) &&
        (q.to === undefined || w.createdAt < q.to),
    );
  }

  #usedBefore(wallet: Address, destination: Address): boolean {
    return (this.#byWallet.get(wallet)?.all() ?? []).some((w) => w.destination === destination);
  }

  // Moves a row along its schedule up to now (terminal rows stay where they are).
  #advance(row: WithdrawalRow): WithdrawalRow {
    if (row.status === "CANCELLED" || row.status === "CONFIRMED") return row;
    const offset = row.review ? 4 * this.#step : 0;
    const schedule: [WithdrawalStatus, number][] = [
      ["CO_SIGNED", row.createdAt + offset + this.#step],
      ["SUBMITTED", row.createdAt + offset + 2 * this.#step],
      ["CONFIRMED", row.createdAt + offset + 3 * this.#step],
    ];
    const now = this.#ctx.clock.now();
    for (const [status, at] of schedule) {
      if (now < at || rank(row.status) >= rank(status)) continue;
      row.status = status;
      row.updatedAt = at;
      if (status === "SUBMITTED") row.txHash = keccak256(toBytes(`mm-mock-withdrawal:${row.id}`));
    }
    return row;
  }
}

const ORDER: readonly WithdrawalStatus[] = ["PENDING", "MLRO_REVIEW", "CO_SIGNED", "SUBMITTED", "CONFIRMED"];

function rank(s: WithdrawalStatus): number {
  return ORDER.indexOf(s);
}
