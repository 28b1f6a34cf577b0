import { settings } from "./schema.js";
import { REDACTED } from "./secret.js";
import type { MmConfig } from "./types.js";

/**
 * The effective configuration as plain JSON for display (`mm config`): every setting, the files
 * layered, and for each secret whether it is present, where it came from and its public parts
 * (API key id, wallet address). Secret values appear only as "[REDACTED]". An empty setting (the
 * loaded config's null: no user wallet, no key file…) is shown as "", as a config file holds it, so
 * that the output without `files`, `secrets.apiKey` and `secrets.privateKey` loads back as a file.
 */
export function describeConfig(config: MmConfig): Record<string, unknown> {
  // setBy is where the settings came from, not a setting: the output must load back as a file.
  const { files, secrets, setBy: _setBy, ...rest } = config;
  const { apiKey, privateKey } = secrets;
  const shown: Record<string, unknown> = structuredClone({
    files,
    ...rest,
    secrets: {
      apiKeyFile: secrets.apiKeyFile,
      privateKeyFile: secrets.privateKeyFile,
      apiKey:
        apiKey === undefined
          ? { present: false, value: null }
          : {
              present: true,
              value: REDACTED,
              source: apiKey.source,
              svc: apiKey.svc,
              env: apiKey.env,
              keyId: apiKey.keyId,
            },
      privateKey:
        privateKey === undefined
          ? { present: false, value: null }
          : { present: true, value: REDACTED, source: privateKey.source, address: privateKey.address },
    },
  });
  emptyAsString(shown);
  return shown;
}

/** Replaces null by "" at every setting whose schema default is "" (its file form when empty). */
function emptyAsString(shown: Record<string, unknown>): void {
  for (const { path, spec } of settings()) {
    if (spec.default !== "") continue;
    const keys = path.split(".");
    const last = keys.pop() as string;
    let parent: unknown = shown;
    for (const k of keys) parent = isObject(parent) ? parent[k] : undefined;
    if (isObject(parent) && parent[last] === null) parent[last] = "";
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
