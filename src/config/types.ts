import type { Address } from "../core/types.js";
import type { LogLevel, MakerKind, PartnerKind } from "./schema.js";
import type { JournalSyncSetting, OnStartPolicy, StrategySetting } from "./schema-engine.js";
import type { Secrets } from "./secrets.js";

/**
 * The validated, frozen configuration the rest of mm uses. Decimal settings stay strings (parse
 * them with core/decimal where used); absent addresses are null; addresses are EIP-55 checksummed.
 */
export interface MmConfig {
  /** The config files layered, in order (config/default.json first), as absolute paths. */
  readonly files: readonly string[];
  /**
   * Where the operator set each setting not left at its default, worded as the load's own issues
   * word it: dotted path → `in <file>` (a file after config/default.json) or `from env <VAR>` (the
   * environment wins). For a problem found after the load (a metrics port that cannot be bound),
   * whose value may come from a variable the operator forgot was exported.
   */
  readonly setBy: Readonly<Record<string, string>>;
  readonly exchange: {
    readonly baseUrl: string;
    readonly wsUrl: string;
    readonly partnerKind: PartnerKind;
    readonly userWallet: Address | null;
    readonly requestTimeoutMs: number;
    /** Period of the WebSocket subscriptions check, in ms (0: off): src/gateway/periodic-audit.ts. */
    readonly wsSubscriptionCheckMs: number;
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
    /** Precomputed ECDSA nonces kept ready; 0 = deterministic signatures only. */
    readonly noncePool: number;
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
  /** What to quote and how (validated: slugs, strategies through parseStrategyConfig). */
  readonly engine: {
    /** Market slugs, or ["*"] for every listed market; empty = nothing to quote. */
    readonly markets: readonly string[];
    readonly strategy: StrategySetting;
    readonly strategyByMarket: Readonly<Record<string, StrategySetting>>;
    readonly priceToleranceTicks: number;
    readonly sizeTolerance: number;
    /** Session tag of clientOrderIds; null = pick a random one per process start. */
    readonly session: string | null;
    /** Period of the closed markets' record reads and of a refusal's cool-down, ms. */
    readonly marketRecheckMs: number;
    /** Period of the time-driven requote of tokens whose quotes depend on time, ms; 0 = off. */
    readonly requoteIntervalMs: number;
    /** A strategy call longer than this (ms) is counted and warned of as slow. */
    readonly strategySlowMs: number;
  };
  /**
   * Risk settings (JSON), valid for parseRiskConfig, every omitted limit filled with its default
   * (withRiskDefaults); kept as JSON so `mm config` can print the limits in force.
   */
  readonly risk: Readonly<Record<string, unknown>>;
  readonly queue: {
    readonly rateLimitPerMin: number;
    readonly concurrency: number;
    readonly ipLimitFactor: number;
  };
  readonly reconcile: {
    readonly intervalMs: number;
    readonly driftSettleMs: number;
    readonly onStart: OnStartPolicy;
  };
  readonly shutdown: { readonly timeoutMs: number };
  readonly metrics: { readonly host: string; readonly port: number; readonly maxMarketLabels: number };
  /** The journal (src/journal); an empty path means the mode's default location. */
  readonly journal: {
    readonly enabled: boolean;
    readonly path: string;
    readonly snapshotIntervalMs: number;
    readonly synchronous: JournalSyncSetting;
    /** Days of order detail kept (src/journal/retention.ts); 0 = keep everything. */
    readonly retentionDays: number;
  };
}
