/** The parts of an exchange API key. Only `keyId` (and svc/env) are safe to log. */
export interface ApiKeyParts {
  readonly svc: string;
  readonly env: "live" | "test";
  readonly keyId: string;
  readonly secret: string;
}

export type ApiKeyParse = { ok: true; parts: ApiKeyParts } | { ok: false; reason: string };

const SHAPE = "must have the shape <svc>_<env>_<keyId>_<secret>";

/**
 * Checks an API key against the spec's shape `<svc>_<env>_<keyId>_<secret>`: env `live` or `test`,
 * keyId 16 hex characters, secret 43 base64url characters encoding 32 bytes. The secret may itself
 * contain `_`, so everything after the third separator is the secret (assumption: the service
 * prefix has no `_`). Reasons never quote the key.
 * @example parseApiKey("mm_live_0123456789abcdef_" + "A".repeat(43)).ok // true
 */
export function parseApiKey(raw: string): ApiKeyParse {
  const parts = raw.split("_");
  if (parts.length < 4) return { ok: false, reason: `${SHAPE} (found ${parts.length - 1} of 3 separators)` };
  const [svc = "", env = "", keyId = ""] = parts;
  const secret = parts.slice(3).join("_");
  if (!/^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/.test(svc)) {
    return { ok: false, reason: `${SHAPE}: the <svc> prefix must be letters and digits` };
  }
  if (env !== "live" && env !== "test") {
    return { ok: false, reason: `${SHAPE}: <env> must be "live" or "test"` };
  }
  if (!/^[0-9a-fA-F]{16}$/.test(keyId)) {
    return { ok: false, reason: `${SHAPE}: <keyId> must be 16 hex characters` };
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) {
    return { ok: false, reason: `${SHAPE}: <secret> must be 43 base64url characters` };
  }
  // 43 characters carry 258 bits; a real secret (32 bytes) leaves the last 2 bits zero.
  if (Buffer.from(secret, "base64url").toString("base64url") !== secret) {
    return { ok: false, reason: `${SHAPE}: <secret> is not the base64url encoding of 32 bytes` };
  }
  return { ok: true, parts: { svc, env, keyId, secret } };
}
