import { expect } from "vitest";
import type { BacktestResult } from "../../../../src/backtest/replay/run-backtest.js";
import type { BacktestFill } from "../../../../src/backtest/sim/bot-fills.js";
import type { SimSession } from "../../../../src/backtest/sim/session.js";
import { Dec } from "../../../../src/core/decimal.js";
import { type RecordedFrame, readRecorded } from "../../../../src/recorded/format.js";

/**
 * Cash and inventory reconcile with the fills and their fees, exactly: the venue's wallet moved by
 * what the fills say, and the summary's PnL is that cash plus the positions at the marks, split
 * exactly into realised and unrealised.
 */
export function expectReconciled(r: BacktestResult, fills: readonly BacktestFill[]): void {
  let cash = 0n;
  let feeUsdc = 0n;
  let feeShares = 0n;
  const shares = new Map<string, bigint>();
  for (const f of fills) {
    const fu = f.fee.asset === "usdc" ? f.fee.amount : 0n;
    const fs = f.fee.asset === "shares" ? f.fee.amount : 0n;
    feeUsdc += fu;
    feeShares += fs;
    cash += (f.side === "buy" ? -f.notional : f.notional) - fu;
    shares.set(f.tokenId, (shares.get(f.tokenId) ?? 0n) + (f.side === "buy" ? f.quantity : -f.quantity) - fs);
  }
  const s = r.summary;
  expect(r.wallet.end.usdc - r.wallet.start.usdc).toBe(cash);
  for (const t of s.tokens) {
    const moved = (r.wallet.end.shares.get(t.tokenId) ?? 0n) - r.wallet.start.shares;
    expect(moved).toBe(shares.get(t.tokenId) ?? 0n);
    expect(new Dec(t.position).times(1e6).toFixed()).toBe(moved.toString());
  }
  expect(new Dec(s.pnl.cash).times(1e6).toFixed()).toBe(cash.toString());
  expect(new Dec(s.fees.usdc).times(1e6).toFixed()).toBe(feeUsdc.toString());
  expect(new Dec(s.fees.shares).times(1e6).toFixed()).toBe(feeShares.toString());
  expect(s.fills.count).toBe(fills.length);
  const value = s.tokens.reduce((a, t) => a.plus(new Dec(t.position).times(t.mark ?? "0")), new Dec(0));
  expect(new Dec(s.pnl.total).toFixed()).toBe(new Dec(s.pnl.cash).plus(value).toFixed());
  expect(new Dec(s.pnl.realised).plus(s.pnl.unrealised).toFixed()).toBe(new Dec(s.pnl.total).toFixed());
}

type Side = Map<string, Dec>;
interface RefBook {
  readonly bids: Side;
  readonly asks: Side;
}

const best = (side: Side, bid: boolean): Dec | undefined =>
  [...side.keys()]
    .map((p) => new Dec(p))
    .reduce<Dec | undefined>((a, p) => (a === undefined || (bid ? p.gt(a) : p.lt(a)) ? p : a), undefined);
const copy = (b: RefBook): RefBook => ({ bids: new Map(b.bids), asks: new Map(b.asks) });

/**
 * No fill at a price the recorded book never offered, checked against an independent rebuild of
 * the recording (Maps of decimal strings, nothing shared with src/book). At a fill's time t, with B
 * the book before the frames at t and A after them, a buy at x is valid when
 * - as taker: an ask level at exactly x is in B or A (the bot took a recorded offer);
 * - as maker: the recorded asks reached x (best ask ≤ x in B or A: the other side crossed it), or
 *   a bid level at or below x shrank at t (an inferred trade at the touch reached its queue place).
 * Sells mirror it; each token against its own book. Returns the number of fills checked.
 */
