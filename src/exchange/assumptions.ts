import type { ExchangeCode } from "./codes.js";
import type { ParsedEnvelope } from "./envelopes.js";
import {
  normaliseEvent,
  normaliseFeeRow,
  normaliseMarket,
  normaliseMatch,
  normaliseOrder,
  normaliseTag,
  normaliseTradeRecord,
  normaliseWithdrawal,
} from "./records.js";
import type {
  DecimalString,
  ExchangeEvent,
  FeeRow,
  Market,
  Match,
  Order,
  Tag,
  TradeRecord,
  Withdrawal,
} from "./types.js";
import { arr, dec, fail, id, items, listOf, obj, optDec, optStr, str, strOrNull } from "./validate.js";

/**
 * The REST response (and request) shapes the spec marks "not shown". Each assumption is the most
 * plausible reading; when the real API answers differently, the change is here. The README
 * "Assumptions" section lists the same items, each with where it lives; two neighbours of these
 * shapes live elsewhere:
 * - the paging of the lists whose paging is not shown (GET /api/orders/open, /api/me/positions:
 *   a wrapped answer's `nextCursor` followed): src/exchange/list-pages.ts;
 * - the query parameters not shown (markets, catalogue), passed through as given: markets.ts, catalog.ts.
 *
 * A general rule applies to every list: it may come bare (`[...]`) or wrapped (`{<name>: [...]}`),
 * read by listOf (validate.ts) under the name given here, the public lists' (marketList…) included.
 * Records the spec does not describe at all are returned as plain JSON objects after checking that they
 * are objects; only the fields mm relies on are typed and checked.
 */

/**
 * The spec's refusals of the key itself: the codes its catalogue gives HTTP 401 under Authentication
 * (header missing, bad format, unknown key, bad secret, revoked, expired, partner suspended, IP
 * outside the allowlist, and the wallet-header ones). The spec also says a placement "always returns
 * the placement result shape (HTTP 201)": it does not say whether such a refusal of a placement
 * comes as the 401 or inside that 201 body. A placement (or any 2xx body) rejected with one of these
 * is taken as the 401 would be, the key refused for good (keyRefused: exit 3), not as one order's
 * business reject. `api_key_scope_missing` (403: the key works, a scope is missing) is not among
 * them: it is final too, but for the scope named (scopeMissing, scope-refusal.ts), so a read refused
 * for orders:read says nothing of the cancels. Nor are `wallet_mismatch` (401, but the legacy alias
 * of maker_mismatch: the order's signer) and codes the spec does not list (a 2xx says nothing of the
 * key by its status).
 */
export const KEY_REFUSED_CODES: ReadonlySet<string> = new Set<ExchangeCode>([
  "auth_required",
  "api_key_bad_format",
  "api_key_unknown_key",
  "api_key_bad_secret",
  "api_key_revoked",
  "api_key_expired",
  "api_key_suspended",
  "api_key_ip_denied",
  "api_key_no_associated_wallet",
  "api_key_user_wallet_required",
  "api_key_user_wallet_invalid",
]);

/**
 * The 401 codes that are not the key refused: `wallet_mismatch`, which the spec's catalogue gives
 * HTTP 401 as the "legacy alias of maker_mismatch on some withdrawal, vault and position endpoints",
 * and `maker_mismatch` itself. Both say the maker or vault mapping of the wallet does not fit (the
 * signer is not the wallet, "a stale vault mapping during vault deployment", a vault "not yet
 * deployed"), which can pass once the vault is deployed: the failure is that request's, reported
 * with its code (a reconcile that fails so is warned of and run again; at start, exit 1 naming it),
 * never the key refused for good (keyRefused, exit 3). The same codes in a 2xx body are not key
 * refusals either (they are not in KEY_REFUSED_CODES).
 */
export const NOT_KEY_401_CODES: ReadonlySet<string> = new Set<ExchangeCode>([
  "wallet_mismatch",
  "maker_mismatch",
]);

/** An order book level. Assumed `{price, size}` decimal strings, `size` the level's total. */
export interface BookLevel {
  price: DecimalString;
  size: DecimalString;
}

/** GET /api/markets/{symbol}/orderbook. Assumed `{bids: BookLevel[], asks: BookLevel[], ...}`. */
export interface OrderbookSnapshot {
  bids: BookLevel[];
  asks: BookLevel[];
  [field: string]: unknown;
}

/** GET /api/markets/{symbol}/trades element. Assumed to carry at least `price` and `quantity`. */
export interface MarketTrade {
  price: DecimalString;
  quantity: DecimalString;
  [field: string]: unknown;
}

