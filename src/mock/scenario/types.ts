import type { Address, MarketStatus } from "../../core/types.js";

/**
 * The mock exchange's world, read from a scenario file (config/mock/default.json). Everything the
 * mock does is a function of this and its seed. Secrets live here in clear because this is a test
 * venue; the mock keeps only peppered hashes of API key secrets in memory.
 */
export interface Scenario {
  /** Seed of every random choice (ids, flow simulator). */
  readonly seed: number;
  /** Pepper mixed into the stored SHA-256 of API key secrets. */
  readonly pepper: string;
  readonly eip712: Eip712Scenario;
  readonly timing: TimingScenario;
  readonly partners: readonly PartnerScenario[];
  readonly apiKeys: readonly ApiKeyScenario[];
  readonly wallets: readonly WalletScenario[];
  readonly events: readonly EventScenario[];
  readonly markets: readonly MarketScenario[];
  readonly flow: FlowScenario;
}

export interface Eip712Scenario {
  readonly name: string;
  readonly version: string;
  readonly chainId: number;
  /** Verifying contract of binary markets. */
  readonly exchangeContract: Address;
  /** Verifying contract of neg-risk markets. */
  readonly negRiskExchangeContract: Address;
}

export interface TimingScenario {
  /** Delay after a fill before GET /api/me/trades shows its fee and trade_settled is pushed. */
  readonly settlementDelayMs: number;
  /** Delay before an auto-onboarded multi_wallet sub-account can trade (spec: about 30 s live). */
  readonly onboardingDelayMs: number;
  /** Period of the full-state book_update frames on token_book. */
  readonly bookUpdateIntervalMs: number;
  /** Period of the s5 OHLC bars. */
  readonly ohlcIntervalMs: number;
}

export type PartnerKind = "single_wallet" | "multi_wallet";

export interface PartnerScenario {
  readonly id: string;
  readonly name: string;
  readonly kind: PartnerKind;
  /** Acting wallet of a single_wallet partner. */
  readonly associatedWallet?: Address;
  /** multi_wallet only; default true. */
  readonly requirePerWalletKyc: boolean;
  readonly status: "active" | "suspended";
  /** Multiplier of wallet-scoped rate limits; 600 = 1×. */
  readonly rateLimitPerMin: number;
}

export type Scope =
  | "markets:read"
  | "events:read"
  | "matches:read"
  | "portfolio:read"
  | "orders:read"
  | "orders:write"
  | "vault:write";

export interface ApiKeyScenario {
  /** The whole `<svc>_<env>_<keyId>_<secret>` value clients send. */
  readonly key: string;
  readonly partnerId: string;
  readonly scopes: readonly Scope[];
  /** Source IPs allowed; empty = any. */
  readonly ipAllowlist: readonly string[];
  /** ISO-8601; absent = never expires. */
  readonly expiresAt?: string;
  readonly revoked: boolean;
}

export interface WalletScenario {
  readonly address: Address;
  /** A well-known test key so a paper bot can sign for this wallet. */
  readonly privateKey?: `0x${string}`;
  /** Retail KYC tier; 1 or more clears writes. */
  readonly kycTier: number;
  readonly banned: boolean;
  /** USDC, human units, decimal string. */
  readonly usdc: string;
  /** Share balances by tokenId, human units. */
  readonly shares: Readonly<Record<string, string>>;
}

export interface EventScenario {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly teamA?: string;
  readonly teamB?: string;
  /** A neg-risk multi-outcome event: its markets are one question each. */
  readonly negRisk: boolean;
}

export interface MarketScenario {
  readonly id: string;
  readonly eventId: string;
  readonly symbol: string;
  readonly slug: string;
  readonly title: string;
  readonly groupItemTitle?: string;
  readonly conditionId: string;
  readonly questionId: string;
  readonly yesTokenId: string;
  readonly noTokenId: string;
  readonly status: MarketStatus;
  readonly feeTakerBps: number | null;
  /** Decimal string, e.g. "0.01". */
  readonly tickSize: string;
  /** ISO-8601. */
  readonly closesAt: string;
  readonly negRisk: boolean;
  /** Seed of the flow simulator's fair value for YES, decimal string in (0, 1). */
  readonly initialFairValue: string;
}

/** Simulated market activity so paper trading sees a live book and real fills. */
export interface FlowScenario {
  readonly enabled: boolean;
  /** Step of the fair-value random walk and of taker arrivals. */
  readonly stepMs: number;
  /** Standard deviation of the fair value's change per step, in price units. */
  readonly volatilityPerStep: number;
  /** Resting background levels per side around fair value. */
  readonly levels: number;
  /** Ticks between fair value and the first background level, and between levels. */
  readonly spreadTicks: number;
  /** Size of each background level, shares (decimal string). */
  readonly levelSize: string;
  /** Mean taker arrivals per minute per token (Poisson). */
  readonly takerRatePerMin: number;
  /** Taker size range, shares (uniform between min and max, whole shares). */
  readonly takerSizeMin: number;
  readonly takerSizeMax: number;
  /** Share of takers that send market orders (the rest send marketable limits). */
  readonly marketOrderShare: number;
  /** The simulator's own wallet (funded generously at start). */
  readonly wallet: Address;
}