export async function expectOfferedPrices(
  files: readonly string[],
  fills: readonly BacktestFill[],
): Promise<number> {
  const records: RecordedFrame[] = [];
  for (const f of files) for await (const r of readRecorded(f)) records.push(r);
  records.sort((a, b) => a.recvTs - b.recvTs);
  const sorted = [...fills].sort((a, b) => a.tsMs - b.tsMs);
  // One book per token: a recording of several tokens (YES and NO) interleaves their frames.
  const books = new Map<string, RefBook>();
  const bookOf = (token: string): RefBook => {
    let b = books.get(token);
    if (b === undefined) {
      b = { bids: new Map(), asks: new Map() };
      books.set(token, b);
    }
    return b;
  };
  let i = 0;
  const applyUpTo = (pred: (ts: number) => boolean) => {
    while (i < records.length && pred((records[i] as RecordedFrame).recvTs)) {
      const frame = (records[i] as RecordedFrame).frame;
      const data = (frame.data ?? {}) as Record<string, unknown>;
      const token = typeof data.tokenId === "string" ? data.tokenId : frame.id;
      if (token !== undefined && Array.isArray(data.changes)) {
        const book = bookOf(token);
        for (const c of data.changes as { side: string; price: string; size: string }[])
          set(book, c.side, c.price, c.size);
      } else if (token !== undefined && Array.isArray(data.bids) && Array.isArray(data.asks)) {
        const book = bookOf(token);
        book.bids.clear();
        book.asks.clear();
        for (const l of data.bids as { price: string; size: string }[]) set(book, "buy", l.price, l.size);
        for (const l of data.asks as { price: string; size: string }[]) set(book, "sell", l.price, l.size);
      }
      i++;
    }
  };
  let at: number | undefined;
  let befores = new Map<string, RefBook>();
  for (const f of sorted) {
    if (f.tsMs !== at) {
      applyUpTo((ts) => ts < f.tsMs);
      befores = new Map([...books].map(([t, b]) => [t, copy(b)]));
      applyUpTo((ts) => ts <= f.tsMs);
      at = f.tsMs;
    }
    const after = bookOf(f.tokenId);
    const before = befores.get(f.tokenId) ?? { bids: new Map(), asks: new Map() };
    const x = new Dec(f.price.toString()).div(1e6);
    const buy = f.side === "buy";
    const other = (b: RefBook) => (buy ? b.asks : b.bids);
    const own = (b: RefBook) => (buy ? b.bids : b.asks);
    let ok: boolean;
    if (f.role === "taker") {
      ok = [before, after].some((b) => [...other(b).keys()].some((p) => new Dec(p).eq(x)));
    } else {
      const crossed = [before, after].some((b) => {
        const p = best(other(b), !buy);
        return p !== undefined && (buy ? p.lte(x) : p.gte(x));
      });
      const traded = [...own(before).entries()].some(([p, size]) => {
        const shrank = (own(after).get(p) ?? new Dec(0)).lt(size);
        return shrank && (buy ? new Dec(p).lte(x) : new Dec(p).gte(x));
      });
      ok = crossed || traded;
    }
    expect(ok, `${f.role} ${f.side} at ${x.toFixed()} (t = ${f.tsMs}) was never offered`).toBe(true);
  }
  return sorted.length;
}

function set(b: RefBook, side: string, price: string, size: string): void {
  const m = ["buy", "BUY", "bid", "BID"].includes(side) ? b.bids : b.asks;
  const key = new Dec(price).toFixed();
  const s = new Dec(size);
  if (s.isZero()) m.delete(key);
  else m.set(key, s);
}

/**
 * The bot saw the market the exchange traded against: at the end of a run, each token's book in
 * the bot's BookTracker is the exchange's book, at the same seq, and synced. Only once nothing is
 * on its way to the bot: a run with no feed latency (otherwise the last frames may still be in
 * flight when the run stops). A bot left quoting a book the data moved past (a recorded snapshot
 * dropped as stale) fails here, though its fills pass expectOfferedPrices: they are at prices the
 * exchange's book offered.
 */
export function expectBotBookAgrees(session: SimSession): void {
  for (const { tokenId } of session.markets.tokens) {
    const state = session.tracker.state(tokenId);
    expect(state?.status, `the bot's book of ${tokenId}`).toBe("synced");
    expect(state?.lastSeq, `the bot's seq of ${tokenId}`).toBe(session.books.lastSeq(tokenId));
    expect(session.tracker.book(tokenId)?.toWire(), `the bot's book of ${tokenId}`).toEqual(
      session.books.book(tokenId).toWire(),
    );
  }
  expect(session.tracker.counters.droppedStale).toBe(0);
}
