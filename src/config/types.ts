import type { Address } from "../core/types.js";
import type { LogLevel, MakerKind, PartnerKind } from "./schema.js";
import type { Secrets } from "./secrets.js";

/**
 * The validated, frozen configuration the rest of mm uses. Decimal settings stay strings (parse
 * them with core/decimal where used); absent addresses are null; addresses are EIP-55 checksummed.
 */
export interface MmConfig {
  /** The config files layered, in order (config/default.json first), as absolute paths. */
  readonly files: readonly string[];
  readonly exchange: {
    readonly baseUrl: string;
    readonly wsUrl: string;
    readonly partnerKind: PartnerKind;
    readonly userWallet: Address | null;
    readonly requestTimeoutMs: number;
  };
  readonly retry: {
    readonly baseDelayMs: number;
    readonly maxDelayMs: number;
    readonly maxAttempts: number;
  };
  readonly circuitBreaker: {
    readonly windowMs: number;
    readonly failureRatio: number;
    readonly minRequests: number;
    readonly openMs: number;
  };
  readonly signing: {
    readonly domainName: string;
    readonly domainVersion: string;
    readonly chainId: number;
    readonly exchangeContract: Address;
    readonly negRiskExchangeContract: Address;
    readonly maker: MakerKind;
    readonly vaultAddress: Address | null;
    readonly signatureType: number;
    readonly defaultFeeRateBps: number;
    readonly orderExpirySeconds: number;
  };
  readonly markets: {
    readonly defaultTickSize: string;
    readonly minOrderSize: string;
    readonly tickSizes: Readonly<Record<string, string>>;
    readonly minOrderSizes: Readonly<Record<string, string>>;
  };
  readonly log: {
    readonly level: LogLevel;
    /** "auto" = human-readable when stdout is a TTY. */
    readonly pretty: boolean | "auto";
  };
  readonly secrets: Secrets;
}
