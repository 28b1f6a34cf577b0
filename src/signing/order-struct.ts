import type { Decimal } from "decimal.js";
import { toDec } from "../core/decimal.js";
import { ValidationError } from "../core/errors.js";
import { assertFeeBps } from "../core/fees.js";
import { validatePrice } from "../core/ticks.js";
import { type Address, SIDE_TO_NUMBER, type Side } from "../core/types.js";
import { toWei, WEI_PER_UNIT } from "../core/wei.js";
import { normalizeAddress } from "./address.js";
import { orderAmounts } from "./order-amounts.js";
import { type OrderStruct, ZERO_ADDRESS } from "./order-type.js";
import { formatWei, plainWei, tickWei } from "./plain-wei.js";

/** What the signer needs to know about a market. */
export interface OrderMarket {
  readonly marketId: string;
  /** Outcome token id (a uint256) as a decimal string. */
  readonly tokenId: string;
  /** Outcome label as the market lists it, sent as the body's `outcome`. */
  readonly outcome: string;
  /** Signed verbatim as feeRateBps; null → the configured platform default. */
  readonly feeTakerBps: number | null;
  /** Picks the neg-risk verifying contract. */
  readonly negRisk: boolean;
  /** Decimal string, e.g. "0.01". */
  readonly tickSize: string;
}

/** Everything that determines one order struct; the salt is supplied, so the result is reproducible. */
export interface OrderStructInput {
  readonly market: OrderMarket;
  readonly side: Side;
  readonly price: Decimal | string;
  readonly quantity: Decimal | string;
  /** Unix seconds; 0 = no expiry. */
  readonly expiry: number;
  readonly salt: bigint;
  readonly maker: Address;
  readonly signer: Address;
  readonly signatureType: number;
  /** feeRateBps used when the market's feeTakerBps is null. */
  readonly defaultFeeRateBps: number;
}

/** The struct plus the canonical decimal strings of the validated price and quantity. */
export interface OrderStructResult {
  readonly struct: OrderStruct;
  readonly price: string;
  readonly quantity: string;
}

const UINT256_LIMIT = 1n << 256n;
const TOKEN_ID = /^\d{1,78}$/;

/**
 * Validates an order and lays out its EIP-712 struct. Pure: the same input gives the same struct,
 * which is how an exchange (or the mock) rebuilds the struct from a placement body.
 * Refusals are ValidationErrors: `invalid_side`, `invalid_decimal`, `invalid_amounts` (price or
 * quantity not above 0, or a SELL whose proceeds round down to 0 micro-USDC), `off_tick`, `price_out_of_band`, `precision_exceeded` (quantity finer than
 * 1e-6), `invalid_tick`, `invalid_token_id`, `invalid_expiry`, `invalid_fee_bps`, `fee_too_high`,
 * `invalid_signature_type`, `invalid_salt`, `invalid_address`.
 * @example buildOrderStruct({ market, side: "buy", price: "0.53", quantity: "10", expiry: 0, salt: 1n,
 *   maker: wallet, signer: wallet, signatureType: 0, defaultFeeRateBps: 0 }).struct.makerAmount // 5_300_000n
 */
export function buildOrderStruct(input: OrderStructInput): OrderStructResult {
  const { market, side } = input;
  if (side !== "buy" && side !== "sell") {
    throw new ValidationError("invalid_side", `side must be "buy" or "sell", got ${String(side)}`, {
      side: String(side),
    });
  }
  const { priceWei, qtyWei } = plainAmounts(input) ?? coreAmounts(input);
  const feeRateBps = assertFeeBps(market.feeTakerBps ?? input.defaultFeeRateBps);
  const { makerAmount, takerAmount } = orderAmounts(side, priceWei, qtyWei);
  if (makerAmount === 0n || takerAmount === 0n) throw zeroAmount(side, priceWei, qtyWei);
  const struct: OrderStruct = {
    salt: checkSalt(input.salt),
    maker: normalizeAddress(input.maker, "maker"),
    signer: normalizeAddress(input.signer, "signer"),
    taker: ZERO_ADDRESS,
    tokenId: parseTokenId(market.tokenId),
    makerAmount,
    takerAmount,
    expiration: BigInt(checkExpiry(input.expiry)),
    feeRateBps: BigInt(feeRateBps),
    side: SIDE_TO_NUMBER[side],
    signatureType: checkSignatureType(input.signatureType),
  };
  return { struct, price: formatWei(priceWei), quantity: formatWei(qtyWei) };
}

