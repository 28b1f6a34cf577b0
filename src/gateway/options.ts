import type { Clock } from "../core/clock.js";
import { ValidationError } from "../core/errors.js";
import type { Logger } from "../observability/logger.js";
import { type GatewayKind, MAX_IDS_PER_SUBSCRIPTION, MAX_SUBSCRIPTIONS_PER_CONNECTION } from "./types.js";

/** Reconnect back-off: base × factor^(attempt−1), capped at max, then jittered into [½d, d]. */
export interface BackoffSettings {
  readonly baseMs: number;
  readonly factor: number;
  readonly maxMs: number;
  /** A connection that stayed up this long resets the attempt count when it drops. */
  readonly resetAfterMs: number;
}

/** Timers of a gateway connection, all on the injected Clock. */
export interface GatewayTiming {
  /** Socket open + `connected` frame must arrive within this. */
  readonly connectTimeoutMs: number;
  /**
   * A command unanswered this long fails with `command_timeout` and the connection is dropped
   * (get_book_snapshot and list_subscriptions only fail: connection.ts REPLY_OPTIONAL).
   */
  readonly commandTimeoutMs: number;
  /** A `ping` command is sent this often while connected. */
  readonly pingIntervalMs: number;
  /** No frame at all (pongs included) for this long: the connection is dead; reconnect. */
  readonly silenceTimeoutMs: number;
  /**
   * Each open connection's subscriptions are checked against list_subscriptions this often,
   * jittered into [¾, 1¼] of it (periodic-audit.ts); 0: never (only the drop signs start one).
   */
  readonly subscriptionCheckMs: number;
  readonly backoff: BackoffSettings;
}

/** Per-connection caps (the spec's; lower them only to test the splitting). */
export interface GatewayLimits {
  readonly maxIdsPerSubscription: number;
  readonly maxSubscriptionsPerConnection: number;
}

/** Anything holding a secret string behind an explicit reveal() (config's Secret). */
export interface Revealable {
  reveal(): string;
}

/** What a GatewayClient needs. */
export interface GatewayClientOptions {
  /** Base URL of the gateways ({ws_url}); `/ws/market` or `/ws/user` is appended. */
  readonly url: string;
  readonly gateway: GatewayKind;
  /** Sent as X-Api-Key on the upgrade; never logged. */
  readonly apiKey: string | Revealable;
  /** multi_wallet acting wallet, sent as X-User-Wallet. */
  readonly userWallet?: string | undefined;
  /** An Origin header (browsers send one; a bot normally does not). */
  readonly origin?: string | undefined;
  readonly clock: Clock;
  /** Uniform [0, 1) source for back-off jitter; default Math.random. */
  readonly random?: () => number;
  readonly logger?: Logger | undefined;
  readonly timing?: Partial<Omit<GatewayTiming, "backoff">> & { readonly backoff?: Partial<BackoffSettings> };
  readonly limits?: Partial<GatewayLimits>;
}

/**
 * Defaults. The spec gives no heartbeat interval ("not shown"): a ping every 10 s and a 30 s
 * silence limit tolerate two lost pongs; the back-off starts at 500 ms and caps at 30 s. The
 * subscriptions check every 60 s costs one small command per connection a minute and bounds how
 * long a quiet book can sit on a subscription the server dropped.
 */
export const DEFAULT_TIMING: GatewayTiming = {
  connectTimeoutMs: 10_000,
  commandTimeoutMs: 10_000,
  pingIntervalMs: 10_000,
  silenceTimeoutMs: 30_000,
  subscriptionCheckMs: 60_000,
  backoff: { baseMs: 500, factor: 2, maxMs: 30_000, resetAfterMs: 60_000 },
};

export const DEFAULT_LIMITS: GatewayLimits = {
  maxIdsPerSubscription: MAX_IDS_PER_SUBSCRIPTION,
  maxSubscriptionsPerConnection: MAX_SUBSCRIPTIONS_PER_CONNECTION,
};

/** Resolved settings of a client. */
export interface GatewaySettings {
  readonly timing: GatewayTiming;
  readonly limits: GatewayLimits;
}

/**
 * Defaults overlaid with the caller's, validated (ValidationError `invalid_gateway_config`).
 * @example gatewaySettings({ timing: { pingIntervalMs: 5_000 } })
 */
export function gatewaySettings(opts: Pick<GatewayClientOptions, "timing" | "limits">): GatewaySettings {
  const t = opts.timing ?? {};
  const timing: GatewayTiming = {
    ...DEFAULT_TIMING,
    ...t,
    backoff: { ...DEFAULT_TIMING.backoff, ...t.backoff },
  };
  const limits: GatewayLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const bad = (field: string, rule: string): never => {
    throw new ValidationError("invalid_gateway_config", `gateway ${field} must be ${rule}`, { field });
  };
  for (const k of ["connectTimeoutMs", "commandTimeoutMs", "pingIntervalMs", "silenceTimeoutMs"] as const) {
    if (!(Number.isFinite(timing[k]) && timing[k] > 0)) bad(k, "> 0");
  }
  const check = timing.subscriptionCheckMs;
  if (!(Number.isFinite(check) && check >= 0)) bad("subscriptionCheckMs", ">= 0 (0: off)");
  const b = timing.backoff;
  if (!(b.baseMs > 0)) bad("backoff.baseMs", "> 0");
  if (!(b.factor >= 1)) bad("backoff.factor", ">= 1");
  if (!(b.maxMs >= b.baseMs)) bad("backoff.maxMs", ">= backoff.baseMs");
  if (!(b.resetAfterMs >= 0)) bad("backoff.resetAfterMs", ">= 0");
  const ids = limits.maxIdsPerSubscription;
  const subs = limits.maxSubscriptionsPerConnection;
  if (!(Number.isInteger(ids) && ids >= 1 && ids <= MAX_IDS_PER_SUBSCRIPTION)) {
    bad("limits.maxIdsPerSubscription", `an integer in [1, ${MAX_IDS_PER_SUBSCRIPTION}]`);
  }
  if (!(Number.isInteger(subs) && subs >= 1 && subs <= MAX_SUBSCRIPTIONS_PER_CONNECTION)) {
    bad("limits.maxSubscriptionsPerConnection", `an integer in [1, ${MAX_SUBSCRIPTIONS_PER_CONNECTION}]`);
  }
  return { timing, limits };
}

/**
 * Delay before reconnect attempt `attempt` (≥ 1): the exponential delay d, jittered uniformly into
 * [d/2, d] ("equal jitter": never zero, so a fleet dropped at once does not return at once).
 * @example reconnectDelay(3, DEFAULT_TIMING.backoff, () => 0.5) // 1_500
 */
export function reconnectDelay(attempt: number, b: BackoffSettings, random: () => number): number {
  const d = Math.min(b.baseMs * b.factor ** (Math.max(1, attempt) - 1), b.maxMs);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(d / 2 + (d / 2) * r);
}

/** The URL of one gateway under the base URL. */
export function gatewayUrl(base: string, gateway: GatewayKind): string {
  return `${base.replace(/\/+$/, "")}/ws/${gateway}`;
}
