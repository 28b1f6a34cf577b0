import type { PlaceOrderOutcome } from "../exchange/place-outcome.js";
import type { PlaceIntent } from "../execution/intents.js";
import type { Logger } from "../observability/logger.js";
import { type BadSignatureDiagnosis, diagnoseBadSignature } from "../signing/bad-signature-details.js";
import type { Eip712Domain } from "../signing/domain.js";
import type { OrderStruct } from "../signing/order-type.js";
import { BAD_SIGNATURE } from "./fee-recheck.js";

/** An order as signed: what a `bad_signature` reply is compared with. */
export interface SignedOrder {
  readonly struct: OrderStruct;
  readonly domain: Eip712Domain;
  /** Signed for the neg-risk verifying contract (signing.negRiskExchangeContract). */
  readonly negRisk: boolean;
}

/** Signed orders kept at most: more than ever wait for an answer (the queue's slots bound them). */
export const SIGNED_ORDERS_KEPT = 1_024;

/**
 * The orders `sign` signed, by clientOrderId, until their placement is answered (intentSigner's
 * `signed` option fills it, the engine takes them back). A placement signed and then withdrawn
 * unsent is never answered: the oldest entry goes past SIGNED_ORDERS_KEPT, so it stays bounded.
 */
export class SignedOrders {
  readonly #orders = new Map<string, SignedOrder>();

  /** Keeps the order last signed for `clientOrderId` (a resend after a 429 is signed anew). */
  remember(clientOrderId: string, order: SignedOrder): void {
    this.#orders.delete(clientOrderId);
    this.#orders.set(clientOrderId, order);
    if (this.#orders.size > SIGNED_ORDERS_KEPT) {
      const oldest = this.#orders.keys().next();
      if (oldest.done !== true) this.#orders.delete(oldest.value);
    }
  }

  /** The order signed for `clientOrderId`, forgotten from here on. */
  take(clientOrderId: string): SignedOrder | undefined {
    const order = this.#orders.get(clientOrderId);
    this.#orders.delete(clientOrderId);
    return order;
  }

  get size(): number {
    return this.#orders.size;
  }
}

// What the settings behind a differing field are, for the operator.
const FIELD_HINTS: Readonly<Partial<Record<string, string>>> = {
  feeRateBps:
    "the market's feeTakerBps, its record read again now; signing.defaultFeeRateBps where it is null",
  signatureType: "signing.signatureType",
  maker: "signing.maker / signing.vaultAddress",
  signer: "secrets.privateKey",
  expiration: "signing.orderExpirySeconds",
  makerAmount: "amount rounding (README Assumptions)",
  takerAmount: "amount rounding (README Assumptions)",
  tokenId: "the market's token ids",
};

/**
 * Explains the `bad_signature` refusals to the operator, where the engine only re-reads the
 * market's fee (fee-recheck.ts): each one's details are compared with the order as signed
 * (diagnoseBadSignature) and the cause logged at error, naming the fields that differ, or, when all
 * 11 agree, the EIP-712 domain settings and the values signed with (public, not secrets). One line
 * per cause-episode, not per refusal: a cause is logged again only after a placement it concerns
 * was accepted (an episode of a domain ends with one signed for the same verifying contract, of a
 * market's fields with one on that market, of the wallet with any), so a wrong chainId that refuses
 * every placement until the error-rate halt says so once per verifying contract.
 * @example
 * check.answered(intent, outcome); // after each placement's answer, once
 */
export class SignatureCheck {
  readonly #log: Logger;
  readonly #signed: SignedOrders | undefined;
  readonly #slugOf: (marketId: string) => string | undefined;
  /** Cause logged, by the scope whose accepted placement ends its episode. */
  readonly #logged = new Map<string, string>();

  constructor(
    log: Logger,
    signed: SignedOrders | undefined,
    slugOf: (marketId: string) => string | undefined,
  ) {
    this.#log = log;
    this.#signed = signed;
    this.#slugOf = slugOf;
  }

  /** A placement was answered (not a local signing failure: nothing was sent then). */
  answered(intent: PlaceIntent, outcome: PlaceOrderOutcome): void {
    const signed = this.#signed?.take(intent.clientOrderId);
    if (outcome.kind === "accepted") this.#accepted(intent.marketId, signed);
    else if (outcome.kind === "rejected" && outcome.code === BAD_SIGNATURE) {
      this.#refused(intent, signed, outcome.error.details);
    }
  }

  /** A placement was dropped before it left: its signed order (if signed) is not kept. */
  dropped(clientOrderId: string): void {
    this.#signed?.take(clientOrderId);
  }

