import type { BacktestFill } from "../../../../src/backtest/sim/bot-fills.js";
import type { BotOrder, BotOrders } from "../../../../src/backtest/sim/bot-orders.js";
import type { SimSession } from "../../../../src/backtest/sim/session.js";
import type { TokenMarket } from "../../../../src/core/trading.js";
import type { Side } from "../../../../src/core/types.js";

/*
 * A hand-driven world for the backtest Recorder's tests (report-hand-figures, report-mark-*,
 * report-markout-last-trade-mark, report-markout-resolved): one token, and a session fake that
 * carries only what the Recorder listens to, so figures can be worked out by hand.
 */

/** The one token of the fake world. */
export const TOKEN: TokenMarket = {
  tokenId: "7",
  marketId: "m",
  conditionId: "0x01",
  outcome: "YES",
  outcomeIndex: 0,
  tickMicro: 10_000,
  minSizeMicro: 1n,
  feeTakerBps: 0,
  negRisk: false,
  closesAtMs: undefined,
  status: "OPEN",
};

/** A session as far as the Recorder sees it: a clock, a book's best prices, its hooks. */
export function fakeWorld() {
  let now = 0;
  let bid: number | undefined;
  let ask: number | undefined;
  const joins: ((o: BotOrder) => void)[] = [];
  const leaves: ((o: BotOrder) => void)[] = [];
  const session = {
    markets: { tokens: [TOKEN] },
    clock: { now: () => now },
    beforeMarket: [] as ((now: number) => void)[],
    afterMarket: [] as ((now: number) => void)[],
    bookApplied: [] as ((tokenId: string) => void)[],
    filled: [] as ((f: BacktestFill) => void)[],
    settled: [] as ((tokenId: string, payoutMicro: number) => void)[],
    books: { book: () => ({ bids: { bestPrice: () => bid }, asks: { bestPrice: () => ask } }) },
  };
  const bot = {
    onJoin: (fn: (o: BotOrder) => void) => joins.push(fn),
    onLeave: (fn: (o: BotOrder) => void) => leaves.push(fn),
  };
  const order = (side: Side) => ({ tokenId: TOKEN.tokenId, side }) as BotOrder;
  return {
    session: session as unknown as SimSession,
    bot: bot as unknown as BotOrders,
    /** A market frame at `t` leaving the book at `b` / `a` (micro; undefined = that side empty). */
    book(t: number, b: number | undefined, a: number | undefined) {
      now = t;
      for (const fn of session.beforeMarket) fn(t);
      bid = b;
      ask = a;
      for (const fn of session.bookApplied) fn(TOKEN.tokenId);
      for (const fn of session.afterMarket) fn(t);
    },
    fill(f: Omit<BacktestFill, "tokenId" | "tradeId" | "orderId" | "clientOrderId">) {
      now = f.tsMs;
      for (const fn of session.filled)
        fn({ ...f, tokenId: TOKEN.tokenId, tradeId: "t", orderId: "o", clientOrderId: undefined });
    },
    /**
     * The market resolves at `t`, paying `payoutMicro` per share of the token: a market event, as
     * a recorded market_resolved is at the session.
     */
    resolve(t: number, payoutMicro: number) {
      now = t;
      for (const fn of session.beforeMarket) fn(t);
      for (const fn of session.settled) fn(TOKEN.tokenId, payoutMicro);
      for (const fn of session.afterMarket) fn(t);
    },
    join(t: number, side: Side) {
      now = t;
      for (const fn of joins) fn(order(side));
    },
    leave(t: number, side: Side) {
      now = t;
      for (const fn of leaves) fn(order(side));
    },
  };
}

/** A fee of `amount` micro-USDC. */
export const usdc = (amount: bigint) => ({ asset: "usdc" as const, amount });

/**
 * A fee-free maker fill of `quantity` shares at `price` (both micro) at `tsMs`: its notional is
 * price × quantity, so a test names only what its hand-worked figures use.
 */
export function makerFill(tsMs: number, side: Side, price: bigint, quantity: bigint) {
  return {
    tsMs,
    side,
    role: "maker",
    price,
    quantity,
    notional: (price * quantity) / 1_000_000n,
    fee: usdc(0n),
  } as const;
}
