/**
 * The spec's rate-limit table (Limits → Rate-limit mechanics), transcribed as data. The order queue,
 * the mock exchange and the tests all read this one table.
 *
 * Assumptions (README "Assumptions"):
 * - One row of the spec is one bucket: endpoints listed together share it (`bucket`). Sharing is the
 *   stricter reading, so a client pacing itself by it never exceeds a per-endpoint reading.
 * - The split/merge/convert-signature rule is listed under /api/me/vault but the endpoint table names
 *   /api/vault/*-signature; the spec calls them the same endpoints, so both paths carry it.
 * - Scaled wallet limits are floored (never above the true ceiling) with a minimum of 1.
 */

export type RateLimitScope = "ip" | "wallet";
export type RateLimitMethod = "GET" | "POST";

export interface RateLimitRule {
  /** Bucket id; rules with the same id share one bucket. */
  bucket: string;
  method: RateLimitMethod;
  /** Path patterns: `{name}` matches one segment, a trailing `*` any rest (one or more segments). */
  paths: readonly string[];
  /** Applies only when this query parameter is present (leaderboard `search`). */
  whenQuery?: string;
  scope: RateLimitScope;
  /** Requests per window at the baseline rateLimitPerMin of 600. */
  limit: number;
  windowMs: number;
}

const S = 1_000;
const M = 60_000;

/** Baseline rateLimitPerMin: wallet limits scale by rateLimitPerMin / 600. */
export const BASELINE_RATE_LIMIT_PER_MIN = 600;

/** The table, one entry per spec row. */
export const RATE_LIMIT_RULES: readonly RateLimitRule[] = [
  { bucket: "place-ip", method: "POST", paths: ["/api/orders/place"], scope: "ip", limit: 1000, windowMs: M },
  { bucket: "place", method: "POST", paths: ["/api/orders/place"], scope: "wallet", limit: 50, windowMs: S },
  {
    bucket: "cancel",
    method: "POST",
    paths: ["/api/orders/cancel"],
    scope: "wallet",
    limit: 20,
    windowMs: S,
  },
  {
    bucket: "cancel-all",
    method: "POST",
    paths: ["/api/orders/cancel-all"],
    scope: "wallet",
    limit: 5,
    windowMs: S,
  },
  {
    bucket: "vault-signature",
    method: "POST",
    paths: [
      "/api/me/vault/split-signature",
      "/api/me/vault/merge-signature",
      "/api/me/vault/convert-signature",
      "/api/vault/split-signature",
      "/api/vault/merge-signature",
      "/api/vault/convert-signature",
    ],
    scope: "wallet",
    limit: 10,
    windowMs: S,
  },
  {
    bucket: "redemptions",
    method: "POST",
    paths: ["/api/me/redemptions"],
    scope: "wallet",
    limit: 10,
    windowMs: S,
  },
  { bucket: "vault-umbrella", method: "POST", paths: ["/api/vault/*"], scope: "ip", limit: 100, windowMs: M },
  {
    bucket: "order-reads",
    method: "GET",
    paths: [
      "/api/orders/open",
      "/api/orders/history",
      "/api/orders/{id}",
      "/api/orders/{id}/fills",
      "/api/orders/fees-summary",
    ],
    scope: "wallet",
    limit: 600,
    windowMs: M,
  },
  {
    bucket: "markets",
    method: "GET",
    paths: ["/api/markets", "/api/markets/{slug}", "/api/markets/{symbol}/orderbook"],
    scope: "ip",
    limit: 600,
    windowMs: M,
  },
  {
    bucket: "market-trades",
    method: "GET",
    paths: ["/api/markets/{symbol}/trades", "/api/markets/{symbol}/price-history"],
    scope: "ip",
    limit: 240,
    windowMs: M,
  },
  {
    bucket: "market-traders",
    method: "GET",
    paths: ["/api/markets/{symbol}/traders"],
    scope: "ip",
    limit: 120,
    windowMs: M,
  },
  {
    bucket: "market-ohlc",
    method: "GET",
    paths: ["/api/markets/{symbol}/ohlc"],
    scope: "ip",
    limit: 120,
    windowMs: M,
  },
  {
    bucket: "me-reads",
    method: "GET",
    paths: [
      "/api/me/vault",
      "/api/me/balances",
      "/api/me/positions",
      "/api/me/portfolio",
      "/api/me/fee-tier",
      "/api/me/trades",
      "/api/me/fees",
      "/api/me/balance-events",
      "/api/me/splits-merges",
      "/api/me/auto-redeem",
    ],
    scope: "wallet",
    limit: 1800,
    windowMs: M,
  },
  {
    bucket: "me-overview",
    method: "GET",
    paths: ["/api/me/overview"],
    scope: "wallet",
    limit: 180,
    windowMs: M,
  },
  {
    bucket: "me-activity",
    method: "GET",
    paths: ["/api/me/activity"],
    scope: "wallet",
    limit: 360,
    windowMs: M,
  },
  {
    bucket: "me-favorites",
    method: "GET",
    paths: ["/api/me/favorites"],
    scope: "wallet",
    limit: 120,
    windowMs: M,
  },
  {
    bucket: "deposit-limits",
    method: "GET",
    paths: ["/api/me/deposit-limits"],
    scope: "wallet",
    limit: 120,
    windowMs: M,
  },
  {
    bucket: "vault-emergency",
    method: "POST",
    paths: ["/api/me/vault/emergency"],
    scope: "wallet",
    limit: 120,
    windowMs: M,
  },
  {
    bucket: "withdrawal-reads",
    method: "GET",
    paths: ["/api/me/withdrawals", "/api/me/withdrawals/{id}", "/api/me/withdrawals/deposit-sources"],
    scope: "wallet",
    limit: 60,
    windowMs: M,
  },
  {
    bucket: "withdrawal-fee",
    method: "GET",
    paths: ["/api/me/withdrawals/fee"],
    scope: "wallet",
    limit: 30,
    windowMs: M,
  },
  {
    bucket: "withdrawal-cancel",
    method: "POST",
    paths: ["/api/me/withdrawals/{id}/cancel"],
    scope: "wallet",
    limit: 10,
    windowMs: M,
  },
  {
    bucket: "withdrawal-request",
    method: "POST",
    paths: ["/api/withdrawals/request"],
    scope: "ip",
    limit: 60,
    windowMs: M,
  },
  { bucket: "leaderboard", method: "GET", paths: ["/api/leaderboard"], scope: "ip", limit: 600, windowMs: M },
  {
    bucket: "leaderboard-search",
    method: "GET",
    paths: ["/api/leaderboard"],
    whenQuery: "search",
    scope: "ip",
    limit: 120,
    windowMs: M,
  },
  {
    bucket: "search",
    method: "GET",
    paths: ["/api/search", "/api/search/*"],
    scope: "ip",
    limit: 60,
    windowMs: M,
  },
];