/** GET /api/markets/{symbol}/price-history point. Assumed `{time, price}`; list key `history`. */
export interface PricePoint {
  /** ISO string or epoch number, as sent. */
  time: string | number;
  price: DecimalString;
  [field: string]: unknown;
}

/**
 * GET /api/orders/{id}/fills element. Assumed like a REST trade: `id`, `price`, `quantity` at least,
 * `id` being the tradeId (as on /api/me/trades, and user_fill's tradeId): adopted orders' earlier
 * fills are merged with the stream's by it.
 */
export interface OrderFill {
  id: string;
  price: DecimalString;
  quantity: DecimalString;
  [field: string]: unknown;
}

/** POST /api/orders/cancel. Assumed `{orderId, status}` or the cancelled Order record (`id`, `status`). */
export interface CancelResult {
  orderId: string;
  status: string | undefined;
}

/** GET /api/me/balances. Assumed USDC in human units: `available` (checked), `locked` and `total` optional. */
export interface Balances {
  available: DecimalString;
  locked?: DecimalString;
  total?: DecimalString;
  [field: string]: unknown;
}

/**
 * GET /api/me/positions element. Assumed `tokenId` (uint256 decimal string) and `quantity` (shares, a
 * decimal string). Exactness is the engine's to judge, for the tokens it trades only: a row of
 * another token mm cannot read must not fail the whole read (every periodic reconcile reads it).
 */
export interface Position {
  tokenId: string;
  quantity: DecimalString;
  marketId?: string;
  [field: string]: unknown;
}

/** GET /api/me/vault. Assumed `{vaultAddress, ...}` (the name the trade and split records use). */
export interface VaultInfo {
  vaultAddress: string;
  [field: string]: unknown;
}

/** GET /api/me/trades. Assumed a bare list or `{trades, nextCursor}`. */
export interface TradeListPage {
  trades: TradeRecord[];
  nextCursor: string | null;
}

/**
 * The order of one paging of GET /api/me/trades, told page after page. The spec shows neither the
 * order nor the parameters of this read. Paging back to an instant may stop at a page reaching before
 * it only when the paging visibly runs newest first (the pages behind are older still): the page's
 * last readable createdAt is earlier than the paging's first. A paging running oldest first, or whose
 * order cannot be told yet (one trade so far, one instant), goes on: its cursor is followed, within
 * the caller's page bound, or this session's trades behind a first page of old ones were never read
 * (and, seen running oldest first, the next paging reads on from where it stopped: TradeResume).
 * One instance per paging (from its first page on).
 * @example
 * const order = new TradePagingOrder();
 * order.newestFirst([3_000]); // false: one trade cannot tell
 * order.newestFirst([2_000]); // true
 */
export class TradePagingOrder {
  #first: number | undefined;
  #last: number | undefined;

  /** Takes the next page's createdAt stamps (epoch ms, in the page's order; NaN, unreadable, is passed over). */
  newestFirst(createdAtMs: readonly number[]): boolean {
    const readable = createdAtMs.filter((ms) => !Number.isNaN(ms));
    this.#first ??= readable[0];
    const last = readable[readable.length - 1];
    this.#last = last ?? this.#last;
    return this.#first !== undefined && last !== undefined && last < this.#first;
  }

  /** True once the pages taken so far visibly run oldest first: the last readable stamp later than the first. */
  get oldestFirst(): boolean {
    return this.#first !== undefined && this.#last !== undefined && this.#last > this.#first;
  }
}

/** Records the spec does not describe at all (fee tier, portfolio, deposit limits, fees summary, platform). */
export type OpaqueRecord = Record<string, unknown>;

/**
 * POST /api/withdrawals/request body. Assumed: amount in USDC human units, destination address, and the
 * vault owner's EIP-712 signature with its nonce and deadline; extra fields pass through as given.
 */
export interface WithdrawalRequest {
  amount: DecimalString;
  destination: string;
  signature: string;
  nonce?: string;
  deadline?: number;
  [field: string]: unknown;
}

/**
 * POST /api/withdrawals/request response. Assumed: the created Withdrawal record (201); codes the spec
 * lists as "200 (envelope)" come either alone (`{code, message}` without an `id`: a reject) or beside
 * the record (`new_destination_edd`: accepted, sent to compliance review), surfaced as `code`.
 */
export interface WithdrawalRequestResult {
  withdrawal: Withdrawal;
  code?: string;
}

/** GET /api/markets: bare or `{markets: [...]}`. */
export const marketList = (b: unknown, p: string): Market[] => listOf(b, "markets", p, normaliseMarket);

/** GET /api/events: bare or `{events: [...]}`. */
export const eventList = (b: unknown, p: string): ExchangeEvent[] => listOf(b, "events", p, normaliseEvent);

