import type { Address } from "../core/types.js";
import { errorRateReachIssues } from "./error-rate-reach.js";
import type { ConfigIssue } from "./errors.js";
import { marketLimitIssues } from "./market-limits.js";
import type { RawConfig } from "./schema.js";
import { strategyLevelIssues } from "./strategy-levels.js";
import { strategySizeFindings } from "./strategy-sizes.js";

/**
 * Rules that span several settings. Each runs only when the settings it reads passed their own
 * format check (`bad` holds the paths that did not), so one mistake yields one line.
 */
export function crossCheck(
  raw: RawConfig,
  bad: ReadonlySet<string>,
  signer: Address | undefined,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const ok = (...paths: string[]) => paths.every((p) => !bad.has(p));
  const { exchange, signing, retry } = raw;

  if (ok("exchange.partnerKind", "exchange.userWallet") && exchange.partnerKind === "multi_wallet") {
    if (exchange.userWallet === "") {
      issues.push({
        field: "exchange.userWallet",
        message: "required when exchange.partnerKind is multi_wallet (it is sent as X-User-Wallet)",
      });
    } else if (signer !== undefined && exchange.userWallet.toLowerCase() !== signer.toLowerCase()) {
      issues.push({
        field: "exchange.userWallet",
        message: `must be the address of the private key (${signer}): the acting wallet signs its own orders`,
      });
    }
  }
  // Set for the other mode, each is ignored: the operator believes the bot acts for (or makes
  // orders from) an address it never uses.
  if (
    ok("exchange.partnerKind", "exchange.userWallet") &&
    exchange.partnerKind === "single_wallet" &&
    exchange.userWallet !== ""
  ) {
    issues.push({
      field: "exchange.userWallet",
      message:
        "must be empty when exchange.partnerKind is single_wallet: it is sent (as X-User-Wallet) only for multi_wallet, and a single_wallet key acts for the partner's associated wallet whatever this says",
    });
  }
  if (ok("signing.maker", "signing.vaultAddress")) {
    if (signing.maker === "vault" && signing.vaultAddress === "") {
      issues.push({ field: "signing.vaultAddress", message: "required when signing.maker is vault" });
    } else if (signing.maker === "wallet" && signing.vaultAddress !== "") {
      issues.push({
        field: "signing.vaultAddress",
        message:
          "must be empty when signing.maker is wallet: the vault is the maker only when signing.maker is vault, so orders would be made by the wallet and not by this vault",
      });
    }
  }
  if (
    ok("signing.exchangeContract", "signing.negRiskExchangeContract") &&
    signing.exchangeContract.toLowerCase() === signing.negRiskExchangeContract.toLowerCase()
  ) {
    issues.push({
      field: "signing.negRiskExchangeContract",
      message:
        "must differ from signing.exchangeContract (binary and neg-risk markets verify against different contracts)",
    });
  }
  if (ok("retry.baseDelayMs", "retry.maxDelayMs") && retry.maxDelayMs < retry.baseDelayMs) {
    issues.push({
      field: "retry.maxDelayMs",
      message: `must be ≥ retry.baseDelayMs (${retry.baseDelayMs}), got ${retry.maxDelayMs}`,
    });
  }
  if (ok("signing.orderExpirySeconds", "exchange.requestTimeoutMs")) {
    const issue = expiryIssue(signing.orderExpirySeconds, exchange.requestTimeoutMs);
    if (issue !== undefined) issues.push(issue);
  }
  if (
    ok(
      "risk",
      "engine.markets",
      "markets.minOrderSize",
      "markets.defaultTickSize",
      "markets.minOrderSizes",
      "markets.tickSizes",
    )
  ) {
    issues.push(...marketLimitIssues(raw));
  }
  if (
    ok(
      "engine.markets",
      "engine.strategy",
      "engine.strategyByMarket",
      "markets.minOrderSize",
      "markets.minOrderSizes",
    )
  ) {
    issues.push(...strategySizeFindings(raw).issues);
  }
  if (ok("risk", "engine.strategy", "engine.strategyByMarket")) issues.push(...strategyLevelIssues(raw));
  if (ok("risk", "queue.rateLimitPerMin", "queue.ipLimitFactor", "queue.concurrency")) {
    issues.push(...errorRateReachIssues(raw));
  }
  return issues;
}

/**
 * An order expiry too short for its quotes to be replaced before it (src/engine/order-renewal.ts).
 * The expiry is whole unix seconds from the signing instant rounded down, so an order may expire
 * 1 s before its creation + lifetime; a quote is replaced at half its lifetime at the latest (a
 * short one: renewAfterMs), and its replacement's placement may take exchange.requestTimeoutMs to
 * be answered. So lifetime / 2 − 1 s must hold one request timeout: a lifetime of at least
 * 2 × (requestTimeoutMs + 1 s). Below that the renewal can be due at the old order's earliest
 * expiry (lifetime 2 s, timeout 1 s: both at 1 s), a gap on the book every lifetime, and a
 * placement in flight can arrive expired, refused (400 expired), a counted order error. 0 (no
 * expiry) is always fine.
 */
function expiryIssue(seconds: number, requestTimeoutMs: number): ConfigIssue | undefined {
  const least = Math.ceil((2 * requestTimeoutMs + 2_000) / 1000);
  if (seconds === 0 || seconds >= least) return undefined;
  return {
    field: "signing.orderExpirySeconds",
    message: `must be 0 (no expiry) or ≥ ${least} (2 × (exchange.requestTimeoutMs ${requestTimeoutMs} ms + 1 s)), got ${seconds}: a quote is replaced at half its lifetime at the latest, and its replacement needs a request timeout to rest before the old order's earliest expiry (lifetime − 1 s, as expiries are whole seconds); shorter, the book has a gap every lifetime and a placement in flight can arrive expired (400 expired)`,
  };
}
