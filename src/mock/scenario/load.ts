import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { privateKeyToAddress } from "viem/accounts";
import { packageRoot } from "../../config/paths.js";
import { parseApiKey } from "../../core/api-key.js";
import { parseDecimal } from "../../core/decimal.js";
import { MmError } from "../../core/errors.js";
import { assertTick } from "../../core/ticks.js";
import { MARKET_STATUSES } from "../../core/types.js";
import { SCENARIO_KEYS, unknownKeys } from "./known-keys.js";
import type { Scenario } from "./types.js";

/** A scenario that does not fit its format; `issues` has one `path: problem` per fault. */
export class ScenarioError extends MmError {
  readonly issues: readonly string[];
  constructor(file: string, issues: string[]) {
    super("scenario_invalid", `scenario ${file} is invalid:\n${issues.join("\n")}`, { file, issues });
    this.issues = issues;
  }
}

/** Path of the scenario shipped with mm. */
export function defaultScenarioPath(): string {
  return resolve(packageRoot(), "config/mock/default.json");
}

/**
 * Reads and validates a scenario file; throws ScenarioError listing every problem.
 * @example const scenario = loadScenario(defaultScenarioPath());
 */
export function loadScenario(file: string): Scenario {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new ScenarioError(file, [`cannot read JSON: ${(err as Error).message.split("\n")[0]}`]);
  }
  return validateScenario(raw, file);
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BYTES32 = /^0x[0-9a-f]{64}$/;
const UINT = /^[0-9]{1,78}$/;
const SCOPES = new Set([
  "markets:read",
  "events:read",
  "matches:read",
  "portfolio:read",
  "orders:read",
  "orders:write",
  "vault:write",
]);

/**
 * Checks a parsed scenario: shapes, cross-references (keys → partners, markets → events, share
 * balances → tokens), key formats, private keys matching addresses. Addresses are lowercased.
 */
