import { weiToString } from "../core/wei.js";
import { parseRiskConfig } from "../risk/config.js";
import type { ConfigIssue } from "./errors.js";
import { strategySizeFindings } from "./strategy-sizes.js";
import type { MmConfig } from "./types.js";

/**
 * Settings of a loaded configuration that are valid but partly without effect: worth a line on
 * stderr, not a refusal, because a valid setup writes them.
 * - A per-market inventory cap above the wallet's total cap of the same kind: a market's gross is
 *   never above the wallet's, so the total binds first. Safe (the tighter cap holds), and written
 *   by a valid setup: a wallet-wide cap under the per-market default (hard 2000) set alone, in a
 *   layered file or MM_RISK (which replaces the tree and leaves perMarket at its defaults).
 * - Strategy sizes below a named market's minimum while others fit (strategy-sizes.ts).
 * The CLI prints each as `config warning: <field>: <message>`.
 * @example configWarnings(loadConfig({ env: { MM_RISK: '{"inventory":{"total":{"hard":"1000"}}}' } }))
 */
export function configWarnings(config: MmConfig): ConfigIssue[] {
  const { perMarket, total } = parseRiskConfig(config.risk).inventory;
  const warnings: ConfigIssue[] = [];
  for (const kind of ["soft", "hard"] as const) {
    const one = kind === "soft" ? perMarket.softMicro : perMarket.hardMicro;
    const all = kind === "soft" ? total.softMicro : total.hardMicro;
    if (one <= all) continue;
    warnings.push({
      field: `risk.inventory.perMarket.${kind}`,
      message: `${weiToString(one)} is above risk.inventory.total.${kind} ${weiToString(all)}: one market's gross is never above the wallet's, so the total cap binds first and this one never applies`,
    });
  }
  warnings.push(...strategySizeFindings(config).warnings);
  return warnings;
}
