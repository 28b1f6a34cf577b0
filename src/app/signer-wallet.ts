import { ConfigError } from "../config/errors.js";
import type { MmConfig } from "../config/types.js";
import { ExchangeError } from "../exchange/exchange-error.js";
import type { Logger } from "../observability/logger.js";

/** The one read the check makes: GET /api/me/withdrawals, whose body names the acting wallet. */
export interface WalletSource {
  list(query: { limit: number }): Promise<{ readonly walletAddress: string }>;
}

/** What the check found: the same wallet, another one (the start's error), or nothing it could read. */
export type SignerWallet =
  | { readonly kind: "same" | "no_key" | "stopped" }
  | { readonly kind: "other"; readonly error: ConfigError }
  | { readonly kind: "unread"; readonly code: string; readonly err: unknown };

/**
 * Whether the signing key (secrets.privateKey) is the wallet the API key acts for. The spec's one
 * read that names that wallet is GET /api/me/withdrawals (`walletAddress`, portfolio:read, which mm
 * needs anyway); every order's signature must recover to it, and its maker must be it or its vault
 * (placement rule 1, `maker_mismatch`). A valid key of another wallet would otherwise start, report
 * ready, and have every placement refused until the error-rate halt.
 * Never rejects; a `stop` requested before the answer ends the wait (`stopped`: the read is left to
 * the client's close). The verdict is acted on by actOnSignerWallet.
 * @example actOnSignerWallet(await checkSignerWallet(client.withdrawals, config, stopRequested), logger);
 */
export async function checkSignerWallet(
  source: WalletSource,
  config: MmConfig,
  stop?: AbortSignal,
): Promise<SignerWallet> {
  const key = config.secrets.privateKey;
  if (key === undefined) return { kind: "no_key" };
  if (stop?.aborted === true) return { kind: "stopped" };
  let acting: string;
  let onAbort: () => void = () => undefined;
  const stopped = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    stop?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const page = await Promise.race([source.list({ limit: 1 }), stopped]);
    if (page === undefined) return { kind: "stopped" };
    acting = page.walletAddress;
  } catch (err) {
    const code = err instanceof ExchangeError ? err.code : err instanceof Error ? err.name : "error";
    return { kind: "unread", code, err };
  } finally {
    stop?.removeEventListener("abort", onAbort);
  }
  if (acting.toLowerCase() === key.address.toLowerCase()) return { kind: "same" };
  const multi = config.exchange.partnerKind === "multi_wallet";
  const error = new ConfigError([
    {
      field: "secrets.privateKey",
      message:
        `is the key of wallet ${key.address} (from ${key.source}), but the API key acts for wallet ` +
        `${acting} (GET /api/me/withdrawals walletAddress${multi ? ", from X-User-Wallet" : ""}): ` +
        "the exchange would refuse every order maker_mismatch; " +
        `set the private key of ${acting}, or an API key of ${key.address}`,
    },
  ]);
  return { kind: "other", error };
}

/**
 * Throws the verdict's ConfigError on secrets.privateKey (exit 2, no order sent) when the exchange
 * names another wallet. A read that failed is warned of and the start goes on: the check is a
 * courtesy, and the start's own reads report an exchange that is down or a key it refuses.
 */
export function actOnSignerWallet(verdict: SignerWallet, logger: Logger): void {
  if (verdict.kind === "other") throw verdict.error;
  if (verdict.kind !== "unread") return;
  logger.warn(
    { err: verdict.err, code: verdict.code },
    "could not read the API key's wallet (GET /api/me/withdrawals) to check secrets.privateKey against it " +
      `(${verdict.code}): a private key of another wallet would show as placements refused maker_mismatch`,
  );
}