/** A rule that matched a request, with its limit scaled for the partner. */
export interface AppliedRateLimit {
  rule: RateLimitRule;
  /** Limit after scaling (wallet scope) by rateLimitPerMin / 600. */
  limit: number;
  windowMs: number;
}

/**
 * The rules that apply to a request: at most one per scope (both `ip` and `wallet` must pass). Within a
 * scope the most specific pattern wins, so `/api/me/withdrawals/fee` takes its own rule, not `{id}`'s,
 * and a leaderboard call with `search` (in `opts.query` or the path's query string) takes the tighter rule. An empty result means the spec
 * shows no limit for the endpoint (events, matches, tags, platform, health).
 * @example
 * rateLimitsFor("POST", "/api/orders/place") // [ip 1000/60 s, wallet 50/1 s]
 * rateLimitsFor("POST", "/api/orders/place", { rateLimitPerMin: 1200 }) // wallet limit 100
 */
export function rateLimitsFor(
  method: string,
  path: string,
  opts: { rateLimitPerMin?: number; query?: Readonly<Record<string, unknown>> } = {},
): AppliedRateLimit[] {
  const [pathOnly = path, search] = path.split("?", 2);
  const inPath = new URLSearchParams(search ?? "");
  const hasQuery = (name: string) => opts.query?.[name] !== undefined || inPath.has(name);
  const best = new Map<RateLimitScope, { rule: RateLimitRule; score: number }>();
  for (const rule of RATE_LIMIT_RULES) {
    if (rule.method !== method.toUpperCase()) continue;
    if (rule.whenQuery !== undefined && !hasQuery(rule.whenQuery)) continue;
    for (const pattern of rule.paths) {
      const score = matchScore(pattern, pathOnly);
      if (score === undefined) continue;
      const total = score + (rule.whenQuery === undefined ? 0 : 0.5);
      const current = best.get(rule.scope);
      if (current === undefined || total > current.score) best.set(rule.scope, { rule, score: total });
    }
  }
  const perMin = opts.rateLimitPerMin ?? BASELINE_RATE_LIMIT_PER_MIN;
  return [...best.values()].map(({ rule }) => ({
    rule,
    limit: scaledLimit(rule, perMin),
    windowMs: rule.windowMs,
  }));
}

/**
 * A rule's limit for a partner: wallet-scoped limits scale by rateLimitPerMin / 600 (600 → 1×,
 * 1200 → 2×, 60 → 0.1×), floored, at least 1; IP limits are unaffected.
 * @example scaledLimit(placeWalletRule, 60) // 5
 */
export function scaledLimit(rule: RateLimitRule, rateLimitPerMin: number): number {
  if (rule.scope === "ip") return rule.limit;
  if (!(rateLimitPerMin > 0))
    throw new RangeError(`rateLimitPerMin must be positive, got ${rateLimitPerMin}`);
  return Math.max(1, Math.floor((rule.limit * rateLimitPerMin) / BASELINE_RATE_LIMIT_PER_MIN));
}

/**
 * Specificity of `pattern` for `path` (higher is more specific), or undefined when it does not match.
 * Literal segments score 2, `{param}` 1; a trailing `*` matches one or more segments and scores 0.
 */
export function matchScore(pattern: string, path: string): number | undefined {
  const p = splitPath(pattern);
  const s = splitPath(path);
  let score = 0;
  for (let i = 0; i < p.length; i++) {
    const seg = p[i] as string;
    if (seg === "*" && i === p.length - 1) return s.length > i ? score : undefined;
    const actual = s[i];
    if (actual === undefined) return undefined;
    if (seg.startsWith("{") && seg.endsWith("}")) score += 1;
    else if (seg === actual) score += 2;
    else return undefined;
  }
  return s.length === p.length ? score : undefined;
}

function splitPath(path: string): string[] {
  return path.split("/").filter((seg) => seg !== "");
}
