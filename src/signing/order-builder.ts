import type { Decimal } from "decimal.js";
import { ValidationError } from "../core/errors.js";
import { assertFeeBps } from "../core/fees.js";
import type { Address, Hex, OrderType, PlaceOrderRequest, Side, TimeInForce } from "../core/types.js";
import { normalizeAddress } from "./address.js";
import { domainSeparatorBytes, type Eip712Domain, orderDomain, type SigningDomainConfig } from "./domain.js";
import { typedDataDigest } from "./eip712-encoder.js";
import { buildOrderStruct, checkSignatureType, type OrderMarket } from "./order-struct.js";
import { type OrderStruct, orderEncoder } from "./order-type.js";
import { randomSalt, type SaltSource } from "./salt.js";
import type { Signer } from "./signer.js";

/** Wallet-side signing settings (from config). */
export interface SignerSettings {
  /** The signing wallet; must be the Signer's address. */
  readonly wallet: Address;
  /** Whether orders are made by the wallet itself or by its custody vault. */
  readonly maker: "wallet" | "vault";
  /** The wallet's factory-derived vault; required when maker is "vault". */
  readonly vault?: Address | undefined;
  /** EIP-712 signatureType (uint8) the exchange expects for this wallet/maker kind. */
  readonly signatureType: number;
  /** feeRateBps for markets whose feeTakerBps is null. */
  readonly defaultFeeRateBps: number;
}

/** One order to build and sign. */
export interface OrderRequest {
  readonly market: OrderMarket;
  readonly side: Side;
  /** Decimal string or Dec; a multiple of the market's tick within [tick, 1 − tick]. */
  readonly price: Decimal | string;
  /** Decimal string or Dec; above 0, at most 6 decimals. */
  readonly quantity: Decimal | string;
  /** Unix seconds; 0 = no expiry. */
  readonly expiry: number;
  readonly clientOrderId?: string | undefined;
  readonly type?: OrderType | undefined;
  readonly timeInForce?: TimeInForce | undefined;
}

/** A signed order: the struct, what was signed, and the body for POST /api/orders/place. */
export interface BuiltOrder {
  readonly struct: OrderStruct;
  readonly domain: Eip712Domain;
  readonly digest: Hex;
  readonly signature: Hex;
  readonly body: PlaceOrderRequest;
}

/** Construction options of an OrderBuilder. */
export interface OrderBuilderOptions {
  readonly settings: SignerSettings;
  readonly domain: SigningDomainConfig;
  readonly signer: Signer;
  /** Defaults to a CSPRNG uint256. */
  readonly salt?: SaltSource | undefined;
}

interface ResolvedDomain {
  readonly domain: Eip712Domain;
  readonly separator: Uint8Array;
}

/**
 * Builds and signs orders. Settings and both domains are validated and resolved once here, so the
 * per-order path is: validate price/quantity, lay out the struct, one struct hash, one digest, sign.
 * @example
 * const builder = new OrderBuilder({ settings, domain: config.signing, signer });
 * const { body } = await builder.build({ market, side: "buy", price: "0.53", quantity: "10", expiry: 0 });
 * await client.placeOrder(body);
 */
export class OrderBuilder {
  readonly #signer: Signer;
  readonly #salt: SaltSource;
  readonly #wallet: Address;
  readonly #maker: Address;
  readonly #signatureType: number;
  readonly #defaultFeeRateBps: number;
  readonly #binary: ResolvedDomain;
  readonly #negRisk: ResolvedDomain;

  /** Throws ValidationError (`signer_mismatch`, `vault_required`, `invalid_address`, …) on bad settings. */
  constructor(options: OrderBuilderOptions) {
    const { settings, signer } = options;
    this.#wallet = normalizeAddress(settings.wallet, "wallet");
    if (normalizeAddress(signer.address, "signer") !== this.#wallet) {
      throw new ValidationError(
        "signer_mismatch",
        "the signer's key does not belong to the configured wallet",
        {
          wallet: this.#wallet,
          signer: signer.address.toLowerCase(),
        },
      );
    }
    if (settings.maker === "vault") {
      if (settings.vault === undefined) {
        throw new ValidationError("vault_required", 'maker "vault" needs the vault address', {});
      }
      this.#maker = normalizeAddress(settings.vault, "vault");
    } else if (settings.maker === "wallet") {
      this.#maker = this.#wallet;
    } else {
      throw new ValidationError("invalid_maker", `maker must be "wallet" or "vault"`, {
        maker: String(settings.maker),
      });
    }
    this.#signatureType = checkSignatureType(settings.signatureType);
    this.#defaultFeeRateBps = assertFeeBps(settings.defaultFeeRateBps);
    this.#signer = signer;
    this.#salt = options.salt ?? randomSalt;
    this.#binary = resolve(orderDomain(options.domain, false));
    this.#negRisk = resolve(orderDomain(options.domain, true));
  }

  /** The struct's maker (wallet or vault), lowercase. */
  get maker(): Address {
    return this.#maker;
  }

  /**
   * Validates, builds and signs one order. Throws ValidationError before anything is signed when the
   * order would be refused (see buildOrderStruct for the codes; also `invalid_tif` for MARKET + GTC).
   */
  async build(request: OrderRequest): Promise<BuiltOrder> {
    if (request.type === "market" && request.timeInForce === "gtc") {
      throw new ValidationError("invalid_tif", "a market order cannot be GTC", {});
    }
    const { market } = request;
    const built = buildOrderStruct({
      market,
      side: request.side,
      price: request.price,
      quantity: request.quantity,
      expiry: request.expiry,
      salt: this.#salt(),
      maker: this.#maker,
      signer: this.#wallet,
      signatureType: this.#signatureType,
      defaultFeeRateBps: this.#defaultFeeRateBps,
    });
    const { struct } = built;
    const resolved = market.negRisk ? this.#negRisk : this.#binary;
    const digest = typedDataDigest(resolved.separator, orderEncoder.hashStruct(struct));
    const signature = await this.#signer.signDigest(digest);
    const body: PlaceOrderRequest = {
      marketId: market.marketId,
      side: request.side,
      outcome: market.outcome,
      price: built.price,
      quantity: built.quantity,
      nonce: struct.salt.toString(),
      expiry: request.expiry,
      maker: struct.maker,
      signature,
    };
    if (request.clientOrderId !== undefined) body.clientOrderId = request.clientOrderId;
    if (request.type !== undefined) body.type = request.type;
    if (request.timeInForce !== undefined) body.timeInForce = request.timeInForce;
    return { struct, domain: resolved.domain, digest, signature, body };
  }
}

function resolve(domain: Eip712Domain): ResolvedDomain {
  const verifyingContract = normalizeAddress(domain.verifyingContract, "verifyingContract");
  const d = { ...domain, verifyingContract };
  return { domain: d, separator: domainSeparatorBytes(d) };
}
