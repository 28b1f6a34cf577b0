import { resolve } from "node:path";
import { privateKeyToAddress } from "viem/accounts";
import { parseApiKey } from "../core/api-key.js";
import type { Address, Hex } from "../core/types.js";
import { ConfigError, type ConfigIssue } from "./errors.js";
import { Secret } from "./secret.js";
import { readSecretFile } from "./secret-file.js";
import { secretShape } from "./secret-shapes.js";

/** The exchange API key, parsed. `keyId`, `svc` and `env` are public; `value` and `secret` are not. */
export interface ApiKey {
  /** The whole key, as sent in X-Api-Key. */
  readonly value: Secret;
  /** Its secret part alone (the logger scrubs it too). */
  readonly secret: Secret;
  readonly svc: string;
  readonly env: "live" | "test";
  readonly keyId: string;
  /** Where it came from: "env MM_API_KEY" or "file <path>". */
  readonly source: string;
}

/** The wallet private key, normalised to lowercase 0x + 64 hex, with its (public) address. */
export interface PrivateKey {
  readonly value: Secret;
  readonly address: Address;
  readonly source: string;
}

/** The secrets a load found; either may be absent (e.g. `mm config` on a machine without them). */
export interface Secrets {
  readonly apiKeyFile: string | null;
  readonly privateKeyFile: string | null;
  readonly apiKey?: ApiKey;
  readonly privateKey?: PrivateKey;
}

interface SecretSettings {
  apiKeyFile: string;
  privateKeyFile: string;
  apiKey: string;
  privateKey: string;
}

export interface ResolvedSecrets {
  readonly secrets: Secrets;
  readonly issues: ConfigIssue[];
  /** Every raw secret string seen, valid or not, so messages can be scrubbed of them. */
  readonly seen: string[];
}

/**
 * Resolves the API key (MM_API_KEY or secrets.apiKeyFile) and the private key (MM_PRIVATE_KEY or
 * secrets.privateKeyFile). Key files must be regular files not accessible by group or others.
 * Issues name the setting and the source, never the value.
 */
export function resolveSecrets(
  raw: SecretSettings,
  cwd: string,
  platform = process.platform,
): ResolvedSecrets {
  const issues: ConfigIssue[] = [];
  const seen: string[] = [];
  const pick = (envName: string, envValue: string, fileField: string, filePath: string, field: string) => {
    if (envValue !== "" && filePath !== "") {
      seen.push(envValue);
      issues.push({ field, message: `set by both ${envName} and ${fileField}; use one` });
      return undefined;
    }
    if (envValue !== "") {
      seen.push(envValue);
      return { text: envValue.trim(), source: `env ${envName}` };
    }
    if (filePath === "") return undefined;
    if (secretShape(filePath) !== null) {
      // A key pasted into the *_FILE variable: validateSettings names the setting. Read as a path,
      // its "cannot read <path>" line would print the key whole; it is scrubbed from every issue.
      seen.push(filePath);
      return undefined;
    }
    const file = readSecretFile(resolve(cwd, filePath), fileField, issues, { platform });
    if (file !== undefined) seen.push(file);
    return file === undefined ? undefined : { text: file, source: `file ${resolve(cwd, filePath)}` };
  };

  let apiKey: ApiKey | undefined;
  const k = pick("MM_API_KEY", raw.apiKey, "secrets.apiKeyFile", raw.apiKeyFile, "secrets.apiKey");
  if (k !== undefined) {
    const parsed = parseApiKey(k.text);
    if (parsed.ok) {
      const { svc, env, keyId, secret } = parsed.parts;
      apiKey = { value: new Secret(k.text), secret: new Secret(secret), svc, env, keyId, source: k.source };
    } else {
      issues.push({ field: "secrets.apiKey", message: `${parsed.reason} (from ${k.source})` });
    }
  }

  let privateKey: PrivateKey | undefined;
  const p = pick(
    "MM_PRIVATE_KEY",
    raw.privateKey,
    "secrets.privateKeyFile",
    raw.privateKeyFile,
    "secrets.privateKey",
  );
  if (p !== undefined) {
    const parsed = parsePrivateKey(p.text);
    if (typeof parsed === "string")
      issues.push({ field: "secrets.privateKey", message: `${parsed} (from ${p.source})` });
    else privateKey = { ...parsed, source: p.source };
  }

  const secrets: Secrets = {
    apiKeyFile: raw.apiKeyFile === "" ? null : resolve(cwd, raw.apiKeyFile),
    privateKeyFile: raw.privateKeyFile === "" ? null : resolve(cwd, raw.privateKeyFile),
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(privateKey === undefined ? {} : { privateKey }),
  };
  return { secrets, issues, seen };
}

/** A private key as 0x + 64 hex (0x optional, any case), or the reason it is not one. */
function parsePrivateKey(text: string): { value: Secret; address: Address } | string {
  const hex = /^0x/i.test(text) ? text.slice(2) : text;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return "must be 0x + 64 hex characters (32 bytes)";
  const key: Hex = `0x${hex.toLowerCase()}`;
  try {
    return { value: new Secret(key), address: privateKeyToAddress(key) };
  } catch {
    // viem's message may quote the key: say only what is wrong.
    return "is not a valid secp256k1 private key (zero or not below the curve order)";
  }
}

/**
 * The API key, or a ConfigError naming how to provide it. For commands that need to authenticate.
 * @example const key = requireApiKey(config); headers["X-Api-Key"] = key.value.reveal();
 */
export function requireApiKey(config: { readonly secrets: Secrets }): ApiKey {
  if (config.secrets.apiKey !== undefined) return config.secrets.apiKey;
  throw new ConfigError([
    { field: "secrets.apiKey", message: "required: set MM_API_KEY or secrets.apiKeyFile (MM_API_KEY_FILE)" },
  ]);
}

/** The wallet private key, or a ConfigError naming how to provide it. For commands that sign. */
export function requirePrivateKey(config: { readonly secrets: Secrets }): PrivateKey {
  if (config.secrets.privateKey !== undefined) return config.secrets.privateKey;
  throw new ConfigError([
    {
      field: "secrets.privateKey",
      message: "required: set MM_PRIVATE_KEY or secrets.privateKeyFile (MM_PRIVATE_KEY_FILE)",
    },
  ]);
}

/**
 * The raw strings the logger must scrub: the API key, its secret part and the private key.
 * @example createLogger({ level: config.log.level, secrets: secretValues(config) })
 */
export function secretValues(config: { readonly secrets: Secrets }): string[] {
  const { apiKey, privateKey } = config.secrets;
  const out: string[] = [];
  if (apiKey !== undefined) out.push(apiKey.value.reveal(), apiKey.secret.reveal());
  if (privateKey !== undefined) out.push(privateKey.value.reveal());
  return out;
}
