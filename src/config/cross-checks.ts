import type { Address } from "../core/types.js";
import { errorRateReachIssues } from "./error-rate-reach.js";
import type { ConfigIssue } from "./errors.js";
import { marketLimitIssues } from "./market-limits.js";
import type { RawConfig } from "./schema.js";
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
  if (ok("risk", "queue.rateLimitPerMin", "queue.ipLimitFactor", "queue.concurrency")) {
    issues.push(...errorRateReachIssues(raw));
  }
  return issues;
}

/**
 * An order expiry a placement can outlive on its way. The expiry is whole unix seconds from the
 * signing instant rounded down, so up to 1 s of it is gone at once; the request may then take
 * exchange.requestTimeoutMs, and an order that arrives expired is refused (400 expired), a counted
 * order error. 0 (no expiry) is always fine.
 */
function expiryIssue(seconds: number, requestTimeoutMs: number): ConfigIssue | undefined {
  const least = Math.ceil(requestTimeoutMs / 1000) + 1;
  if (seconds === 0 || seconds >= least) return undefined;
  return {
    field: "signing.orderExpirySeconds",
    message: `must be 0 (no expiry) or ≥ ${least} (exchange.requestTimeoutMs ${requestTimeoutMs} ms, plus 1 s as expiries are whole seconds), got ${seconds}: a placement may take exchange.requestTimeoutMs to reach the exchange, and one that arrives expired is refused (400 expired)`,
  };
}
