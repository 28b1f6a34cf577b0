import type convict from "convict";
import type { Bounds, FormatName } from "./formats.js";
import { engineSchema, type RawEngineConfig } from "./schema-engine.js";

export type PartnerKind = "single_wallet" | "multi_wallet";
export type MakerKind = "wallet" | "vault";
/** pino's levels, from fewest lines to most, and silent (none). */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type PrettyMode = "auto" | "true" | "false";

/** One setting: convict's fields plus the bounds our numeric formats read. */
export interface SettingSpec<T = unknown> extends Bounds {
  readonly doc: string;
  readonly format: FormatName | string[];
  readonly default: T;
  readonly env: `MM_${string}`;
  /** convict masks it in its own output; we never print it at all. */
  readonly sensitive?: boolean;
  /** A secret value: accepted from the environment only, refused in any config file. */
  readonly envOnly?: boolean;
  /**
   * A JSON-valued setting that convict must not overlay key by key (layering.ts combines files):
   * `replace` — a later file replaces it whole; `entries` — a map merged key by key, each entry
   * replaced whole; `deep` — objects merged recursively, arrays and scalars replaced.
   */
  readonly layer?: "replace" | "entries" | "deep";
}

/** The settings as convict holds them (decimals as strings, absent addresses as ""). */
export interface RawConfig extends RawEngineConfig {
  exchange: {
    baseUrl: string;
    wsUrl: string;
    partnerKind: PartnerKind;
    userWallet: string;
    requestTimeoutMs: number;
    wsSubscriptionCheckMs: number;
  };
  retry: { baseDelayMs: number; maxDelayMs: number; maxAttempts: number };
  circuitBreaker: { windowMs: number; failureRatio: number; minRequests: number; openMs: number };
  signing: {
    domainName: string;
    domainVersion: string;
    chainId: number;
    exchangeContract: string;
    negRiskExchangeContract: string;
    maker: MakerKind;
    vaultAddress: string;
    signatureType: number;
    defaultFeeRateBps: number;
    orderExpirySeconds: number;
    noncePool: number;
  };
  markets: {
    defaultTickSize: string;
    minOrderSize: string;
    tickSizes: Record<string, string>;
    minOrderSizes: Record<string, string>;
  };
  log: { level: LogLevel; pretty: PrettyMode };
  secrets: { apiKeyFile: string; privateKeyFile: string; apiKey: string; privateKey: string };
}

const setting = <T>(spec: SettingSpec<T>): SettingSpec<T> => spec;

const ms = (doc: string, def: number, env: `MM_${string}`, min: number, max: number) =>
  setting({ doc, format: "mm-int", default: def, env, min, max });

/**
 * Every mm setting with its documentation, format, default and `MM_*` environment override.
 * Precedence: this default < config/default.json < each --config file in order < environment.
 */
