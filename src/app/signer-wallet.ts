import { ConfigError } from "../config/errors.js";
import type { MmConfig } from "../config/types.js";
import { ExchangeError } from "../exchange/exchange-error.js";
import type { ReadOptions } from "../exchange/markets.js";
import type { Logger } from "../observability/logger.js";
import { StartStoppedError } from "./start-errors.js";

/** The one read the check makes: GET /api/me/withdrawals, whose body names the acting wallet. */
export interface WalletSource {
  list(query: { limit: number }, opts: ReadOptions): Promise<{ readonly walletAddress: string }>;
}

/**
 * The most the check's read may take, ms (capped by exchange.requestTimeoutMs). The check is a
 * courtesy whose failure is only warned of: the client's retries (3 attempts, each up to the request
 * timeout, a 429's Retry-After waited as sent, up to a minute, twice) would hold the start for
 * nothing. A limit=1 read of a healthy exchange answers well within it.
 */
export const SIGNER_READ_TIMEOUT_MS = 3_000;

/** What the check found: the same wallet, another one (the start's error), or nothing it could read. */
export type SignerWallet =
  | { readonly kind: "same" | "no_key" }
  | { readonly kind: "stopped"; readonly reason: string }
  | { readonly kind: "other"; readonly error: ConfigError }
  | { readonly kind: "unread"; readonly code: string; readonly err: unknown };

/**
 * Whether the signing key (secrets.privateKey) is the wallet the API key acts for. The spec's one
 * read that names that wallet is GET /api/me/withdrawals (`walletAddress`, portfolio:read, which mm
 * needs anyway); every order's signature must recover to it, and its maker must be it or its vault
 * (placement rule 1, `maker_mismatch`). A valid key of another wallet would otherwise start, report
 * ready, and have every placement refused until the error-rate halt.
 * The read is made once (no retry) and bounded by SIGNER_READ_TIMEOUT_MS: what it cannot read in that
 * is `unread`, warned of, and the start goes on.
 * Never rejects; a `stop` requested before the answer ends the wait (`stopped`, with the stop's
 * reason: the read is left to the client's close). The verdict is acted on by actOnSignerWallet.
 * @example actOnSignerWallet(await checkSignerWallet(client.withdrawals, config, stopRequested), logger);
 */
export async function checkSignerWallet(
  source: WalletSource,
  config: MmConfig,
  stop?: AbortSignal,
): Promise<SignerWallet> {
  const key = config.secrets.privateKey;
  if (key === undefined) return { kind: "no_key" };
  const stopped = (s: AbortSignal) =>
    ({ kind: "stopped", reason: String(s.reason ?? "stop requested") }) as const;
  if (stop?.aborted === true) return stopped(stop);
  let acting: string;
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<ReturnType<typeof stopped>>((resolve) => {
    if (stop === undefined) return;
    onAbort = () => resolve(stopped(stop));
    stop.addEventListener("abort", onAbort, { once: true });
  });
  const timeoutMs = Math.min(SIGNER_READ_TIMEOUT_MS, config.exchange.requestTimeoutMs);
  try {
    const read = source.list({ limit: 1 }, { maxAttempts: 1, timeoutMs }).then((page) => page.walletAddress);
    const got = await Promise.race([read, aborted]);
    if (typeof got !== "string") return got;
    acting = got;
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
 * names another wallet, and a StartStoppedError when a stop was requested during the read: as for
 * one during the market reads, nothing is opened (no journal run, no gateway), the lifecycle ends
 * with the request's outcome. A read that failed is warned of and the start goes on: the check is a
 * courtesy, and the start's own reads report an exchange that is down or a key it refuses.
 */
export function actOnSignerWallet(verdict: SignerWallet, logger: Logger): void {
  if (verdict.kind === "other") throw verdict.error;
  if (verdict.kind === "stopped") throw new StartStoppedError(verdict.reason);
  if (verdict.kind !== "unread") return;
  logger.warn(
    { err: verdict.err, code: verdict.code },
    "could not read the API key's wallet (GET /api/me/withdrawals) to check secrets.privateKey against it " +
      `(${verdict.code}): a private key of another wallet would show as placements refused maker_mismatch`,
  );
}
