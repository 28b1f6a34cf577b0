import { type DestinationStream, type Logger, type LoggerOptions, pino } from "pino";
import pretty from "pino-pretty";

export type { Logger } from "pino";

/** Field paths that hold secrets wherever they appear in a log object. */
export const REDACT_PATHS: readonly string[] = [
  "apiKey",
  "*.apiKey",
  "privateKey",
  "*.privateKey",
  "secret",
  "*.secret",
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
  '*.*.headers["x-api-key"]',
  'headers["X-Api-Key"]',
  '*.headers["X-Api-Key"]',
  '*.*.headers["X-Api-Key"]',
];

const CENSOR = "[REDACTED]";

export interface LoggerConfig {
  /** pino level: fatal, error, warn, info, debug, trace, silent. */
  level: string;
  /** Human-readable output; defaults to whether stdout is a TTY. */
  pretty?: boolean;
  /**
   * Secret values (the API key, its secret part, the wallet private key) to scrub from every line
   * written, whatever field or message they hide in. Empty strings are ignored.
   */
  secrets?: readonly string[];
  /** Where lines go; stdout by default. Tests pass a collecting stream. */
  destination?: DestinationStream;
  /** Static fields on every line (e.g. mode, wallet). */
  base?: Record<string, unknown>;
}

/**
 * Builds the process logger. Two layers keep secrets out: pino's path redaction for fields known
 * to hold secrets, and a last pass over each serialised line that replaces any registered secret
 * value, so a key embedded in a URL, an error message or an unexpected field is caught too.
 * @example const log = createLogger({ level: "info", secrets: [apiKey, privateKey] });
 */
export function createLogger(config: LoggerConfig): Logger {
  const secrets = expandSecrets(config.secrets ?? []);
  const options: LoggerOptions = {
    level: config.level,
    base: config.base ?? {},
    redact: { paths: [...REDACT_PATHS], censor: CENSOR },
    timestamp: pino.stdTimeFunctions.isoTime,
    hooks: secrets.length === 0 ? {} : { streamWrite: (line: string) => scrub(line, secrets) },
  };
  const wantPretty = config.pretty ?? process.stdout.isTTY === true;
  const destination =
    config.destination ??
    (wantPretty ? pretty({ colorize: true, sync: true }) : pino.destination({ sync: false }));
  return pino(options, destination);
}

/**
 * The forms a secret can take in output: itself, without a 0x prefix, and JSON-escaped. Secrets
 * shorter than 8 characters are refused: scrubbing them would mangle ordinary text.
 */
export function expandSecrets(secrets: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    if (s.length < 8) continue;
    out.add(s);
    if (s.startsWith("0x")) out.add(s.slice(2));
    const escaped = JSON.stringify(s).slice(1, -1);
    if (escaped !== s) out.add(escaped);
  }
  // Longest first, so a secret that contains another is replaced whole.
  return [...out].sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of each secret (case-insensitive for hex keys) in `line`. */
export function scrub(line: string, secrets: readonly string[]): string {
  let result = line;
  for (const s of secrets) {
    if (result.includes(s)) result = result.split(s).join(CENSOR);
    else if (/^[0-9a-fA-Fx]+$/.test(s)) {
      const lower = result.toLowerCase();
      const needle = s.toLowerCase();
      let i = lower.indexOf(needle);
      while (i >= 0) {
        result = result.slice(0, i) + CENSOR + result.slice(i + s.length);
        i = result.toLowerCase().indexOf(needle, i + CENSOR.length);
      }
    }
  }
  return result;
}