export const schema = {
  exchange: {
    baseUrl: setting({
      doc: "Base URL of the exchange HTTP API ({base_url} in the spec); endpoint paths such as /api/markets are appended. Used in one spelling (scheme and host lowercased, default port and trailing slash dropped, a path prefix kept), which with the wallet names the journal's account.",
      format: "mm-http-url",
      default: "http://127.0.0.1:8080",
      env: "MM_EXCHANGE_BASE_URL",
    }),
    wsUrl: setting({
      doc: "Base URL of the WebSocket gateways ({ws_url} in the spec); /ws/market and /ws/user are appended. Used in one spelling, as exchange.baseUrl.",
      format: "mm-ws-url",
      default: "ws://127.0.0.1:8080",
      env: "MM_EXCHANGE_WS_URL",
    }),
    partnerKind: setting<PartnerKind>({
      doc: "Kind of the partner the API key belongs to: single_wallet acts for the partner's associated wallet; multi_wallet sends exchange.userWallet as X-User-Wallet on every request.",
      format: ["single_wallet", "multi_wallet"],
      default: "single_wallet",
      env: "MM_EXCHANGE_PARTNER_KIND",
    }),
    userWallet: setting({
      doc: "Acting wallet sent as X-User-Wallet (0x + 40 hex). Required when partnerKind is multi_wallet; must be the address of the private key. Must be empty for single_wallet (never sent there).",
      format: "mm-optional-address",
      default: "",
      env: "MM_EXCHANGE_USER_WALLET",
    }),
    requestTimeoutMs: ms(
      "Time allowed for one HTTP request, in ms. A timeout after the request was sent is an ambiguous outcome, never retried blindly.",
      10_000,
      "MM_EXCHANGE_REQUEST_TIMEOUT_MS",
      100,
      300_000,
    ),
    wsSubscriptionCheckMs: setting({
      doc: "Period, in ms, at which each WebSocket connection's subscriptions are checked against the server's list_subscriptions (jittered into [0.75, 1.25] of it), so that a subscription the server dropped without a word is subscribed again even on a quiet book no probe finds: 0 (off: only a get_book_snapshot or update_subscription refused invalid_params starts a check) or at least 10000.",
      format: "mm-int",
      default: 60_000,
      env: "MM_EXCHANGE_WS_SUBSCRIPTION_CHECK_MS",
      min: 10_000,
      max: 3_600_000,
      zeroIsOff: true,
      rangeNote:
        "0 turns the check off; a shorter period would send list_subscriptions on every connection faster than an unanswered one times out (10 s)",
    }),
  },
  retry: {
    baseDelayMs: ms(
      "First back-off delay for a retryable failure of an idempotent call, in ms; doubles per attempt, with jitter.",
      200,
      "MM_RETRY_BASE_DELAY_MS",
      1,
      60_000,
    ),
    maxDelayMs: ms(
      "Cap on one back-off delay, in ms, and on the wait after a 429 with no usable Retry-After (a 429's Retry-After of 100 ms or more is honoured as sent).",
      10_000,
      "MM_RETRY_MAX_DELAY_MS",
      1,
      600_000,
    ),
    maxAttempts: setting({
      doc: "Attempts in total for an idempotent call, first try included. Order placement and withdrawal requests are never retried.",
      format: "mm-int",
      default: 3,
      env: "MM_RETRY_MAX_ATTEMPTS",
      min: 1,
      max: 10,
    }),
  },
  circuitBreaker: {
    windowMs: ms(
      "Sliding window over which the failure ratio is measured, in ms.",
      30_000,
      "MM_CIRCUIT_BREAKER_WINDOW_MS",
      1_000,
      3_600_000,
    ),
    failureRatio: setting({
      doc: "The breaker opens when more than this fraction of the requests in the window failed (0 < ratio < 1).",
      format: "mm-number",
      default: 0.5,
      env: "MM_CIRCUIT_BREAKER_FAILURE_RATIO",
      min: 0,
      exclusiveMin: true,
      max: 1,
      exclusiveMax: true,
      rangeNote:
        "the breaker opens when more than this fraction of the requests failed, so 1 would never open it",
    }),
    minRequests: setting({
      doc: "Requests needed in the window before the ratio counts, so one early failure cannot open the breaker.",
      format: "mm-int",
      default: 10,
      env: "MM_CIRCUIT_BREAKER_MIN_REQUESTS",
      min: 1,
      max: 100_000,
    }),
    openMs: ms(
      "How long an open breaker pauses sending, in ms.",
      60_000,
      "MM_CIRCUIT_BREAKER_OPEN_MS",
      1_000,
      3_600_000,
    ),
  },
  signing: {
    domainName: setting({
      doc: "EIP-712 domain name of the exchange contract (not shown in the spec).",
      format: "mm-text",
      default: "CTF Exchange",
      env: "MM_SIGNING_DOMAIN_NAME",
    }),
    domainVersion: setting({
      doc: "EIP-712 domain version (not shown in the spec).",
      format: "mm-text",
      default: "1",
      env: "MM_SIGNING_DOMAIN_VERSION",
    }),
    chainId: setting({
      doc: "EIP-712 domain chain id (not shown in the spec; the default 31337 is a local development chain).",
      format: "mm-int",
      default: 31337,
      env: "MM_SIGNING_CHAIN_ID",
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
    }),
    exchangeContract: setting({
      doc: "EIP-712 verifying contract for binary markets (not shown in the spec).",
      format: "mm-address",
      default: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      env: "MM_SIGNING_EXCHANGE_CONTRACT",
    }),
    negRiskExchangeContract: setting({
      doc: "EIP-712 verifying contract for neg-risk markets (not shown in the spec); must differ from exchangeContract.",
      format: "mm-address",
      default: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
      env: "MM_SIGNING_NEG_RISK_EXCHANGE_CONTRACT",
    }),
    maker: setting<MakerKind>({
      doc: "Order maker: wallet (the address of the private key) or vault (signing.vaultAddress, the wallet's custody contract). The signer is always the wallet.",
      format: ["wallet", "vault"],
      default: "wallet",
      env: "MM_SIGNING_MAKER",
    }),
    vaultAddress: setting({
      doc: "The wallet's vault (custody contract) address; required when signing.maker is vault, must be empty when it is wallet.",
      format: "mm-optional-address",
      default: "",
      env: "MM_SIGNING_VAULT_ADDRESS",
    }),
    signatureType: setting({
      doc: "signatureType field of the signed order (0..255; 0 = EOA signature).",
      format: "mm-int",
      default: 0,
      env: "MM_SIGNING_SIGNATURE_TYPE",
      min: 0,
      max: 255,
    }),
    defaultFeeRateBps: setting({
      doc: "feeRateBps signed when a market's feeTakerBps is null (0..1000). Must match the platform default, or orders fail with bad_signature.",
      format: "mm-int",
      default: 0,
      env: "MM_SIGNING_DEFAULT_FEE_RATE_BPS",
      min: 0,
      max: 1000,
    }),
    orderExpirySeconds: setting({
      doc: "On-chain expiration of signed orders, in seconds from signing on the exchange's clock (our clock plus the offset its answers' X-Server-Time show, as the exchange judges expiry by its own); 0 = no expiration (orders rest until cancelled); otherwise at least 2 × (exchange.requestTimeoutMs + 1 s) (exit 2 below), so that a quote's replacement has a full request timeout to rest before the old order's earliest expiry. A resting quote is replaced max(5 s, 2 × exchange.requestTimeoutMs) + 1 s before its creation + lifetime, or at half-life when the lifetime is shorter than twice that (then lifetime / 2 − 1 s before the earliest expiry: at least one request timeout): an ask placement first where the shares held cover both, else after its cancel; a bid always after its cancel (its USDC is not needed twice), its level empty for that round trip; a refused replacement is tried again until the old order's earliest expiry. Quotes do not expire on the book while each replacement is answered within exchange.requestTimeoutMs, at the cost of a placement and a cancel per quote and lifetime; adopted orders (reconcile.onStart adopt) are replaced at once (README: Time-driven requotes).",
      format: "mm-int",
      default: 0,
      env: "MM_SIGNING_ORDER_EXPIRY_SECONDS",
      min: 0,
      max: 31_536_000,
    }),
    noncePool: setting({
      doc: "Precomputed ECDSA nonces kept ready (0..4096): signing a placement then takes microseconds instead of ~0.3 ms, refilled while idle from the OS CSPRNG; 0 = RFC 6979 deterministic signatures only.",
      format: "mm-int",
      default: 64,
      env: "MM_SIGNING_NONCE_POOL",
      min: 0,
      max: 4096,
    }),
  },
  markets: {
    defaultTickSize: setting({
      doc: "Tick size of markets without an entry in markets.tickSizes (the spec does not show one): decimal string, a multiple of 0.000001 in (0, 0.5]. Prices must lie in [tick, 1 - tick].",
      format: "mm-tick",
      default: "0.01",
      env: "MM_MARKETS_DEFAULT_TICK_SIZE",
    }),
    minOrderSize: setting({
      doc: "Minimum order quantity in shares for markets without an entry in markets.minOrderSizes (not shown in the spec): positive decimal string, at most 6 decimals.",
      format: "mm-size",
      default: "1",
      env: "MM_MARKETS_MIN_ORDER_SIZE",
    }),
    tickSizes: setting<Record<string, string>>({
      doc: 'Per-market tick sizes, market slug → decimal string, e.g. {"will-it-rain": "0.001"}. Files merge slug by slug; the env var (JSON) replaces the whole map.',
      format: "mm-tick-map",
      default: {},
      env: "MM_MARKETS_TICK_SIZES",
    }),
    minOrderSizes: setting<Record<string, string>>({
      doc: "Per-market minimum order sizes, market slug → decimal string. Files merge slug by slug; the env var (JSON) replaces the whole map.",
      format: "mm-size-map",
      default: {},
      env: "MM_MARKETS_MIN_ORDER_SIZES",
    }),
  },
  log: {
    level: setting<LogLevel>({
      doc: "Lowest level of log lines written, from fatal (fewest) to trace (most); silent writes none.",
      format: [...LOG_LEVELS],
      default: "info",
      env: "MM_LOG_LEVEL",
    }),
    pretty: setting<PrettyMode>({
      doc: "Human-readable logs: auto (when stdout is a TTY), true, or false (JSON lines).",
      format: ["auto", "true", "false"],
      default: "auto",
      env: "MM_LOG_PRETTY",
    }),
  },
  secrets: {
    apiKeyFile: setting({
      doc: "Path of a file holding the API key (mode 0600 or stricter). Relative paths resolve against the working directory. Use this or MM_API_KEY.",
      format: "mm-path",
      default: "",
      env: "MM_API_KEY_FILE",
    }),
    privateKeyFile: setting({
      doc: "Path of a file holding the wallet private key, 0x + 64 hex (mode 0600 or stricter). Use this or MM_PRIVATE_KEY.",
      format: "mm-path",
      default: "",
      env: "MM_PRIVATE_KEY_FILE",
    }),
    apiKey: setting({
      doc: "The API key, <svc>_<env>_<keyId>_<secret>. Environment only: refused in config files.",
      format: "mm-secret",
      default: "",
      env: "MM_API_KEY",
      sensitive: true,
      envOnly: true,
    }),
    privateKey: setting({
      doc: "The wallet private key, 0x + 64 hex (0x optional). Environment only: refused in config files.",
      format: "mm-secret",
      default: "",
      env: "MM_PRIVATE_KEY",
      sensitive: true,
      envOnly: true,
    }),
  },
  ...engineSchema,
} satisfies convict.Schema<RawConfig>;

/** A group of settings or one setting. */
export type SchemaNode = SettingSpec | { readonly [key: string]: SchemaNode };

/** True for a setting (convict's rule: a node with a `default`). */
export function isSetting(node: SchemaNode): node is SettingSpec {
  return Object.hasOwn(node, "default");
}

/** Every setting with its dotted path, in schema order. */
export function settings(node: SchemaNode = schema, prefix = ""): Array<{ path: string; spec: SettingSpec }> {
  if (isSetting(node)) return [{ path: prefix, spec: node }];
  return Object.entries(node).flatMap(([key, child]) =>
    settings(child, prefix === "" ? key : `${prefix}.${key}`),
  );
}
