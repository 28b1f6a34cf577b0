import {
  type WithdrawalRequest,
  type WithdrawalRequestResult,
  withdrawalRejectOf,
  withdrawalRequestResult,
} from "./assumptions.js";
import type { ExchangeCaller } from "./caller.js";
import { normaliseWithdrawal, normaliseWithdrawalList } from "./records.js";
import type { Withdrawal, WithdrawalListPage, WithdrawalListQuery } from "./types.js";

/**
 * Withdrawals. Reads need portfolio:read; cancel and request need vault:write. Neither write is ever
 * retried by the client (the spec forbids auto-retrying withdrawal requests).
 */
export class WithdrawalsApi {
  readonly #caller: ExchangeCaller;

  constructor(caller: ExchangeCaller) {
    this.#caller = caller;
  }

  /** GET /api/me/withdrawals (one page; pass `nextCursor` back as `cursor`). */
  list(query: WithdrawalListQuery = {}): Promise<WithdrawalListPage> {
    return this.#caller.call({
      method: "GET",
      route: "/api/me/withdrawals",
      query: { ...query },
      parse: normaliseWithdrawalList,
    });
  }

  /** GET /api/me/withdrawals/{id}; 404 `withdrawal_not_found` also for another wallet's id. */
  get(id: string): Promise<Withdrawal> {
    return this.#caller.call({
      method: "GET",
      route: "/api/me/withdrawals/{id}",
      params: { id },
      parse: normaliseWithdrawal,
    });
  }

  /** POST /api/me/withdrawals/{id}/cancel (no body); 409 `invalid_state` once SUBMITTED. */
  cancel(id: string): Promise<Withdrawal> {
    return this.#caller.call({
      method: "POST",
      route: "/api/me/withdrawals/{id}/cancel",
      params: { id },
      parse: normaliseWithdrawal,
    });
  }

  /**
   * POST /api/withdrawals/request. Business rejects in a 200 body (`aml_blocked`, `destination_not_cleared`,
   * `wallet_banned`) throw ExchangeError (rejected); `new_destination_edd` beside a created record is
   * returned as `code` (accepted, under compliance review).
   * @example const { withdrawal, code } = await client.withdrawals.request({ amount: "25", destination, signature });
   */
  request(body: WithdrawalRequest): Promise<WithdrawalRequestResult> {
    return this.#caller.call({
      method: "POST",
      route: "/api/withdrawals/request",
      body,
      rejectOf: withdrawalRejectOf,
      parse: withdrawalRequestResult,
    });
  }
}
