/**
 * Shapes of the two secrets mm handles, used to refuse them where they must never be (config files)
 * and to keep them out of error messages even when they sit in the wrong setting.
 */

/**
 * `<svc>_<env>_<keyId>_<secret>` anywhere in a string. One service character is enough to find
 * the shape: `[A-Za-z0-9]+` would backtrack over every long alphanumeric run (quadratic time, a
 * 40 kB setting took seconds).
 */
const API_KEY_SHAPE = /[A-Za-z0-9]_(?:live|test)_[0-9a-fA-F]{16}_[A-Za-z0-9_-]{43}/;
/** 32 bytes of hex, with or without 0x, not part of a longer hex run. */
const PRIVATE_KEY_SHAPE = /(?:^|[^0-9a-fA-F])(?:0x)?[0-9a-fA-F]{64}(?:$|[^0-9a-fA-F])/;
/** A bare API key secret: exactly 43 base64url characters. */
const BARE_KEY_SECRET = /^[A-Za-z0-9_-]{43}$/;
/**
 * A market slug (lowercase kebab-case), which base64url contains: a 43-character slug is not a
 * secret. 32 random bytes fit this shape with probability about (37/64)^43 ≈ 6e-11.
 */
const SLUG_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A run of 43 or more base64url characters anywhere: where a bare key secret would sit in longer text. */
const KEY_SECRET_RUN = /[A-Za-z0-9_-]{43,}/g;

/**
 * True when text holds a run that could be a bare API key secret (43+ base64url characters, not
 * slug-shaped), e.g. next to a stray quote or bracket, where the anchored shape misses it. Only for
 * deciding what to echo: refusing such values outright would refuse long slugs and paths.
 */
function holdsSecretRun(value: string): boolean {
  return (value.match(KEY_SECRET_RUN) ?? []).some((run) => !SLUG_SHAPE.test(run));
}

/** Which secret a string looks like it contains (with its article, for messages), or null. */
export function secretShape(value: string): "an API key" | "a private key" | null {
  if (API_KEY_SHAPE.test(value)) return "an API key";
  if (BARE_KEY_SECRET.test(value) && !SLUG_SHAPE.test(value)) return "an API key";
  if (PRIVATE_KEY_SHAPE.test(value)) return "a private key";
  return null;
}

/**
 * True for a key name that can only mean a secret value (apiKey, private_key, secret, password…).
 * `apiKeyFile` and the `secrets` group are paths and a group, not secret values, so they pass.
 */
export function isSecretKeyName(key: string): boolean {
  const normalized = key.toLowerCase().replace(/[^a-z0-9]/g, "");
  return /(?:apikey|privatekey|secret|secretkey|mnemonic|seedphrase|password|passphrase)$/.test(normalized);
}

/**
 * Renders a setting's value for an error message: short values verbatim (JSON-quoted), long ones
 * truncated, and anything shaped like a secret, or holding a run that could be a key's secret part,
 * replaced, so a key pasted into the wrong setting never reaches a terminal or a log.
 */
export function showValue(value: unknown): string {
  if (typeof value === "string") {
    const shape = secretShape(value);
    if (shape !== null) return `a value that looks like ${shape} (not shown)`;
    if (holdsSecretRun(value)) return "a value that may hold an API key secret (not shown)";
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