/** GET /api/matches: bare or `{matches: [...]}`. */
export const matchList = (b: unknown, p: string): Match[] => listOf(b, "matches", p, normaliseMatch);

/** GET /api/tags: bare or `{tags: [...]}`. */
export const tagList = (b: unknown, p: string): Tag[] => listOf(b, "tags", p, normaliseTag);

export const openOrders = (b: unknown, p: string): Order[] => listOf(b, "orders", p, normaliseOrder);

export function cancelResult(b: unknown, p: string): CancelResult {
  const o = obj(b, p);
  const orderId = typeof o.orderId === "string" ? id(o, "orderId", p) : id(o, "id", p);
  return { orderId, status: optStr(o, "status", p) };
}

export const fills = (b: unknown, p: string): OrderFill[] =>
  listOf(b, "fills", p, (v, q) => {
    const o = obj(v, q);
    return { ...o, id: id(o, "id", q), price: dec(o, "price", q), quantity: dec(o, "quantity", q) };
  });

export const opaque = (b: unknown, p: string): OpaqueRecord => ({ ...obj(b, p) });

export const opaqueList = (key: string) => (b: unknown, p: string) => listOf(b, key, p, opaque);

export function balances(b: unknown, p: string): Balances {
  const o = obj(b, p);
  const out: Balances = { ...o, available: dec(o, "available", p) };
  const locked = optDec(o, "locked", p);
  const total = optDec(o, "total", p);
  if (locked !== undefined) out.locked = locked;
  if (total !== undefined) out.total = total;
  return out;
}

export const positions = (b: unknown, p: string): Position[] =>
  listOf(b, "positions", p, (v, q) => {
    const o = obj(v, q);
    return { ...o, tokenId: id(o, "tokenId", q), quantity: dec(o, "quantity", q) };
  });

export function vault(b: unknown, p: string): VaultInfo {
  const o = obj(b, p);
  return { ...o, vaultAddress: id(o, "vaultAddress", p) };
}

export function meTrades(b: unknown, p: string): TradeListPage {
  if (Array.isArray(b)) return { trades: items(b, p, normaliseTradeRecord), nextCursor: null };
  const o = obj(b, p);
  return {
    trades: items(o.trades, `${p}.trades`, normaliseTradeRecord),
    nextCursor: strOrNull(o, "nextCursor", p),
  };
}

export const meFees = (b: unknown, p: string): FeeRow[] => listOf(b, "fees", p, normaliseFeeRow);

export function orderbook(b: unknown, p: string): OrderbookSnapshot {
  const o = obj(b, p);
  const side = (key: "bids" | "asks") =>
    arr(o[key], `${p}.${key}`).map((v, i) => {
      const q = `${p}.${key}[${i}]`;
      const l = obj(v, q);
      return { price: dec(l, "price", q), size: dec(l, "size", q) };
    });
  return { ...o, bids: side("bids"), asks: side("asks") };
}

export const marketTrades = (b: unknown, p: string): MarketTrade[] =>
  listOf(b, "trades", p, (v, q) => {
    const o = obj(v, q);
    return { ...o, price: dec(o, "price", q), quantity: dec(o, "quantity", q) };
  });

export const priceHistory = (b: unknown, p: string): PricePoint[] =>
  listOf(b, "history", p, (v, q) => {
    const o = obj(v, q);
    const time = o.time;
    if (typeof time !== "string" && typeof time !== "number") fail(`${q}.time`, "a string or number", time);
    return { ...o, time, price: dec(o, "price", q) };
  });

/** Platform status: any object; `frozen`, when present, must be a boolean (the risk guard reads it). */
export function platformStatus(b: unknown, p: string): OpaqueRecord {
  const o = obj(b, p);
  if (o.frozen !== undefined && typeof o.frozen !== "boolean") fail(`${p}.frozen`, "a boolean", o.frozen);
  return { ...o };
}

/** A withdrawal-request reject inside a 2xx body: a `code` without a withdrawal `id`. */
export function withdrawalRejectOf(body: unknown): ParsedEnvelope | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const o = body as Record<string, unknown>;
  if (typeof o.code !== "string" || typeof o.id === "string") return undefined;
  const { code, message, details, ...rest } = o;
  const extra = typeof details === "object" && details !== null ? (details as Record<string, unknown>) : {};
  return {
    shape: "bare",
    code,
    message: typeof message === "string" ? message : undefined,
    traceId: undefined,
    details: { ...rest, ...extra },
  };
}

export function withdrawalRequestResult(b: unknown, p: string): WithdrawalRequestResult {
  const o = obj(b, p);
  const withdrawal = normaliseWithdrawal(o, p);
  const code = typeof o.code === "string" ? str(o, "code", p) : undefined;
  return code === undefined ? { withdrawal } : { withdrawal, code };
}
