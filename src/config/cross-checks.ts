import type { Address } from "../core/types.js";
import type { ConfigIssue } from "./errors.js";
import type { RawConfig } from "./schema.js";

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
  if (
    ok("signing.maker", "signing.vaultAddress") &&
    signing.maker === "vault" &&
    signing.vaultAddress === ""
  ) {
    issues.push({ field: "signing.vaultAddress", message: "required when signing.maker is vault" });
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
  return issues;
}
