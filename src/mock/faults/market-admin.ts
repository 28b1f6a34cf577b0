import { type Address, MARKET_STATUSES, type MarketStatus } from "../../core/types.js";
import { USDC } from "../../venue/ledger.js";
import { weiToString } from "../../venue/wire.js";
import type { MockContext } from "../context.js";
import { flowTakerAccount } from "../flow/accounts.js";
import type { MarketScenario } from "../scenario/types.js";
import { AdminError, nonEmpty } from "./admin-error.js";

/** What a market status change did. */
export interface MarketChange {
  readonly marketId: string;
  readonly conditionId: string;
  readonly status: MarketStatus;
  readonly previous: MarketStatus;
  /** Resting orders cancelled by the change. */
  readonly cancelled: number;
}

/** One holder's redemption at resolution (human units, decimal strings). */
export interface Redemption {
  readonly wallet: Address;
  readonly tokenId: string;
  readonly shares: string;
  readonly usdc: string;
}

/** A market by id, symbol or slug; `unknown_market` otherwise. */
export function findMarket(ctx: MockContext, ref: unknown): MarketScenario {
  const r = nonEmpty("marketId", ref);
  const m = ctx.markets.byId(r) ?? ctx.markets.bySymbol(r) ?? ctx.markets.bySlug(r);
  if (m === undefined) throw new AdminError(404, "unknown_market", `no market ${r}`, { marketId: r });
  return m;
}

/** A status name of the spec's thirteen; `invalid_argument` otherwise. */
export function parseStatus(value: unknown): MarketStatus {
  if (typeof value !== "string" || !(MARKET_STATUSES as readonly string[]).includes(value)) {
    throw new AdminError(400, "invalid_argument", `status must be one of ${MARKET_STATUSES.join(", ")}`, {
      field: "status",
    });
  }
  return value as MarketStatus;
}

/**
 * Sets a market's status in the venue (optionally cancelling its resting orders). A RESOLVED
 * market has paid out and is final: changing it again is `market_resolved` (409).
 */
export function changeStatus(
  ctx: MockContext,
  m: MarketScenario,
  status: MarketStatus,
  cancelOpenOrders: boolean,
): MarketChange {
  const previous = ctx.venue.market(m.id)?.status ?? m.status;
  if (previous === "RESOLVED") {
    throw new AdminError(409, "market_resolved", `market ${m.id} is resolved and final`, { marketId: m.id });
  }
  const cancelled = ctx.venue.setMarketStatus(m.id, status, { cancelOpenOrders });
  return { marketId: m.id, conditionId: m.conditionId, status, previous, cancelled };
}

/** The winning outcome index from "YES"/"NO" (any case) or 0/1 ("0"/"1"). */
export function parseOutcome(value: unknown): 0 | 1 {
  const v = typeof value === "string" ? value.trim().toUpperCase() : value;
  if (v === "YES" || v === 0 || v === "0") return 0;
  if (v === "NO" || v === 1 || v === "1") return 1;
  throw new AdminError(400, "invalid_argument", "winningOutcome must be YES, NO, 0 or 1", {
    field: "winningOutcome",
  });
}

/**
 * Redeems every known holder's shares of a resolved market, as an auto-redeem would: each winning
 * share pays 1 USDC (micro-unit for micro-unit) and losing shares are burnt, through the venue's
 * admin debit/credit, so balances stay conserved except for the payout itself. "Known holders"
 * are the directory's wallets (scenario and onboarded) and the flow's two accounts: every ledger
 * account that can trade. The fee account's shares (BUY-taker fees) are not redeemed.
 * Open orders must already be cancelled (their reservations released).
 */
export function redeemMarket(ctx: MockContext, m: MarketScenario, winning: 0 | 1): Redemption[] {
  const flowWallet = ctx.scenario.flow.wallet;
  const holders = new Set<Address>([
    ...ctx.directory.wallets().map((w) => w.address),
    flowWallet,
    flowTakerAccount(flowWallet),
  ]);
  const winningToken = winning === 0 ? m.yesTokenId : m.noTokenId;
  const out: Redemption[] = [];
  for (const wallet of holders) {
    for (const p of ctx.venue.positions(wallet)) {
      if (p.marketId !== m.id || p.available <= 0n) continue;
      ctx.venue.debit(wallet, p.tokenId, p.available);
      const usdc = p.tokenId === winningToken ? p.available : 0n;
      if (usdc > 0n) ctx.venue.credit(wallet, USDC, usdc);
      out.push({ wallet, tokenId: p.tokenId, shares: weiToString(p.available), usdc: weiToString(usdc) });
    }
  }
  return out;
}

/** A market resolution's outcome. */
export interface Resolution extends MarketChange {
  readonly winningOutcome: "YES" | "NO";
  /** Outcome index → payout per share, decimal strings. */
  readonly payouts: Record<string, string>;
  readonly redeemed: Redemption[];
}

/**
 * Resolves `m`: resting orders cancelled, status RESOLVED, the payouts recorded for its Market
 * record (payoutNumerators), holders redeemed (see redeemMarket).
 */
export function resolve(ctx: MockContext, m: MarketScenario, winningOutcome: unknown): Resolution {
  const winning = parseOutcome(winningOutcome);
  const change = changeStatus(ctx, m, "RESOLVED", true);
  const vector = [winning === 0 ? "1" : "0", winning === 1 ? "1" : "0"] as const;
  ctx.resolutions.set(m.id, vector);
  const redeemed = redeemMarket(ctx, m, winning);
  return {
    ...change,
    winningOutcome: winning === 0 ? "YES" : "NO",
    payouts: { "0": vector[0], "1": vector[1] },
    redeemed,
  };
}
