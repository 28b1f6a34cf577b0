import { ValidationError } from "../../../core/errors.js";
import type { Address, Hex } from "../../../core/types.js";
import { mulWeiFloor, toWei } from "../../../core/wei.js";
import { type Eip712Domain, orderDomain } from "../../../signing/domain.js";
import { buildOrderStruct } from "../../../signing/order-struct.js";
import type { OrderStruct } from "../../../signing/order-type.js";
import { recoverOrderSigner } from "../../../signing/recover.js";
import type { MarketScenario } from "../../scenario/types.js";
import type { PlacementBody } from "./place-body.js";
import { placementProblem } from "./place-body.js";
import type { RouteDeps } from "./shared.js";

/** The order as the platform rebuilds it from a placement body. */
export interface CanonicalOrder {
  readonly struct: OrderStruct;
  readonly domain: Eip712Domain;
  /** Canonical decimal strings of the validated price and quantity. */
  readonly price: string;
  readonly quantity: string;
}

const UINT256_LIMIT = 1n << 256n;

// Struct-builder refusals that are amount problems (the rest cannot happen after parsePlacementBody).
const AMOUNT_CODES = new Set([
  "invalid_amounts",
  "invalid_decimal",
  "off_tick",
  "price_out_of_band",
  "precision_exceeded",
]);

/**
 * Rebuilds the canonical 11-field struct: salt = nonce, maker as sent, signer = the effective
 * wallet, taker zero, tokenId from marketId + outcome, amounts from price and quantity (BUY notional
 * rounded up), expiration = expiry, feeRateBps = the market's taker fee (null → the venue
 * default) whatever the body says — the spec: it must equal the market's verbatim, and a wrong fee is
 * the usual cause of `bad_signature` (the body's own field only feeds the `fee_too_high` check),
 * signatureType = body.signatureType or 0; the domain by the market's negRisk.
 * Amount refusals are 400 `invalid_amounts` with `details.reason`.
 */
export function canonicalOrder(
  deps: RouteDeps,
  body: PlacementBody,
  market: MarketScenario,
  outcome: { label: string; tokenId: string },
  wallet: Address,
): CanonicalOrder {
  const fee = deps.ctx.venue.market(market.id)?.effectiveTakerBps ?? 0;
  try {
    const built = buildOrderStruct({
      market: {
        marketId: market.id,
        tokenId: outcome.tokenId,
        outcome: outcome.label,
        feeTakerBps: fee,
        negRisk: market.negRisk,
        tickSize: market.tickSize,
      },
      side: body.side,
      price: body.price,
      quantity: body.quantity,
      expiry: body.expiry,
      salt: body.nonce,
      maker: body.maker,
      signer: wallet,
      signatureType: body.signatureType ?? 0,
      defaultFeeRateBps: 0,
    });
    // The amounts are uint256 fields of the signed struct: a larger one cannot have been signed.
    for (const field of ["makerAmount", "takerAmount"] as const) {
      if (built.struct[field] >= UINT256_LIMIT) {
        throw placementProblem(400, "invalid_amounts", `${field} does not fit a uint256`, {
          field,
          reason: "out_of_range",
        });
      }
    }
    return {
      struct: built.struct,
      domain: orderDomain(deps.ctx.scenario.eip712, market.negRisk),
      price: built.price,
      quantity: built.quantity,
    };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    if (AMOUNT_CODES.has(err.code)) {
      throw placementProblem(400, "invalid_amounts", err.message, { ...err.details, reason: err.code });
    }
    throw placementProblem(400, "bad_request", err.message, { ...err.details, reason: err.code });
  }
}

/**
 * The signature rules: it must recover to the effective wallet. When it does not, a BUY signed
 * with the notional rounded down is named as such (`order_signed_with_floor_notional`, with the
 * signed and expected amounts); anything else is `bad_signature` with `recovered` (null when the
 * signature is not a signature at all), `expected_signer` and `platform_canonical_struct`.
 */
export async function checkOrderSignature(
  deps: RouteDeps,
  order: CanonicalOrder,
  signature: string,
  wallet: Address,
): Promise<void> {
  const { struct, domain } = order;
  if (await deps.signatures.recoversTo(struct, signature, domain, wallet)) return;
  if (struct.side === 0) {
    const floor = mulWeiFloor(struct.takerAmount, toWei(order.price, "price"));
    if (floor !== struct.makerAmount) {
      const floored = { ...struct, makerAmount: floor };
      if (await deps.signatures.recoversTo(floored, signature, domain, wallet)) {
        throw placementProblem(
          400,
          "order_signed_with_floor_notional",
          "BUY makerAmount was rounded down; sign the ceiling",
          {
            signedMakerAmountWei: floor.toString(),
            expectedCeilMakerAmountWei: struct.makerAmount.toString(),
            signedRounding: "FLOOR",
            expectedRounding: "CEIL",
          },
        );
      }
    }
  }
  // recoverOrderSigner answers null itself for anything that is not a 65-byte signature.
  const recovered = await recoverOrderSigner(struct, signature as Hex, domain);
  throw placementProblem(400, "bad_signature", "the signature does not recover to the request's wallet", {
    recovered,
    expected_signer: wallet,
    platform_canonical_struct: canonicalFields(struct),
  });
}

/** The 11 struct fields as strings, in signing order. */
export function canonicalFields(s: OrderStruct): Record<string, string> {
  return {
    salt: s.salt.toString(),
    maker: s.maker,
    signer: s.signer,
    taker: s.taker,
    tokenId: s.tokenId.toString(),
    makerAmount: s.makerAmount.toString(),
    takerAmount: s.takerAmount.toString(),
    expiration: s.expiration.toString(),
    feeRateBps: s.feeRateBps.toString(),
    side: String(s.side),
    signatureType: String(s.signatureType),
  };
}
