import type { DesiredQuote, TokenMarket } from "../core/trading.js";
import type { Side } from "../core/types.js";
import { weiToString } from "../core/wei.js";

/**
 * The gates: reasons that stop every quote in their scope and ask for the live ones to be cancelled.
 * One list that GateReason derives from, so that whatever enumerates the gates (cancel-reasons.ts
 * GATES: a gate's cancels carry the gate's own name) cannot miss a new one (review22: the fee hold's
 * market_unquotable was left out and its cancels read risk_limit).
 */
export const GATE_REASONS = [
  "kill_switch",
  "platform_frozen",
  "error_rate_halt",
  "market_not_open",
  "market_unquotable",
  "book_crossed",
  "book_resyncing",
  "book_stale",
] as const;

/**
 * Every reason the risk guard can give, stable: safe to log, to branch on and to use as a metric
 * label. Gates (the first eight, GATE_REASONS) stop all quoting in their scope; the rest act on single
 * quotes.
 */
export const RISK_REASONS = [
  ...GATE_REASONS,
  "invalid_quote",
  "price_off_tick",
  "price_out_of_band",
  "price_crosses_book",
  "own_quotes_crossed",
  "size_below_min",
  "order_size_clipped",
  "order_size_exceeded",
  "notional_clipped",
  "notional_exceeded",
  "soft_cap_reduce_only",
  "hard_cap_size_clipped",
  "hard_cap_side_blocked",
  "insufficient_shares",
  "in_flight_clipped",
  "in_flight_held",
] as const;
export type RiskReason = (typeof RISK_REASONS)[number];

/** A gate: a reason that stops every quote in its scope and asks for the live ones to be cancelled. */
export type GateReason = (typeof GATE_REASONS)[number];

/**
 * A fault of the quote's own price or shape (invalid_quote, price_off_tick, price_out_of_band,
 * price_crosses_book, own_quotes_crossed): a fact about the quote the strategy just returned, not a
 * limit it runs into, so it ends with the quote (DecisionLog carries limits, not these, over a step
 * that did not desire their quote). No allocation.
 * @example isPriceFault("price_crosses_book") === true; isPriceFault("size_below_min") === false
 */
export function isPriceFault(reason: RiskReason): boolean {
  switch (reason) {
    case "invalid_quote":
    case "price_off_tick":
    case "price_out_of_band":
    case "price_crosses_book":
    case "own_quotes_crossed":
      return true;
    default:
      return false;
  }
}

/**
 * What the guard did: `cancel` the live quotes of the scope, `drop` one desired quote, or `clip`
 * its size. Scope: `wallet` (cancel-all of the wallet), `market` (cancel-all of one market),
 * `token` (every quote on one token's book) or `quote` (one desired quote).
 */
export type RiskAction = "cancel" | "drop" | "clip";
export type RiskScope = "wallet" | "market" | "token" | "quote";

/** One decision of the guard, with what it applies to; `detail` holds human units for logs. */
export interface RiskDecision {
  readonly reason: RiskReason;
  readonly action: RiskAction;
  readonly scope: RiskScope;
  /** Undefined for wallet and market scope. */
  readonly tokenId: string | undefined;
  /** Undefined for wallet scope. */
  readonly marketId: string | undefined;
  /** Set for quote scope only. */
  readonly side: Side | undefined;
  readonly level: number | undefined;
  /** JSON-safe facts (prices and sizes as decimal strings), e.g. { size: "300", limit: "250" }. */
  readonly detail: Readonly<Record<string, string | number | boolean>>;
}

type Detail = Record<string, string | number | boolean>;

/** A wallet-wide cancel-all (kill switch, platform frozen, error-rate halt). */
export function walletDecision(reason: GateReason, detail: Detail = {}): RiskDecision {
  return {
    reason,
    action: "cancel",
    scope: "wallet",
    tokenId: undefined,
    marketId: undefined,
    side: undefined,
    level: undefined,
    detail,
  };
}

/** A cancel-all of one market (it left OPEN, or cannot be quoted: market_unquotable). */
export function marketDecision(reason: GateReason, marketId: string, detail: Detail = {}): RiskDecision {
  return { ...walletDecision(reason, detail), scope: "market", marketId };
}

/** Cancel every live quote on one token's book. */
export function tokenDecision(
  reason: GateReason,
  tokenId: string,
  marketId: string | undefined,
  detail: Detail = {},
): RiskDecision {
  return { ...walletDecision(reason, detail), scope: "token", tokenId, marketId };
}

/** Drop or clip one desired quote; the quote's side, level, price and size go into the detail. */
export function quoteDecision(
  reason: RiskReason,
  action: "drop" | "clip",
  market: Pick<TokenMarket, "tokenId" | "marketId">,
  q: DesiredQuote,
  detail: Detail = {},
): RiskDecision {
  return {
    reason,
    action,
    scope: "quote",
    tokenId: market.tokenId,
    marketId: market.marketId,
    side: q.side,
    level: q.level,
    detail: { price: fmtPrice(q.priceMicro), size: fmtSize(q.sizeMicro), ...detail },
  };
}

/** Micro-units of shares or USDC as a decimal string for logs ("250000000" → "250"). */
export function fmtSize(micro: bigint): string {
  return weiToString(micro);
}

/** A micro-unit price as a decimal string; a non-integer (invalid) price is shown as given. */
export function fmtPrice(priceMicro: number): string {
  return Number.isSafeInteger(priceMicro) ? weiToString(BigInt(priceMicro)) : String(priceMicro);
}
