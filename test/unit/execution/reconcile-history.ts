import fc from "fast-check";
import type { Fill } from "../../../src/core/trading.js";
import type { OrderStatus, Side } from "../../../src/core/types.js";
import { toWei, weiToString } from "../../../src/core/wei.js";
import type { Order, TradeRecord } from "../../../src/exchange/types.js";

/*
 * A true history of the wallet on the exchange, and what the bot hears of it.
 * Orders c0…cN are this session's; each has a placement fate (accepted, ambiguous but placed,
 * ambiguous and lost, rejected), fills, and an end (open, cancelled by the bot or the exchange,
 * expired, filled). One order of an old session (x0) trades too, and foreign open orders exist.
 * The bot's deliveries are the placement answers and cancel answers (in order per order, never lost:
 * every HTTP call ends) interleaved at random with user_fill events dropped, duplicated and shuffled.
 */

export type Fate = "accepted" | "ambiguous_placed" | "ambiguous_lost" | "rejected";
/**
 * What the bot hears of its cancel: ok; lost (ambiguous) or none (no answer yet) after the exchange
 * cancelled it; not_cancellable (it had filled); or, when it never took effect and the order is still
 * open: unapplied (ambiguous), retryable (429), stuck (no answer).
 */
export type CancelAnswer = "ok" | "lost" | "none" | "not_cancellable" | "unapplied" | "retryable" | "stuck";

export interface TrueOrder {
  readonly cid: string;
  readonly tokenId: string;
  readonly side: Side;
  readonly priceMicro: number;
  readonly sizeMicro: bigint;
  readonly fate: Fate;
  /** The exchange's record, when the order exists there. */
  readonly record: Order | undefined;
  /** The bot's cancel attempt and the answer it hears, if any. */
  readonly cancel: CancelAnswer | undefined;
}

export interface TrueTrade {
  readonly fill: Fill;
  readonly record: TradeRecord;
  /** A fill event without clientOrderId (the matcher does not always supply it). */
  readonly wireHasCid: boolean;
}

export type Delivery =
  | { readonly kind: "outcome"; readonly order: TrueOrder }
  | { readonly kind: "cancel_request"; readonly order: TrueOrder }
  | { readonly kind: "cancel_answer"; readonly order: TrueOrder }
  | { readonly kind: "fill"; readonly fill: Fill };

export interface History {
  readonly orders: readonly TrueOrder[];
  readonly oldOrder: Order;
  readonly foreign: readonly Order[];
  readonly trades: readonly TrueTrade[];
  readonly deliveries: readonly Delivery[];
  readonly pageSize: number;
}

export const MARKET_OF: Readonly<Record<string, string>> = { A: "mA", B: "mB" };
export const TOKEN_OF_MARKET: Readonly<Record<string, string>> = { mA: "A", mB: "B" };

const planArb = fc.record({
  token: fc.constantFrom("A", "B"),
  buy: fc.boolean(),
  ticks: fc.integer({ min: 1, max: 99 }),
  shares: fc.integer({ min: 1, max: 3 }),
  fate: fc.constantFrom<Fate>("accepted", "accepted", "ambiguous_placed", "ambiguous_lost", "rejected"),
  quarters: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 3 }),
  complete: fc.boolean(),
  end: fc.constantFrom("open", "cancel_bot", "cancel_exchange", "expire"),
  answer: fc.constantFrom<CancelAnswer>("ok", "lost", "none"),
  cancelFilled: fc.boolean(),
  openCancel: fc.constantFrom<CancelAnswer | undefined>(undefined, "unapplied", "retryable", "stuck"),
});

/** Arbitrary histories (see the header comment). */
export const historyArb = fc
  .record({
    plans: fc.array(planArb, { minLength: 1, maxLength: 8 }),
    old: fc.record({
      quarters: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 3 }),
      open: fc.boolean(),
    }),
    foreign: fc.integer({ min: 0, max: 2 }),
    copies: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 40, maxLength: 40 }),
    keys: fc.array(fc.nat(10_000), { minLength: 120, maxLength: 120 }),
    cids: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
    fees: fc.array(fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: undefined }), {
      minLength: 40,
      maxLength: 40,
    }),
    pageSize: fc.integer({ min: 1, max: 5 }),
  })
  .map(build);

type Raw = {
  plans: (typeof planArb extends fc.Arbitrary<infer P> ? P : never)[];
  old: { quarters: number[]; open: boolean };
  foreign: number;
  copies: number[];
  keys: number[];
  cids: boolean[];
  fees: (number | undefined)[];
  pageSize: number;
};

