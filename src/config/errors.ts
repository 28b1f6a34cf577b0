import { MmError } from "../core/errors.js";

/** One problem with the configuration: the setting (dotted path, file or env var) and what is wrong. */
export interface ConfigIssue {
  readonly field: string;
  readonly message: string;
}

/**
 * Every configuration problem found in one load, reported together. The message has one line per
 * bad field (`<field>: <what is wrong>`); it never carries a secret value.
 * @example
 * try { loadConfig({ files, env }) } catch (e) { if (e instanceof ConfigError) e.issues.forEach(...) }
 */
export class ConfigError extends MmError {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    const lines = formatIssues(issues);
    super("config_invalid", lines.join("\n"), { issues: issues.map((i) => ({ ...i })) });
    this.issues = Object.freeze(issues.map((i) => Object.freeze({ ...i })));
  }

  /** One `<field>: <message>` line per bad field, in the order the problems were found. */
  lines(): string[] {
    return formatIssues(this.issues);
  }
}

/** Groups issues by field (first-seen order) so each bad field gets exactly one line. */
export function formatIssues(issues: readonly ConfigIssue[]): string[] {
  const byField = new Map<string, string[]>();
  for (const issue of issues) {
    const messages = byField.get(issue.field);
    if (messages === undefined) byField.set(issue.field, [issue.message]);
    else if (!messages.includes(issue.message)) messages.push(issue.message);
  }
  return [...byField].map(([field, messages]) => `${field}: ${messages.join("; ")}`);
}
