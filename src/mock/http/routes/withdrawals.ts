import { parseDecimal } from "../../../core/decimal.js";
import { type Address, WITHDRAWAL_STATUSES } from "../../../core/types.js";
import { toWei } from "../../../core/wei.js";
import { weiToString } from "../../../venue/wire.js";
import { HttpProblem } from "../problem.js";
import { enumParam, limitParam, timeParam } from "../query.js";
import type { Route } from "../route.js";
import { iso, json } from "./format.js";
import { actingWallet, type RouteDeps } from "./shared.js";
import type { WithdrawalRow } from "./withdrawal-store.js";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/** The spec's Withdrawal record. */
export function wireWithdrawal(w: WithdrawalRow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: w.id,
    userWallet: w.wallet,
    amount: weiToString(w.amount),
    destination: w.destination,
    status: w.status,
    createdAt: iso(w.createdAt),
    updatedAt: iso(w.updatedAt),
  };
  if (w.txHash !== undefined) out.txHash = w.txHash;
  if (w.reason !== undefined) out.reason = w.reason;
  return out;
}

/**
 * Withdrawals: GET /api/me/withdrawals (status enum, from inclusive, to exclusive, limit 1..200
 * default 50, cursor), GET /api/me/withdrawals/{id} (portfolio:read), POST
 * /api/me/withdrawals/{id}/cancel and POST /api/withdrawals/request (vault:write, KYC-cleared).
 * Another wallet's id is 404 `withdrawal_not_found`, like an unknown one.
 *
 * Request body (not shown in the spec): `amount` (USDC, human units; not above 0 → 400
 * `invalid_amount`), `destination` (address), `signature` (the owner's EIP-712 signature, 65 bytes
 * of hex; its typed data is not shown, so only its shape is checked). 200-envelope rejects:
 * `wallet_banned` (destination is a banned wallet or its vault), `insufficient_funds` (more than
 * the available USDC). A new destination at or above 10,000 USDC is created in MLRO_REVIEW with
 * `code: new_destination_edd` beside the record.
 */
export function withdrawalRoutes(deps: RouteDeps): Route[] {
  const { ctx, withdrawals } = deps;
  return [
    {
      method: "GET",
      pattern: "/api/me/withdrawals",
      auth: "key",
      scopes: ["portfolio:read"],
      handler: (rc) => {
        const wallet = actingWallet(rc).address;
        const status = enumParam(rc.query, "status", WITHDRAWAL_STATUSES);
        const from = timeParam(rc.query, "from");
        const to = timeParam(rc.query, "to");
        const limit = limitParam(rc.query, { def: 50, max: 200 });
        const after = deps.cursors.decode("withdrawals", wallet, rc.query.get("cursor"));
        const page = withdrawals.list(wallet, {
          limit,
          ...(status === undefined ? {} : { status }),
          ...(from === undefined ? {} : { from }),
          ...(to === undefined ? {} : { to }),
          ...(after === undefined ? {} : { after }),
        });
        return json({
          walletAddress: wallet,
          withdrawals: page.items.map(wireWithdrawal),
          nextCursor: page.next === undefined ? null : deps.cursors.encode("withdrawals", wallet, page.next),
        });
      },
    },
    {
      method: "GET",
      pattern: "/api/me/withdrawals/{id}",
      auth: "key",
      scopes: ["portfolio:read"],
      handler: (rc) => json(wireWithdrawal(withdrawals.get(actingWallet(rc).address, rc.params.id ?? ""))),
    },
    {
      method: "POST",
      pattern: "/api/me/withdrawals/{id}/cancel",
      auth: "key",
      scopes: ["vault:write"],
      write: true,
      handler: (rc) => json(wireWithdrawal(withdrawals.cancel(actingWallet(rc).address, rc.params.id ?? ""))),
    },
    {
      method: "POST",
      pattern: "/api/withdrawals/request",
      auth: "key",
      scopes: ["vault:write"],
      write: true,
      handler: (rc) => {
        const wallet = actingWallet(rc).address;
        const b =
          typeof rc.body === "object" && rc.body !== null && !Array.isArray(rc.body)
            ? (rc.body as Record<string, unknown>)
            : undefined;
        if (b === undefined)
          throw new HttpProblem(400, "bad_request", "the body must be a JSON object", { field: "body" });
        const amount = withdrawalAmount(b.amount);
        if (typeof b.destination !== "string" || !ADDRESS.test(b.destination)) {
          throw new HttpProblem(400, "bad_request", "destination must be an address", {
            field: "destination",
          });
        }
        if (typeof b.signature !== "string" || !SIGNATURE.test(b.signature)) {
          throw new HttpProblem(400, "bad_request", "signature must be 65 bytes of 0x-hex", {
            field: "signature",
          });
        }
        const destination = b.destination.toLowerCase() as Address;
        const banned = ctx.directory
          .wallets()
          .some((w) => w.banned && (w.address === destination || w.vault === destination));
        if (banned) return json({ code: "wallet_banned", message: "the destination is a banned wallet" });
        const available = ctx.venue.balances(wallet).usdc.available;
        if (available < amount) {
          return json({
            code: "insufficient_funds",
            message: "the amount exceeds the available USDC",
            details: { amount: weiToString(amount), available: weiToString(available) },
          });
        }
        const row = withdrawals.create(wallet, amount, destination);
        const record = wireWithdrawal(row);
        return json(
          row.review
            ? { ...record, code: "new_destination_edd", message: "new destination: compliance review" }
            : record,
          201,
        );
      },
    },
  ];
}

function withdrawalAmount(value: unknown): bigint {
  try {
    const wei = toWei(parseDecimal(value, "amount"), "amount");
    if (wei > 0n) return wei;
  } catch {
    // falls through to the refusal below
  }
  throw new HttpProblem(400, "invalid_amount", "amount must be a decimal string of USDC above 0", {
    field: "amount",
  });
}
