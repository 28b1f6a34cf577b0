/**
 * The keys each object of a scenario file may hold (src/mock/scenario/types.ts). A key outside
 * them is a problem of its own: a misspelt optional key (`expiresAT`, `negrisk`) would otherwise be
 * dropped in silence, and the mock would run a scenario other than the one written.
 */
export const SCENARIO_KEYS = {
  root: ["seed", "pepper", "eip712", "timing", "partners", "apiKeys", "wallets", "events", "markets", "flow"],
  eip712: ["name", "version", "chainId", "exchangeContract", "negRiskExchangeContract"],
  timing: ["settlementDelayMs", "onboardingDelayMs", "bookUpdateIntervalMs", "ohlcIntervalMs"],
  partners: ["id", "name", "kind", "associatedWallet", "requirePerWalletKyc", "status", "rateLimitPerMin"],
  apiKeys: ["key", "partnerId", "scopes", "ipAllowlist", "expiresAt", "revoked"],
  wallets: ["address", "privateKey", "kycTier", "banned", "usdc", "shares"],
  events: ["id", "slug", "title", "teamA", "teamB", "negRisk"],
  markets: [
    "id",
    "eventId",
    "symbol",
    "slug",
    "title",
    "groupItemTitle",
    "conditionId",
    "questionId",
    "yesTokenId",
    "noTokenId",
    "status",
    "feeTakerBps",
    "tickSize",
    "closesAt",
    "negRisk",
    "initialFairValue",
  ],
  flow: [
    "enabled",
    "stepMs",
    "volatilityPerStep",
    "levels",
    "spreadTicks",
    "levelSize",
    "takerRatePerMin",
    "takerSizeMin",
    "takerSizeMax",
    "marketOrderShare",
    "wallet",
  ],
} as const satisfies Record<string, readonly string[]>;

/**
 * Reports each key of `obj` (at `path`, "" for the root) that `allowed` does not list, as
 * `path.key: unknown key`. Not an object: nothing (its shape is checked where it is read).
 * @example unknownKeys(raw.timing, SCENARIO_KEYS.timing, "timing", bad)
 */
export function unknownKeys(
  obj: unknown,
  allowed: readonly string[],
  path: string,
  bad: (path: string, msg: string) => void,
): void {
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return;
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k))
      bad(path === "" ? k : `${path}.${k}`, `unknown key (known: ${allowed.join(", ")})`);
  }
}
