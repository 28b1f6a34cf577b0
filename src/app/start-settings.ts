import { ConfigError, type ConfigIssue } from "../config/errors.js";
import { cleartextKeyIssues } from "../config/key-transport.js";
import { requireApiKey, requirePrivateKey } from "../config/secrets.js";
import type { MmConfig } from "../config/types.js";

/** The issue of an empty `engine.markets`: the daemon would quote nothing. */
export const NO_MARKETS_ISSUE: ConfigIssue = {
  field: "engine.markets",
  message: 'nothing to quote: list market slugs, or ["*"] for every market',
};

/**
 * The settings the daemon needs beyond a valid configuration that are missing: the API key, the
 * wallet key and a non-empty `engine.markets`, one issue each (none when all are there); and an
 * exchange URL that would carry the key unencrypted beyond this machine (cleartextKeyIssues).
 * @example startSettingsIssues(config); // [] when mm run can start
 */
export function startSettingsIssues(config: MmConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const need of [requireApiKey, requirePrivateKey]) {
    try {
      need(config);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      issues.push(...e.issues);
    }
  }
  if (config.engine.markets.length === 0) issues.push(NO_MARKETS_ISSUE);
  issues.push(...cleartextKeyIssues(config));
  return issues;
}

/**
 * Checks, before anything is opened, the settings the daemon needs beyond a valid configuration
 * (startSettingsIssues). Every missing one is named in one ConfigError, so a first `mm run` lists
 * all it lacks instead of one per attempt.
 * @example requireStartSettings(config); // throws ConfigError (exit 2) naming each missing setting
 */
export function requireStartSettings(config: MmConfig): void {
  const issues = startSettingsIssues(config);
  if (issues.length > 0) throw new ConfigError(issues);
}
