import { isLoopbackHost } from "./key-transport.js";
import { schema } from "./schema.js";
import type { MmConfig } from "./types.js";

/** The signing settings whose defaults are the local-dev chain's (the mock exchange's domain). */
const DEV_DOMAIN_SETTINGS = ["chainId", "exchangeContract", "negRiskExchangeContract"] as const;

/**
 * The warning for an exchange beyond this machine signed for with the local-dev EIP-712 domain:
 * `exchange.baseUrl` names a host that is not loopback, yet signing.chainId (31337, a local
 * development chain) or a verifying contract (signing.exchangeContract,
 * signing.negRiskExchangeContract) is still its default, the mock exchange's. Such a deployment has
 * every placement refused `bad_signature` until the error-rate halt; README (live deployment) says
 * to take them from the integration manager, as config/live.example.json shows. A warning, not a
 * refusal: the defaults may be right for a development chain behind a remote host. Undefined when
 * nothing is to be said; else the line and the settings it names.
 * @example devSigningDomainWarning(config)?.message // "exchange.baseUrl is api.x, beyond this machine, but signing.chainId is 31337 …"
 */
export function devSigningDomainWarning(
  config: Pick<MmConfig, "exchange" | "signing" | "setBy">,
): { message: string; settings: string[] } | undefined {
  const host = new URL(config.exchange.baseUrl).hostname;
  if (isLoopbackHost(host)) return undefined;
  const still = DEV_DOMAIN_SETTINGS.filter(
    (k) => String(config.signing[k]).toLowerCase() === String(schema.signing[k].default).toLowerCase(),
  );
  if (still.length === 0) return undefined;
  const named = still.map((k) => {
    const where = config.setBy[`signing.${k}`];
    return `signing.${k} is ${config.signing[k]} (${where ?? "the default"})`;
  });
  return {
    message:
      `exchange.baseUrl is ${host}, beyond this machine, but ${named.join(", ")}: the local-dev ` +
      "signing domain of the mock exchange, so the exchange would refuse every order bad_signature; " +
      "set them to the values your integration manager gives (config/live.example.json)",
    settings: still.map((k) => `signing.${k}`),
  };
}
