import { ConfigError, type ConfigIssue } from "../config/errors.js";
import type { ApiKeyScenario, Scenario, WalletScenario } from "../mock/scenario/types.js";

/**
 * Besides orders:write, what the bot reads with its key: its orders (the reconcile) and its
 * portfolio (positions, trades, and the /ws/user fills).
 */
const READ_SCOPES = ["orders:read", "portfolio:read"] as const;

/** The address paper mode reaches the mock from, as the mock's IP allowlist check sees it. */
const PAPER_IP = "127.0.0.1";

/** What the paper bot trades with: the wallet it signs as, its private key and its API key. */
export interface PaperCredentials {
  /** The scenario's first wallet, lowercase. */
  readonly wallet: `0x${string}`;
  readonly privateKey: `0x${string}`;
  readonly apiKey: string;
}

/**
 * The paper credentials of a scenario: its first wallet (with its privateKey) and the API key the
 * mock maps to that wallet for writes — orders:write (and the orders:read and portfolio:read the
 * bot reads with), not revoked, not expired at `nowMs`,
 * usable from 127.0.0.1, of an active single_wallet partner whose associatedWallet is that wallet.
 * Paper mode forces partnerKind single_wallet and signs as the first wallet, so any other key would
 * give a bot whose key and signer disagree with the mock. Among the keys that fit, one that never
 * expires is taken, else the one expiring last (first listed among equals). Throws a ConfigError
 * on `scenario` naming what is missing, and why each writing key does not fit (by index: never a
 * key's value).
 * @example const { wallet, privateKey, apiKey } = paperCredentials(scenario, Date.now());
 */
export function paperCredentials(scenario: Scenario, nowMs: number): PaperCredentials {
  const issues: ConfigIssue[] = [];
  const bad = (message: string) => issues.push({ field: "scenario", message });
  const first = scenario.wallets[0];
  if (first === undefined) {
    bad("paper mode signs as the scenario's first wallet, and wallets is empty");
    throw new ConfigError(issues);
  }
  const wallet = first.address.toLowerCase() as `0x${string}`;
  for (const problem of walletProblems(first))
    bad(`paper mode signs as the first wallet ${wallet}, which ${problem}`);
  const refusals: string[] = [];
  const fitting: ApiKeyScenario[] = [];
  scenario.apiKeys.forEach((k, i) => {
    if (!k.scopes.includes("orders:write")) return;
    const why = keyProblem(scenario, k, wallet, nowMs);
    if (why === undefined) fitting.push(k);
    else refusals.push(`apiKeys[${i}]: ${why}`);
  });
  const apiKey = longestLived(fitting)?.key;
  if (apiKey === undefined) {
    bad(
      `paper mode needs an API key with orders:write, orders:read and portfolio:read of an active single_wallet partner whose ` +
        `associatedWallet is the first wallet ${wallet} (not revoked, not expired, ipAllowlist empty ` +
        `or with ${PAPER_IP}); ` +
        (refusals.length === 0 ? "no API key has orders:write" : `none fits: ${refusals.join(", ")}`),
    );
  }
  if (issues.length > 0 || apiKey === undefined || first.privateKey === undefined)
    throw new ConfigError(issues);
  return { wallet, privateKey: first.privateKey, apiKey };
}

/**
 * The key that stays valid longest: one that never expires, else the one expiring last (the first
 * listed among equals). A key that expires during the run would have the mock refuse every request
 * from then on (401), while another fitting key would have kept the bot trading.
 */
function longestLived(keys: readonly ApiKeyScenario[]): ApiKeyScenario | undefined {
  let best: ApiKeyScenario | undefined;
  let bestEnd = Number.NEGATIVE_INFINITY;
  for (const k of keys) {
    const end = k.expiresAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(k.expiresAt);
    if (best === undefined || end > bestEnd) {
      best = k;
      bestEnd = end;
    }
  }
  return best;
}

/** Why the mock would refuse this wallet's orders (or that paper cannot sign for it). */
function walletProblems(w: WalletScenario): string[] {
  const out: string[] = [];
  if (w.privateKey === undefined) out.push("has no privateKey");
  if (w.banned) out.push("is banned");
  // A single_wallet partner never clears KYC for its wallet (checkWriteClearance).
  if (w.kycTier < 1) out.push(`has kycTier ${w.kycTier} (placing orders needs 1 or more)`);
  return out;
}

/** Why the mock would not take this key's writes as `wallet`'s; undefined when it would. */
function keyProblem(s: Scenario, k: ApiKeyScenario, wallet: string, nowMs: number): string | undefined {
  if (k.revoked) return "revoked";
  const missing = READ_SCOPES.filter((scope) => !k.scopes.includes(scope));
  if (missing.length > 0) return `lacks ${missing.join(" and ")}`;
  if (k.expiresAt !== undefined && !(Date.parse(k.expiresAt) > nowMs)) return `expired (${k.expiresAt})`;
  if (k.ipAllowlist.length > 0 && !k.ipAllowlist.includes(PAPER_IP)) {
    return `its ipAllowlist leaves out ${PAPER_IP}`;
  }
  const p = s.partners.find((x) => x.id === k.partnerId);
  if (p === undefined) return `unknown partner ${k.partnerId}`;
  if (p.kind !== "single_wallet") return `partner ${p.id} is ${p.kind}`;
  if (p.associatedWallet === undefined) return `partner ${p.id} has no associatedWallet`;
  if (p.associatedWallet.toLowerCase() !== wallet) return `partner ${p.id} is associated with another wallet`;
  if (p.status !== "active") return `partner ${p.id} is ${p.status}`;
  return undefined;
}
