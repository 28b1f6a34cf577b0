import {
  type WithdrawalRequest,
  type WithdrawalRequestResult,
  withdrawalRejectOf,
  withdrawalRequestResult,
} from "./assumptions.js";
import type { ExchangeCaller } from "./caller.js";
import { ExchangeError } from "./exchange-error.js";
import type { ReadOptions } from "./markets.js";
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

  /**
   * GET /api/me/withdrawals (one page; pass `nextCursor` back as `cursor`); `opts` bounds its
   * attempts and their timeout (the start's wallet check: checkSignerWallet).
   */
  list(query: WithdrawalListQuery = {}, opts: ReadOptions = {}): Promise<WithdrawalListPage> {
    return this.#caller.call({
      method: "GET",
      route: "/api/me/withdrawals",
      query: { ...query },
      parse: normaliseWithdrawalList,
      ...opts,
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
   * returned as `code` (accepted, under compliance review). The spec's plain `new_destination_edd`
   * envelope (no record) says the withdrawal exists, under review: it throws as `ambiguous`, never as
   * a reject, so that nobody requests it again (find it with `list`).
   * @example const { withdrawal, code } = await client.withdrawals.request({ amount: "25", destination, signature });
   */
  async request(body: WithdrawalRequest): Promise<WithdrawalRequestResult> {
    try {
      return await this.#caller.call({
        method: "POST",
        route: "/api/withdrawals/request",
        body,
        rejectOf: withdrawalRejectOf,
        parse: withdrawalRequestResult,
      });
    } catch (err) {
      if (!(err instanceof ExchangeError) || err.code !== "new_destination_edd") throw err;
      if (err.httpStatus === undefined || err.httpStatus >= 300) throw err;
      throw new ExchangeError({
        code: err.code,
        message: `${err.message} (the withdrawal was created and is under compliance review: list it, do not request it again)`,
        outcome: "ambiguous",
        endpoint: err.endpoint,
        httpStatus: err.httpStatus,
        requestId: err.requestId,
        traceId: err.traceId,
        details: { ...err.details },
        cause: err,
      });
    }
  }
}