/** Checks a signatureType: an integer 0..255 (uint8). Throws ValidationError `invalid_signature_type`. */
export function checkSignatureType(value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 255) {
    throw new ValidationError("invalid_signature_type", `signatureType must be a uint8, got ${value}`, {
      signatureType: value,
    });
  }
  return value;
}

/** The common case in bigint: plain strings, positive, on tick, in band. Anything else → undefined. */
function plainAmounts(input: OrderStructInput): { priceWei: bigint; qtyWei: bigint } | undefined {
  if (typeof input.price !== "string" || typeof input.quantity !== "string") return undefined;
  const p = plainWei(input.price);
  const q = plainWei(input.quantity);
  if (p === undefined || q === undefined || p === 0n || q === 0n) return undefined;
  const t = tickWei(input.market.tickSize);
  return p % t === 0n && p >= t && p <= WEI_PER_UNIT - t ? { priceWei: p, qtyWei: q } : undefined;
}

/** Core's decimal.js rules, which decide (and name) every refusal; also serves Dec inputs. */
function coreAmounts(input: OrderStructInput): { priceWei: bigint; qtyWei: bigint } {
  const price = positive(input.price, "price");
  const quantity = positive(input.quantity, "quantity");
  validatePrice(price, input.market.tickSize);
  return { priceWei: toWei(price, "price"), qtyWei: toWei(quantity, "quantity") };
}

function positive(value: Decimal | string, field: "price" | "quantity"): Decimal {
  const d = toDec(value, field);
  if (d.lte(0)) {
    throw new ValidationError("invalid_amounts", `${field} must be above 0, got ${d.toFixed()}`, {
      field,
      value: d.toFixed(),
    });
  }
  return d;
}

/**
 * A struct amount of 0: only a SELL's proceeds can be (p·q under 1 micro-USDC, floored). Signed, it
 * would authorise giving the shares for nothing whatever the body's price says; an exchange checking
 * the struct refuses it, one that does not settles it at 0.
 */
function zeroAmount(side: Side, priceWei: bigint, qtyWei: bigint): ValidationError {
  const price = formatWei(priceWei);
  const quantity = formatWei(qtyWei);
  return new ValidationError(
    "invalid_amounts",
    `${side} of ${quantity} at ${price}: the amount price × quantity rounds to 0 micro-USDC, an order for nothing`,
    { side, price, quantity },
  );
}

function parseTokenId(tokenId: string): bigint {
  const id = TOKEN_ID.test(tokenId) ? BigInt(tokenId) : -1n;
  if (id < 0n || id >= UINT256_LIMIT) {
    throw new ValidationError("invalid_token_id", "tokenId must be a uint256 decimal string", {
      tokenId: String(tokenId).slice(0, 100),
    });
  }
  return id;
}

function checkExpiry(expiry: number): number {
  if (!Number.isSafeInteger(expiry) || expiry < 0) {
    throw new ValidationError("invalid_expiry", `expiry must be unix seconds or 0, got ${expiry}`, {
      expiry,
    });
  }
  return expiry;
}

function checkSalt(salt: bigint): bigint {
  if (typeof salt !== "bigint" || salt < 0n || salt >= UINT256_LIMIT) {
    throw new ValidationError("invalid_salt", "salt must be a uint256 bigint", {});
  }
  return salt;
}
