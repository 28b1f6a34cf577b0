import { createHash, timingSafeEqual } from "node:crypto";
import { parseApiKey } from "../../core/api-key.js";
import type { ApiKeyScenario, Scope } from "../scenario/types.js";

/** A key as the mock holds it: the secret only as a peppered SHA-256. */
export interface StoredKey {
  readonly keyId: string;
  readonly env: "live" | "test";
  readonly partnerId: string;
  readonly scopes: ReadonlySet<Scope>;
  readonly ipAllowlist: readonly string[];
  /** Epoch ms; undefined = never. Mutable by fault injection. */
  expiresAtMs: number | undefined;
  revoked: boolean;
  readonly secretHash: Buffer;
}

/**
 * The mock's key table. Secrets from the scenario are hashed with the pepper at load and the
 * clear values dropped, as the spec says the real service stores them.
 */
export class KeyStore {
  readonly #pepper: string;
  readonly #byId = new Map<string, StoredKey>();

  constructor(pepper: string, keys: readonly ApiKeyScenario[]) {
    this.#pepper = pepper;
    for (const k of keys) {
      const parsed = parseApiKey(k.key);
      if (!parsed.ok) throw new Error(`scenario key for ${k.partnerId} is malformed: ${parsed.reason}`);
      this.#byId.set(parsed.parts.keyId, {
        keyId: parsed.parts.keyId,
        env: parsed.parts.env,
        partnerId: k.partnerId,
        scopes: new Set(k.scopes),
        ipAllowlist: k.ipAllowlist,
        expiresAtMs: k.expiresAt === undefined ? undefined : Date.parse(k.expiresAt),
        revoked: k.revoked,
        secretHash: this.#hash(parsed.parts.secret),
      });
    }
  }

  /** The stored key with this keyId, if any. */
  get(keyId: string): StoredKey | undefined {
    return this.#byId.get(keyId);
  }

  /** All keys (for admin listing and revocation by partner). */
  all(): StoredKey[] {
    return [...this.#byId.values()];
  }

  /** Constant-time comparison of a presented secret with the stored hash. */
  secretMatches(key: StoredKey, secret: string): boolean {
    return timingSafeEqual(key.secretHash, this.#hash(secret));
  }

  #hash(secret: string): Buffer {
    return createHash("sha256").update(this.#pepper).update("\0").update(secret).digest();
  }
}
