import { FieldReader } from "./fields.js";

/** Common fields of the per-token events. */
interface TokenFields {
  readonly tokenId: string;
  readonly conditionId: string;
  readonly outcomeIndex: number;
  readonly tsMs: number;
}

/** token_trade_matches: the matcher's notice of a trade, seconds before settlement. */
export interface TradeMatchedEvent extends TokenFields {
  readonly type: "trade_matched";
  readonly tradeId: string;
  readonly price: string;
  readonly quantity: string;
  /** The taker's side (values not given by the spec; the mock sends buy/sell). */
  readonly side: string;
  readonly source: string;
}

/** token_trade_settlements: the chain indexer saw the fill. */
export interface TradeSettledEvent extends TokenFields {
  readonly type: "trade_settled";
  readonly orderHash: string;
  readonly txHash: string;
  readonly blockNumber: number;
  readonly price: string;
  readonly quantity: string;
  readonly side: string;
  readonly source: string;
}

/** token_ohlc: a bar, pushed while it accumulates and once more when closed. */
export interface OhlcUpdateEvent extends TokenFields {
  readonly type: "ohlc_update";
  readonly interval: string;
  /** Bar open time as sent (the spec does not say ms or ISO; the mock sends ms). */
  readonly time: number | string;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
  readonly isClosed: boolean;
}

interface ChainRef {
  readonly txHash?: string | undefined;
  readonly blockNumber?: number | undefined;
}

/** condition_lifecycle: market_paused / market_unpaused. */
export interface MarketPauseEvent extends ChainRef {
  readonly type: "market_paused" | "market_unpaused";
  readonly conditionId: string;
  readonly tsMs: number;
}

/** condition_lifecycle: market_resolved. */
export interface MarketResolvedEvent extends ChainRef {
  readonly type: "market_resolved";
  readonly conditionId: string;
  readonly resolution: string;
  readonly payouts?: Readonly<Record<string, string>> | undefined;
  readonly tsMs: number;
}

/** condition_lifecycle: market_status (any of the Market status values). */
export interface MarketStatusEvent {
  readonly type: "market_status";
  readonly conditionId: string;
  readonly status: string;
  readonly reason?: string | undefined;
  readonly tsMs: number;
}

/**
 * system: platform_status, a passthrough of the status producer. `frozen` (what the bot acts on)
 * is typed strictly; the informational fields are kept when they have a usable shape, undefined
 * otherwise (`data` has them as sent).
 */
export interface PlatformStatusEvent {
  readonly type: "platform_status";
  readonly frozen?: boolean | undefined;
  readonly reason?: string | undefined;
  /** As sent: the spec gives no shape (an ISO string or a ms number are both kept). */
  readonly since?: string | number | undefined;
  readonly etaUnfreeze?: unknown;
  readonly tsMs?: number | undefined;
  /** The payload as received. */
  readonly data: Readonly<Record<string, unknown>>;
}

export type LifecycleEvent = MarketPauseEvent | MarketResolvedEvent | MarketStatusEvent;

/** A parsed event, or the name of the first bad field. */
export type Parsed<E> = E | { readonly badField: string };

function done<E>(r: FieldReader, e: E): Parsed<E> {
  return r.failed === undefined ? e : { badField: r.failed };
}

function token(r: FieldReader): TokenFields {
  return {
    tokenId: r.tokenId(),
    conditionId: r.conditionId(),
    outcomeIndex: r.int("outcomeIndex"),
    tsMs: r.num("tsMs"),
  };
}

/** Validates trade_matched data. */
export function parseTradeMatched(d: Record<string, unknown>): Parsed<TradeMatchedEvent> {
  const r = new FieldReader(d);
  return done(r, {
    type: "trade_matched",
    ...token(r),
    tradeId: r.str("tradeId"),
    price: r.decimal("price"),
    quantity: r.decimal("quantity"),
    side: r.str("side"),
    source: r.str("source"),
  });
}

/** Validates trade_settled data. */
export function parseTradeSettled(d: Record<string, unknown>): Parsed<TradeSettledEvent> {
  const r = new FieldReader(d);
  return done(r, {
    type: "trade_settled",
    ...token(r),
    orderHash: r.hex("orderHash"),
    txHash: r.hex("txHash"),
    blockNumber: r.int("blockNumber"),
    price: r.decimal("price"),
    quantity: r.decimal("quantity"),
    side: r.str("side"),
    source: r.str("source"),
  });
}

/** Validates ohlc_update data. */
export function parseOhlcUpdate(d: Record<string, unknown>): Parsed<OhlcUpdateEvent> {
  const r = new FieldReader(d);
  const time = typeof d.time === "string" ? r.str("time") : r.num("time");
  return done(r, {
    type: "ohlc_update",
    ...token(r),
    interval: r.str("interval"),
    time,
    open: r.decimal("open"),
    high: r.decimal("high"),
    low: r.decimal("low"),
    close: r.decimal("close"),
    volume: r.decimal("volume"),
    isClosed: r.bool("isClosed"),
  });
}

/**
 * Validates the data of one of the four condition_lifecycle events. The spec's required fields
 * are checked strictly (the condition and, for market_status, the status are what the bot acts
 * on: the market's new status); the optional ones (txHash, blockNumber, payouts, reason) are
 * informational and kept only when well-formed: a market that paused or resolved must not be
 * missed because of, say, an empty txHash.
 */
export function parseLifecycle(
  type: LifecycleEvent["type"],
  d: Record<string, unknown>,
): Parsed<LifecycleEvent> {
  const r = new FieldReader(d);
  const conditionId = r.conditionId();
  const tsMs = r.num("tsMs");
  if (type === "market_status") {
    return done(r, { type, conditionId, status: r.str("status"), reason: r.lenient("reason", r.str), tsMs });
  }
  const chain = { txHash: r.lenient("txHash", r.hex), blockNumber: r.lenient("blockNumber", r.int) };
  if (type === "market_resolved") {
    const resolution = r.str("resolution");
    const payouts = r.lenient("payouts", r.payoutNumerators);
    return done(r, { type, conditionId, resolution, payouts, ...chain, tsMs });
  }
  return done(r, { type, conditionId, ...chain, tsMs });
}

/**
 * Validates platform_status data: any object. `frozen`, when present, must be a boolean (the bot
 * halts or resumes quoting on it: a value it cannot read is refused and counted, not guessed);
 * reason, since and tsMs are informational and kept only when well-formed, so an empty reason or
 * a numeric `since` never costs the event its `frozen`.
 */
export function parsePlatformStatus(d: Record<string, unknown>): Parsed<PlatformStatusEvent> {
  const r = new FieldReader(d);
  return done(r, {
    type: "platform_status",
    frozen: r.opt("frozen", r.bool),
    reason: r.lenient("reason", r.str),
    since: r.lenient("since", r.stamp),
    etaUnfreeze: d.etaUnfreeze,
    tsMs: r.lenient("tsMs", r.num),
    data: d,
  });
}