export function validateScenario(raw: unknown, file = "<scenario>"): Scenario {
  const issues: string[] = [];
  const bad = (path: string, msg: string) => issues.push(`${path}: ${msg}`);
  if (typeof raw !== "object" || raw === null) throw new ScenarioError(file, ["(root): must be an object"]);
  const s = raw as Record<string, unknown>;
  const arr = (k: string): Record<string, unknown>[] => {
    const v = s[k];
    if (!Array.isArray(v)) {
      bad(k, "must be an array");
      return [];
    }
    return v as Record<string, unknown>[];
  };
  unknownKeys(s, SCENARIO_KEYS.root, "", bad);
  for (const k of ["eip712", "timing", "flow"] as const) unknownKeys(s[k], SCENARIO_KEYS[k], k, bad);
  for (const k of ["partners", "apiKeys", "wallets", "events", "markets"] as const) {
    const v = s[k];
    if (!Array.isArray(v)) continue;
    for (const [i, o] of v.entries()) unknownKeys(o, SCENARIO_KEYS[k], `${k}[${i}]`, bad);
  }
  if (!Number.isSafeInteger(s.seed)) bad("seed", "must be an integer");
  if (typeof s.pepper !== "string" || s.pepper.length < 8) bad("pepper", "must be a string of 8+ characters");

  const e = (s.eip712 ?? {}) as Record<string, unknown>;
  for (const k of ["exchangeContract", "negRiskExchangeContract"]) {
    if (typeof e[k] !== "string" || !ADDRESS.test(e[k] as string)) bad(`eip712.${k}`, "must be an address");
  }
  if (typeof e.name !== "string" || typeof e.version !== "string")
    bad("eip712", "needs name and version strings");
  if (!Number.isSafeInteger(e.chainId)) bad("eip712.chainId", "must be an integer");

  const t = (s.timing ?? {}) as Record<string, unknown>;
  for (const k of ["settlementDelayMs", "onboardingDelayMs", "bookUpdateIntervalMs", "ohlcIntervalMs"]) {
    if (!Number.isSafeInteger(t[k]) || (t[k] as number) < 0)
      bad(`timing.${k}`, "must be a non-negative integer");
  }

  const partners = arr("partners");
  const partnerIds = new Set<string>();
  partners.forEach((p, i) => {
    const at = `partners[${i}]`;
    if (typeof p.id !== "string" || p.id === "") bad(`${at}.id`, "must be a non-empty string");
    else partnerIds.add(p.id);
    if (p.kind !== "single_wallet" && p.kind !== "multi_wallet")
      bad(`${at}.kind`, "single_wallet or multi_wallet");
    if (p.associatedWallet !== undefined && !ADDRESS.test(String(p.associatedWallet))) {
      bad(`${at}.associatedWallet`, "must be an address");
    }
    if (p.status !== "active" && p.status !== "suspended") bad(`${at}.status`, "active or suspended");
    if (!Number.isSafeInteger(p.rateLimitPerMin) || (p.rateLimitPerMin as number) < 1) {
      bad(`${at}.rateLimitPerMin`, "must be a positive integer");
    }
  });

  const keyIds = new Set<string>();
  arr("apiKeys").forEach((k, i) => {
    const at = `apiKeys[${i}]`;
    const parsed = typeof k.key === "string" ? parseApiKey(k.key) : undefined;
    if (parsed === undefined || !parsed.ok)
      bad(`${at}.key`, parsed?.ok === false ? parsed.reason : "must be a string");
    else if (keyIds.has(parsed.parts.keyId)) bad(`${at}.key`, `duplicate keyId ${parsed.parts.keyId}`);
    else keyIds.add(parsed.parts.keyId);
    if (!partnerIds.has(String(k.partnerId)))
      bad(`${at}.partnerId`, `unknown partner ${String(k.partnerId)}`);
    if (!Array.isArray(k.scopes) || k.scopes.some((x) => !SCOPES.has(x as string))) {
      bad(`${at}.scopes`, `must be a list of ${[...SCOPES].join(", ")}`);
    }
    if (!Array.isArray(k.ipAllowlist)) bad(`${at}.ipAllowlist`, "must be an array (empty = any IP)");
    if (k.expiresAt !== undefined && Number.isNaN(Date.parse(String(k.expiresAt)))) {
      bad(`${at}.expiresAt`, "must be an ISO-8601 time");
    }
    if (typeof k.revoked !== "boolean") bad(`${at}.revoked`, "must be a boolean");
  });

  const tokens = new Set<string>();
  const eventIds = new Set(arr("events").map((ev) => String(ev.id)));
  arr("markets").forEach((m, i) => {
    const at = `markets[${i}]`;
    for (const k of ["id", "eventId", "symbol", "slug", "title"]) {
      if (typeof m[k] !== "string" || m[k] === "") bad(`${at}.${k}`, "must be a non-empty string");
    }
    if (!eventIds.has(String(m.eventId))) bad(`${at}.eventId`, `unknown event ${String(m.eventId)}`);
    for (const k of ["conditionId", "questionId"]) {
      if (typeof m[k] !== "string" || !BYTES32.test(m[k] as string))
        bad(`${at}.${k}`, "must be lowercase bytes32 hex");
    }
    for (const k of ["yesTokenId", "noTokenId"]) {
      if (typeof m[k] !== "string" || !UINT.test(m[k] as string))
        bad(`${at}.${k}`, "must be a uint256 decimal string");
      else tokens.add(m[k] as string);
    }
    if (!(MARKET_STATUSES as readonly string[]).includes(String(m.status)))
      bad(`${at}.status`, "unknown market status");
    if (m.feeTakerBps !== null && (!Number.isInteger(m.feeTakerBps) || (m.feeTakerBps as number) < 0)) {
      bad(`${at}.feeTakerBps`, "must be a non-negative integer or null");
    }
    check(() => assertTick(String(m.tickSize)), `${at}.tickSize`);
    check(() => parseDecimal(m.initialFairValue, "initialFairValue"), `${at}.initialFairValue`);
    if (Number.isNaN(Date.parse(String(m.closesAt)))) bad(`${at}.closesAt`, "must be an ISO-8601 time");
  });

  arr("wallets").forEach((w, i) => {
    const at = `wallets[${i}]`;
    if (typeof w.address !== "string" || !ADDRESS.test(w.address)) bad(`${at}.address`, "must be an address");
    if (w.privateKey !== undefined) {
      try {
        const derived = privateKeyToAddress(w.privateKey as `0x${string}`).toLowerCase();
        if (derived !== String(w.address).toLowerCase())
          bad(`${at}.privateKey`, "does not belong to address");
      } catch {
        bad(`${at}.privateKey`, "must be 0x + 64 hex");
      }
    }
    if (!Number.isInteger(w.kycTier)) bad(`${at}.kycTier`, "must be an integer");
    if (typeof w.banned !== "boolean") bad(`${at}.banned`, "must be a boolean");
    check(() => parseDecimal(w.usdc, "usdc"), `${at}.usdc`);
    for (const [token, qty] of Object.entries((w.shares ?? {}) as Record<string, unknown>)) {
      if (!tokens.has(token)) bad(`${at}.shares`, `unknown token ${token.slice(0, 12)}…`);
      check(() => parseDecimal(qty, "shares"), `${at}.shares.${token.slice(0, 12)}…`);
    }
  });

  const f = (s.flow ?? {}) as Record<string, unknown>;
  if (typeof f.enabled !== "boolean") bad("flow.enabled", "must be a boolean");
  for (const k of ["stepMs", "levels", "spreadTicks", "takerSizeMin", "takerSizeMax"]) {
    if (!Number.isSafeInteger(f[k]) || (f[k] as number) < 1) bad(`flow.${k}`, "must be a positive integer");
  }
  for (const k of ["volatilityPerStep", "takerRatePerMin", "marketOrderShare"]) {
    if (typeof f[k] !== "number" || (f[k] as number) < 0) bad(`flow.${k}`, "must be a non-negative number");
  }
  check(() => parseDecimal(f.levelSize, "levelSize"), "flow.levelSize");
  if (typeof f.wallet !== "string" || !ADDRESS.test(f.wallet)) bad("flow.wallet", "must be an address");

  if (issues.length > 0) throw new ScenarioError(file, issues);
  return normalise(s as unknown as Scenario);

  function check(fn: () => unknown, path: string): void {
    try {
      fn();
    } catch (err) {
      bad(path, (err as Error).message);
    }
  }
}

/** Lowercases every address so lookups and responses follow the spec's lowercase convention. */
function normalise(s: Scenario): Scenario {
  const lower = <T extends string | undefined>(a: T): T => a?.toLowerCase() as T;
  return {
    ...s,
    eip712: {
      ...s.eip712,
      exchangeContract: lower(s.eip712.exchangeContract),
      negRiskExchangeContract: lower(s.eip712.negRiskExchangeContract),
    },
    partners: s.partners.map((p) =>
      p.associatedWallet === undefined ? p : { ...p, associatedWallet: lower(p.associatedWallet) },
    ),
    wallets: s.wallets.map((w) => ({ ...w, address: lower(w.address) })),
    flow: { ...s.flow, wallet: lower(s.flow.wallet) },
  };
}
