import { expect } from "vitest";
import type { MarketStatus } from "../../../../src/core/types.js";
import type { EngineRestore } from "../../../../src/engine/engine-deps.js";
import type { MarketRecordStatus } from "../../../../src/engine/ports.js";
import { applyTrade, EMPTY_ACCOUNT } from "../../../../src/execution/inventory-math.js";
import { BOT, Harness, type HarnessOptions } from "./harness.js";

/** The settlement tests' caps: the wallet's soft cap low enough that a counted redemption trips it. */
export const SETTLEMENT_RISK = {
  inventory: { perMarket: { soft: "100", hard: "100" }, total: { soft: "15", hard: "100" } },
};

/** Market 1's YES wins. */
export const YES_WINS = { "0": "1", "1": "0" } as const;

/** Two markets: tokens of market 1 (yes1, no1) and 2 (yes2, no2). */
export interface TwoMarkets {
  readonly h: Harness;
  readonly m1: string;
  readonly yes1: string;
  readonly no1: string;
  readonly yes2: string;
  readonly no2: string;
}

/**
 * Two markets quoted behind a crowd at 0.48 / 0.52, the wallet holding `held` micro-shares of each
 * token of market 1 at start (its baseline, not the bot's doing), the engine started.
 */
export async function twoMarkets(
  opts: { held?: { yes: bigint; no: bigint }; harness?: HarnessOptions } = {},
): Promise<TwoMarkets> {
  const h = new Harness({ risk: SETTLEMENT_RISK, latencyMs: 50, markets: 2, ...opts.harness });
  const [yes1, no1] = h.tokens(1);
  const [yes2, no2] = h.tokens(2);
  const held = opts.held ?? { yes: 20_000_000n, no: 20_000_000n };
  if (held.yes > 0n) h.venue.credit(BOT, yes1, held.yes);
  if (held.no > 0n) h.venue.credit(BOT, no1, held.no);
  for (const t of [yes1, no1, yes2, no2]) h.crowdQuote(t, "0.48", "0.52");
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  return { h, m1: h.markets[0]?.marketId ?? "", yes1, no1, yes2, no2 };
}

/** The bot buys 10 YES at 0.47 (a taker sweeps the crowd's 100 at 0.48, then the bot's bid). */
export async function buyTenYes(h: Harness, yes: string): Promise<void> {
  h.take(yes, "sell", "0.47", "110");
  await h.run(2_000);
  expect(h.engine.positionOf(yes)).toBe(10_000_000n);
}

/** The redemption: the exchange takes every share of `tokens` the wallet holds. */
export function redeem(h: Harness, tokens: readonly string[]): void {
  for (const t of tokens) {
    const held = h.venue.positions(BOT).find((p) => p.tokenId === t)?.available ?? 0n;
    if (held > 0n) h.venue.debit(BOT, t, held);
  }
}

/** GET /api/markets/{slug} from the venue's status, YES winning once it is RESOLVED. */
export function recordFromVenue(h: Harness): (m: { marketId: string }) => Promise<MarketRecordStatus> {
  return async ({ marketId }) => {
    const status = h.venue.market(marketId)?.status ?? "OPEN";
    return status === "RESOLVED" ? { status, payouts: YES_WINS } : { status };
  };
}

/** Market 2 follows its book both sides: a move of YES2 is requoted, NO2 quotes as at start. */
export async function expectOtherMarketQuoting(t: TwoMarkets): Promise<void> {
  t.h.crowdQuote(t.yes2, "0.49", "0.53");
  await t.h.run(2_000);
  expect(t.h.botQuotes(t.yes2).sort()).toEqual(["buy 0.48 10", "sell 0.54 10"]);
  expect(t.h.botQuotes(t.no2).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
}

/** How {@link restartedAfterResolution} restarts: market 1's status at start and what was journaled. */
export interface RestartOptions extends Pick<HarnessOptions, "risk" | "payouts" | "closesAt"> {
  /** Market 1's status at start (default RESOLVED). */
  readonly status?: MarketStatus;
  /** What else the earlier runs left in the journal (each token's last mark, payout reads begun). */
  readonly restore?: Pick<EngineRestore, "marks" | "payoutReadsSince">;
}

/**
 * A restart after market 1 resolved: it is listed RESOLVED (or `status`; with `payouts` in its
 * record at start, if given), the earlier run's 20 YES bought at 0.47 are carried over (restore)
 * and held by the wallet, and market 2 (OPEN) has the crowd's quotes 0.48 / 0.52 on both tokens.
 */
export function restartedAfterResolution(o: RestartOptions = {}): Harness {
  const { status, restore, ...harness } = o;
  const h = new Harness({
    ...harness,
    latencyMs: 50,
    markets: 2,
    status: (i) => (i === 1 ? (status ?? "RESOLVED") : "OPEN"),
    options: {
      restore: {
        ...restore,
        accounts: new Map([["11", applyTrade(EMPTY_ACCOUNT, "buy", 470_000, 20_000_000n)]]),
        orders: new Map(),
      },
    },
  });
  h.venue.credit(BOT, "11", 20_000_000n);
  for (const t of h.tokens(2)) h.crowdQuote(t, "0.48", "0.52");
  return h;
}

/** A record read held open until the test answers it (`answer`), counting its calls (`reads`). */
export function heldRecord(h: Harness): { reads: () => number; answer: (r: MarketRecordStatus) => void } {
  let pending: ((r: MarketRecordStatus) => void) | undefined;
  let reads = 0;
  h.exchange.marketRecord = () => {
    reads++;
    return new Promise<MarketRecordStatus>((resolve) => {
      pending = resolve;
    });
  };
  return { reads: () => reads, answer: (r) => pending?.(r) };
}