function build(raw: Raw): History {
  const trades: TrueTrade[] = [];
  const addFills = (
    o: Order,
    tokenId: string,
    cid: string | undefined,
    quarters: number[],
    complete: boolean,
  ) => {
    const size = BigInt(o.quantity) * 1_000_000n;
    const parts: bigint[] = [];
    let sum = 0n;
    for (const q of quarters) {
      const part = BigInt(q) * 250_000n;
      if (sum + part > size) break;
      parts.push(part);
      sum += part;
    }
    if (complete && sum < size) parts.push(size - sum);
    for (const p of parts) {
      const n = trades.length;
      const tsMs = 1_000 + n * 10;
      const priceMicro = Number(toWei(o.price));
      const fill: Fill = {
        tradeId: `t${n}`,
        orderId: o.id,
        clientOrderId: cid,
        tokenId,
        side: o.side,
        priceMicro,
        sizeMicro: p,
        tsMs,
      };
      const fee = raw.fees[n];
      trades.push({
        fill,
        wireHasCid: raw.cids[n] ?? true,
        record: {
          id: fill.tradeId,
          orderId: o.id,
          marketId: o.marketId,
          vaultAddress: "0x0000000000000000000000000000000000000002",
          fee: fee === undefined ? null : weiToString(BigInt(fee)),
          side: o.side,
          price: o.price,
          quantity: weiToString(p),
          createdAt: new Date(tsMs).toISOString(),
        },
      });
    }
    return parts.reduce((a, b) => a + b, 0n);
  };

  const orders: TrueOrder[] = raw.plans.map((p, i) => {
    const side: Side = p.buy ? "buy" : "sell";
    const placed = p.fate === "accepted" || p.fate === "ambiguous_placed";
    const base = record(`o${i}`, `c${i}`, p.token, side, p.ticks, p.shares, "OPEN");
    if (!placed) {
      return {
        cid: `c${i}`,
        tokenId: p.token,
        side,
        priceMicro: p.ticks * 10_000,
        sizeMicro: BigInt(p.shares) * 1_000_000n,
        fate: p.fate,
        record: undefined,
        cancel: undefined,
      };
    }
    const filled = addFills(base, p.token, `c${i}`, p.quarters, p.complete);
    const full = filled === BigInt(p.shares) * 1_000_000n;
    const botCancels =
      p.fate === "accepted" &&
      (full ? p.cancelFilled : p.end === "cancel_bot" || (p.end === "open" && p.openCancel !== undefined));
    const status: OrderStatus = full
      ? "FILLED"
      : p.end === "open"
        ? "OPEN"
        : p.end === "expire"
          ? "EXPIRED"
          : "CANCELLED";
    const rec = {
      ...base,
      status,
      filledQty: weiToString(filled),
      remainingQty: weiToString(BigInt(p.shares) * 1_000_000n - filled),
    };
    return {
      cid: `c${i}`,
      tokenId: p.token,
      side,
      priceMicro: p.ticks * 10_000,
      sizeMicro: BigInt(p.shares) * 1_000_000n,
      fate: p.fate,
      record: rec,
      cancel: !botCancels ? undefined : full ? "not_cancellable" : p.end === "open" ? p.openCancel : p.answer,
    };
  });

  const oldBase = record("x0", "old-session-1", "A", "sell", 60, 2, "OPEN");
  const oldFilled = addFills(oldBase, "A", undefined, raw.old.quarters, !raw.old.open);
  const oldOrder: Order = {
    ...oldBase,
    status: raw.old.open && oldFilled < 2_000_000n ? "OPEN" : "FILLED",
    filledQty: weiToString(oldFilled),
  };
  const foreign = Array.from({ length: raw.foreign }, (_, k) =>
    record(`f${k}`, `someone-${k}`, "B", "buy", 10, 1, "OPEN"),
  );

  const items: { d: Delivery; chain: number }[] = [];
  orders.forEach((o, i) => {
    items.push({ d: { kind: "outcome", order: o }, chain: i });
    if (o.cancel !== undefined) {
      items.push({ d: { kind: "cancel_request", order: o }, chain: i });
      items.push({ d: { kind: "cancel_answer", order: o }, chain: i });
    }
  });
  trades.forEach((t, n) => {
    const c = raw.copies[n] ?? 5;
    const copies = c < 2 ? 0 : c < 8 ? 1 : 2;
    const wire = t.wireHasCid ? t.fill : { ...t.fill, clientOrderId: undefined };
    for (let k = 0; k < copies; k++) items.push({ d: { kind: "fill", fill: wire }, chain: -1 });
  });
  const keyed = items.map((it, i) => ({ ...it, key: raw.keys[i % raw.keys.length] ?? 0, i }));
  // Within one order's chain the answers keep their order: hand the chain's keys out in sorted order.
  const byChain = new Map<number, typeof keyed>();
  for (const k of keyed) if (k.chain >= 0) byChain.set(k.chain, [...(byChain.get(k.chain) ?? []), k]);
  for (const chain of byChain.values()) {
    const sorted = chain.map((c) => c.key).sort((a, b) => a - b);
    chain.forEach((c, j) => {
      c.key = sorted[j] ?? 0;
    });
  }
  keyed.sort((a, b) => a.key - b.key || a.i - b.i);
  return { orders, oldOrder, foreign, trades, deliveries: keyed.map((k) => k.d), pageSize: raw.pageSize };
}

function record(
  id: string,
  cid: string,
  token: string,
  side: Side,
  ticks: number,
  shares: number,
  status: OrderStatus,
): Order {
  return {
    id,
    userWallet: "0x0000000000000000000000000000000000000001",
    vault: "0x0000000000000000000000000000000000000002",
    marketId: MARKET_OF[token] ?? "",
    side,
    outcome: "YES",
    price: weiToString(BigInt(ticks) * 10_000n),
    quantity: String(shares),
    filledQty: "0",
    remainingQty: String(shares),
    expiry: 0,
    type: "limit",
    timeInForce: "gtc",
    status,
    clientOrderId: cid,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
}
