import type { Side } from "./types.js";

/**
 * The trading vocabulary shared by strategies, the order manager, the queue, the risk guard, the
 * reconciler and the engine. Prices are integer micro-units (0.53 → 530_000, always ≤ 1_000_000,
 * so a JS number is exact); sizes and positions are bigint micro-units (no upper bound).
 */

/** What a strategy and the risk guard know about one tradable token. */
export interface TokenMarket {
  readonly tokenId: string;
  readonly marketId: string;
  /** The market's slug, as an operator names it in `engine.markets`: for log lines. */
  readonly slug?: string;
  readonly conditionId: string;
  /** Outcome label sent in the place body ("YES"/"NO"). */
  readonly outcome: string;
  readonly outcomeIndex: number;
  /** Tick size in micro-units (0.01 → 10_000). Prices lie in [tick, 1_000_000 − tick]. */
  readonly tickMicro: number;
  /** Minimum order size in micro-units. */
  readonly minSizeMicro: bigint;
  /** The market's feeTakerBps; null = platform default. */
  readonly feeTakerBps: number | null;
  readonly negRisk: boolean;
  /** Epoch ms of the market's close (the horizon T of inventory models); undefined when unknown. */
  readonly closesAtMs: number | undefined;
  /** Market status as the exchange reports it (only OPEN is quotable). */
  readonly status: string;
  /**
   * The market record's payoutNumerators once resolved (outcome index → numerator, decimal
   * strings): a restart after a resolution marks the tokens at their payouts (core/payout.ts).
   */
  readonly payouts?: Readonly<Record<string, string>>;
}

/** One quote a strategy wants resting: a side, a price and a size, per level (0 = nearest the touch). */
export interface DesiredQuote {
  readonly side: Side;
  readonly level: number;
  readonly priceMicro: number;
  readonly sizeMicro: bigint;
}

/** Lifecycle of an order as mm tracks it. */
export type LocalOrderState =
  /** Sent, no answer yet. */
  | "placing"
  /** Accepted and resting (possibly partly filled). */
  | "open"
  /** Cancel sent, no answer yet. */
  | "cancelling"
  /** An ambiguous outcome: it may or may not exist; only the reconciler may resolve it. */
  | "unknown"
  | "filled"
  | "cancelled"
  | "rejected"
  | "expired";

/** An order of ours, as the order manager and the reconciler track it. */
export interface LocalOrder {
  readonly clientOrderId: string;
  /** The exchange's id once known. */
  orderId: string | undefined;
  readonly tokenId: string;
  readonly marketId: string;
  readonly side: Side;
  readonly level: number;
  readonly priceMicro: number;
  readonly sizeMicro: bigint;
  filledMicro: bigint;
  state: LocalOrderState;
  /** Epoch ms of the last state change. */
  updatedAtMs: number;
}

/** One fill of ours, from user_fills or REST backfill; tradeId makes it idempotent. */
export interface Fill {
  readonly tradeId: string;
  readonly orderId: string;
  readonly clientOrderId: string | undefined;
  readonly tokenId: string;
  readonly side: Side;
  readonly priceMicro: number;
  readonly sizeMicro: bigint;
  readonly tsMs: number;
}

/** Signed position in one token (micro-units of shares) and the cash it cost. */
export interface Position {
  readonly tokenId: string;
  /** Positive long, negative short (short = sold shares we held; the exchange has no naked shorts). */
  readonly sizeMicro: bigint;
  /** Cash spent (negative = received) on this position, USDC micro-units, fees excluded. */
  readonly costMicro: bigint;
}
