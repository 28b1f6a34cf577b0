import { parseApiKey } from "../../core/api-key.js";
import type { Clock } from "../../core/clock.js";
import type { Address } from "../../core/types.js";
import type { Directory, PartnerRecord, WalletRecord } from "../directory.js";
import type { Scope } from "../scenario/types.js";
import type { StoredKey } from "./key-store.js";

/** Who a request acts as, once authenticated. */
export interface Identity {
  readonly key: StoredKey;
  readonly partner: PartnerRecord;
  /** The effective wallet (lowercase), for KYC, balances, rate limits and audit. */
  readonly wallet: WalletRecord;
}

/** A refused request: HTTP status, spec code, message and details (e.g. requiredScope/have). */
export interface AuthFailure {
  readonly status: 401 | 403;
  readonly code: string;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

export interface AuthRequest {
  /** X-Api-Key header (or `key=` on a WebSocket upgrade). */
  readonly apiKey: string | undefined;
  /** X-User-Wallet header (or `user_wallet=`). */
  readonly userWallet: string | undefined;
  /** Source IP after trusted X-Forwarded-For. */
  readonly ip: string;
  /** Scopes the endpoint requires (all of them). */
  readonly scopes: readonly Scope[];
  /** Whether the endpoint needs an acting wallet (every authenticated HTTP endpoint and /ws/user). */
  readonly needsWallet: boolean;
}

const WALLET_RE = /^0x[a-fA-F0-9]{40}$/;

/**
 * The spec's "Request checks, in order": header shape, key lookup, constant-time secret check,
 * lifecycle (revoked, expired, suspended, IP allowlist), scopes, effective wallet, banned wallet.
 * Returns the first failure, so each code is reachable exactly as the spec orders them.
 */
export function authenticate(
  dir: Directory,
  clock: Clock,
  req: AuthRequest,
): { ok: true; identity: Identity } | { ok: false; failure: AuthFailure } {
  const fail = (status: 401 | 403, code: string, message: string, details?: Record<string, unknown>) => ({
    ok: false as const,
    failure: details === undefined ? { status, code, message } : { status, code, message, details },
  });
  if (req.apiKey === undefined || req.apiKey === "")
    return fail(401, "auth_required", "X-Api-Key header required");
  const parsed = parseApiKey(req.apiKey);
  if (!parsed.ok) return fail(401, "api_key_bad_format", "API key is malformed");
  const key = dir.keys.get(parsed.parts.keyId);
  if (key === undefined || key.env !== parsed.parts.env)
    return fail(401, "api_key_unknown_key", "unknown API key");
  if (!dir.keys.secretMatches(key, parsed.parts.secret))
    return fail(401, "api_key_bad_secret", "API key secret mismatch");
  if (key.revoked) return fail(401, "api_key_revoked", "API key revoked");
  if (key.expiresAtMs !== undefined && clock.now() >= key.expiresAtMs) {
    return fail(401, "api_key_expired", "API key expired");
  }
  const partner = dir.partner(key.partnerId);
  if (partner === undefined || partner.status === "suspended") {
    return fail(401, "api_key_suspended", "partner suspended");
  }
  if (key.ipAllowlist.length > 0 && !key.ipAllowlist.includes(req.ip)) {
    return fail(401, "api_key_ip_denied", "source IP not on the key's allowlist");
  }
  const missing = req.scopes.find((s) => !key.scopes.has(s));
  if (missing !== undefined) {
    return fail(403, "api_key_scope_missing", `scope ${missing} required`, {
      requiredScope: missing,
      have: [...key.scopes].sort(),
    });
  }
  const wallet = resolveWallet(dir, partner, req);
  if ("failure" in wallet) return wallet;
  if (wallet.record.banned) return fail(403, "wallet_banned", "wallet is banned");
  return { ok: true, identity: { key, partner, wallet: wallet.record } };
}

function resolveWallet(
  dir: Directory,
  partner: PartnerRecord,
  req: AuthRequest,
): { record: WalletRecord } | { ok: false; failure: AuthFailure } {
  if (partner.kind === "single_wallet") {
    if (partner.associatedWallet === undefined) {
      return req.needsWallet
        ? {
            ok: false,
            failure: { status: 401, code: "api_key_no_associated_wallet", message: "no wallet attached" },
          }
        : { record: placeholderWallet() };
    }
    return { record: dir.wallet(partner.associatedWallet) ?? dir.remember(partner.associatedWallet) };
  }
  const raw = req.userWallet;
  if (raw === undefined || raw === "") {
    return req.needsWallet
      ? {
          ok: false,
          failure: { status: 401, code: "api_key_user_wallet_required", message: "X-User-Wallet required" },
        }
      : { record: placeholderWallet() };
  }
  if (!WALLET_RE.test(raw)) {
    return {
      ok: false,
      failure: { status: 401, code: "api_key_user_wallet_invalid", message: "X-User-Wallet malformed" },
    };
  }
  const address = raw.toLowerCase() as Address;
  return { record: partner.requirePerWalletKyc ? dir.remember(address) : dir.onboard(address) };
}

// Public endpoints accept a key without a wallet; they never read the wallet.
const NO_WALLET: WalletRecord = {
  address: "0x0000000000000000000000000000000000000000",
  vault: "0x0000000000000000000000000000000000000000",
  kycTier: 0,
  banned: false,
  usableFromMs: undefined,
  depositCaps: undefined,
};
function placeholderWallet(): WalletRecord {
  return NO_WALLET;
}

/**
 * The KYC rule for write scopes: the wallet needs tier 1+ unless its partner carries compliance
 * (multi_wallet without per-wallet KYC), and an auto-onboarded wallet only after its delay.
 * The refusal code is not in the spec's catalogue: the mock answers 403 `forbidden` with
 * `details.reason` (README "Assumptions").
 */
export function checkWriteClearance(identity: Identity, nowMs: number): AuthFailure | undefined {
  const { partner, wallet } = identity;
  const partnerClears = partner.kind === "multi_wallet" && !partner.requirePerWalletKyc;
  if (!partnerClears && wallet.kycTier < 1) {
    return {
      status: 403,
      code: "forbidden",
      message: "wallet KYC tier 1 required",
      details: { reason: "kyc_required" },
    };
  }
  if (wallet.usableFromMs !== undefined && nowMs < wallet.usableFromMs) {
    return {
      status: 403,
      code: "forbidden",
      message: "sub-account onboarding in progress",
      details: { reason: "onboarding", usableAt: new Date(wallet.usableFromMs).toISOString() },
    };
  }
  return undefined;
}