  #accepted(marketId: string, signed: SignedOrder | undefined): void {
    const ended: string[] = [];
    const scopes = [`market:${marketId}`, "wallet"];
    if (signed !== undefined) scopes.push(`domain:${signed.domain.verifyingContract}`);
    for (const scope of scopes) {
      const cause = this.#logged.get(scope);
      if (cause === undefined) continue;
      this.#logged.delete(scope);
      ended.push(cause);
    }
    if (ended.length > 0) {
      this.#log.info({ marketId, causes: ended }, "placements accepted again after bad_signature refusals");
    }
  }

  #refused(intent: PlaceIntent, signed: SignedOrder | undefined, details: unknown): void {
    const diagnosis = signed === undefined ? undefined : diagnoseBadSignature(signed.struct, details);
    const cause = diagnosis?.cause ?? "unreadable";
    const scope =
      cause === "domain" && signed !== undefined
        ? `domain:${signed.domain.verifyingContract}`
        : cause === "fields" || cause === "unreadable"
          ? `market:${intent.marketId}`
          : "wallet";
    const key =
      diagnosis?.cause === "fields" ? `fields:${diagnosis.differing.map((f) => f.field).join(",")}` : cause;
    if (this.#logged.get(scope) === key) return;
    this.#logged.set(scope, key);
    const fields = {
      marketId: intent.marketId,
      slug: this.#slugOf(intent.marketId),
      clientOrderId: intent.clientOrderId,
      cause,
      ...(diagnosis === undefined ? { signedOrderKnown: false } : describe(diagnosis)),
      ...(signed === undefined ? {} : { signingDomain: domainFields(signed) }),
    };
    this.#log.error(fields, badSignatureLine(diagnosis, signed));
  }
}

/**
 * The operator's line for a `bad_signature` diagnosis (undefined: the order as signed is no longer
 * known, so nothing could be compared).
 * @example badSignatureLine({ cause: "domain", unreadable: [], … }, signed)
 * // "bad_signature: the exchange rebuilt the order exactly as signed (all 11 fields agree), so the EIP-712 domain differs: check signing.chainId (137) …"
 */
export function badSignatureLine(
  d: BadSignatureDiagnosis | undefined,
  signed: SignedOrder | undefined,
): string {
  const domain = domainSettings(signed);
  switch (d?.cause) {
    case "fields": {
      const diffs = d.differing.map((f) => {
        const hint = FIELD_HINTS[f.field];
        return `${f.field}: signed ${f.signed}, exchange ${f.exchange}${hint === undefined ? "" : ` (${hint})`}`;
      });
      return `bad_signature: the exchange rebuilt the signed order with other values: ${diffs.join("; ")}${unreadNote(d.unreadable)}`;
    }
    case "domain":
      return (
        `bad_signature: the exchange rebuilt the order exactly as signed (${agreeing(d.unreadable)}), ` +
        `so the EIP-712 domain differs: check ${domain} against the values your integration manager gives`
      );
    case "wallet":
      return (
        `bad_signature: the exchange expects orders signed by wallet ${d.expectedSigner}, mm signs with ` +
        `${signed?.struct.signer}: secrets.privateKey is not the key of the wallet the API key acts for ` +
        "(or exchange.userWallet names another, for a multi_wallet partner)"
      );
    case "signature_invalid":
      return "bad_signature: the exchange finds no valid EIP-712 signature in the order (recovered null): the signer's output is malformed (secrets.privateKey, the signer)";
    case "unexplained":
      return `bad_signature: the exchange recovered mm's own wallet ${d.recovered} from an order whose fields all agree, yet refused it: ask the exchange (clientOrderId, requestId in the placement's line)`;
    default: {
      const why =
        signed === undefined
          ? "the order as signed is no longer known here"
          : "its details carry no readable platform_canonical_struct";
      return `bad_signature, nothing to compare (${why}): the spec's usual cause is feeRateBps against the market's feeTakerBps (its record is read again now); else the EIP-712 domain: check ${domain}`;
    }
  }
}

function describe(d: BadSignatureDiagnosis): Record<string, unknown> {
  return {
    recovered: d.recovered,
    expectedSigner: d.expectedSigner,
    ...(d.cause === "fields" ? { differing: d.differing } : {}),
    ...((d.cause === "fields" || d.cause === "domain") && d.unreadable.length > 0
      ? { unreadable: d.unreadable }
      : {}),
  };
}

function domainFields(s: SignedOrder): Record<string, unknown> {
  return { ...s.domain, contractSetting: contractSetting(s.negRisk) };
}

function contractSetting(negRisk: boolean): string {
  return negRisk ? "signing.negRiskExchangeContract" : "signing.exchangeContract";
}

function domainSettings(s: SignedOrder | undefined): string {
  if (s === undefined) {
    return "signing.chainId, signing.exchangeContract / signing.negRiskExchangeContract, signing.domainName and signing.domainVersion";
  }
  const { chainId, verifyingContract, name, version } = s.domain;
  const kind = s.negRisk ? "neg-risk" : "binary";
  return (
    `signing.chainId (${chainId}) and ${contractSetting(s.negRisk)} (${verifyingContract}, the verifying contract of ${kind} markets), ` +
    `then signing.domainName (${JSON.stringify(name)}) and signing.domainVersion (${JSON.stringify(version)})`
  );
}

function agreeing(unreadable: readonly string[]): string {
  return unreadable.length === 0
    ? "all 11 fields agree"
    : `the ${11 - unreadable.length} readable fields agree; unreadable: ${unreadable.join(", ")}`;
}

function unreadNote(unreadable: readonly string[]): string {
  return unreadable.length === 0 ? "" : ` (unreadable in the reply: ${unreadable.join(", ")})`;
}
