import { REDACTED } from "./secret.js";
import type { MmConfig } from "./types.js";

/**
 * The effective configuration as plain JSON for display (`mm config`): every setting, the files
 * layered, and for each secret whether it is present, where it came from and its public parts
 * (API key id, wallet address). Secret values appear only as "[REDACTED]".
 */
export function describeConfig(config: MmConfig): Record<string, unknown> {
  const { files, secrets, ...settings } = config;
  const { apiKey, privateKey } = secrets;
  return {
    files,
    ...settings,
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
  };
}
