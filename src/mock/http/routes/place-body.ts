import { parseDecimal } from "../../../core/decimal.js";
import { MAX_FEE_RATE_BPS } from "../../../core/fees.js";
import type { Address, OrderType, Side, TimeInForce } from "../../../core/types.js";
import { HttpProblem } from "../problem.js";

/** A placement body that passed the shape checks (amounts still strings: the struct builder owns them). */
export interface PlacementBody {
  readonly marketId: string;
  readonly side: Side;
  readonly outcome: string;
  readonly price: string;
  readonly quantity: string;
  /** The struct's salt. */
  readonly nonce: bigint;
  readonly expiry: number;
  readonly maker: Address;
  readonly signature: string;
  readonly clientOrderId: string | undefined;
  readonly type: OrderType | undefined;
  readonly timeInForce: TimeInForce | undefined;
  /** Optional: the fee the order was signed with; default the market's feeTakerBps. */
  readonly feeRateBps: number | undefined;
  /** Optional: the struct's signatureType; default 0 (an EOA signature). */
  readonly signatureType: number | undefined;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT = /^\d{1,78}$/;
const UINT256_LIMIT = 1n << 256n;

/** A placement reject in the placement envelope. */
export function placementProblem(
  status: number,
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): HttpProblem {
  return new HttpProblem(status, code, message, details, "placement");
}

const badRequest = (field: string, message: string) =>
  placementProblem(400, "bad_request", message, { field });

/**
 * Checks the shape of POST /api/orders/place's body (spec: marketId, side, outcome, price,
 * quantity, nonce, expiry, maker, signature, optional clientOrderId, type, timeInForce; this mock
 * also reads optional feeRateBps and signatureType). Malformed fields are 400 `bad_request`;
 * price or quantity that are not decimal strings above 0 are 400 `invalid_amounts`; a feeRateBps
 * above 1000 is 400 `fee_too_high`. All in the placement envelope.
 */
export function parsePlacementBody(body: unknown): PlacementBody {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("body", "the body must be a JSON object");
  }
  const b = body as Record<string, unknown>;
  const text = (field: string): string => {
    const v = b[field];
    if (typeof v !== "string" || v === "") throw badRequest(field, `${field} must be a non-empty string`);
    return v;
  };
  const optional = <T extends string>(field: string, allowed: readonly T[]): T | undefined => {
    const v = b[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) {
      throw badRequest(field, `${field} must be one of ${allowed.join(", ")}`);
    }
    return v as T;
  };
  const side = optional("side", ["buy", "sell"] as const);
  if (side === undefined) throw badRequest("side", "side must be buy or sell");
  const nonce = text("nonce");
  if (!UINT.test(nonce) || BigInt(nonce) >= UINT256_LIMIT)
    throw badRequest("nonce", "nonce must be a uint256 decimal string");
  const expiry = b.expiry;
  if (typeof expiry !== "number" || !Number.isSafeInteger(expiry) || expiry < 0) {
    throw badRequest("expiry", "expiry must be an integer of unix seconds (0 = none)");
  }
  const maker = text("maker");
  if (!ADDRESS.test(maker)) throw badRequest("maker", "maker must be 0x followed by 40 hex characters");
  const clientOrderId = b.clientOrderId;
  if (clientOrderId !== undefined && clientOrderId !== null) {
    if (typeof clientOrderId !== "string" || clientOrderId.length > 128) {
      throw badRequest("clientOrderId", "clientOrderId must be a string of at most 128 characters");
    }
  }
  return {
    marketId: text("marketId"),
    side,
    outcome: text("outcome"),
    price: amount(b, "price"),
    quantity: amount(b, "quantity"),
    nonce: BigInt(nonce),
    expiry,
    maker: maker.toLowerCase() as Address,
    signature: text("signature"),
    clientOrderId: typeof clientOrderId === "string" && clientOrderId !== "" ? clientOrderId : undefined,
    type: optional("type", ["limit", "market"] as const),
    timeInForce: optional("timeInForce", ["gtc", "ioc", "fok"] as const),
    feeRateBps: feeRateBps(b.feeRateBps),
    signatureType: smallInt(b.signatureType, "signatureType", 255),
  };
}

function amount(b: Record<string, unknown>, field: "price" | "quantity"): string {
  const v = b[field];
  let positive = false;
  try {
    positive = parseDecimal(v, field).gt(0);
  } catch {
    positive = false;
  }
  if (!positive) {
    throw placementProblem(400, "invalid_amounts", `${field} must be a decimal string above 0`, {
      field,
      value: typeof v === "string" ? v.slice(0, 40) : typeof v,
    });
  }
  return v as string;
}

function feeRateBps(v: unknown): number | undefined {
  const n = smallInt(v, "feeRateBps", Number.MAX_SAFE_INTEGER);
  if (n !== undefined && n > MAX_FEE_RATE_BPS) {
    throw placementProblem(400, "fee_too_high", `feeRateBps ${n} exceeds ${MAX_FEE_RATE_BPS}`, {
      feeRateBps: n,
      max: MAX_FEE_RATE_BPS,
    });
  }
  return n;
}

function smallInt(v: unknown, field: string, max: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0 || v > max) {
    throw badRequest(field, `${field} must be an integer within 0..${max}`);
  }
  return v;
}
