import { type DestinationStream, type Logger, type LoggerOptions, pino } from "pino";
import { humanLogStream } from "./pretty-line.js";

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
  const scrubLine = secretScrubber(secrets);
  const options: LoggerOptions = {
    level: config.level,
    base: config.base ?? {},
    redact: { paths: [...REDACT_PATHS], censor: CENSOR },
    timestamp: pino.stdTimeFunctions.isoTime,
    hooks: secrets.length === 0 ? {} : { streamWrite: scrubLine },
  };
  const wantPretty = config.pretty ?? process.stdout.isTTY === true;
  const destination =
    config.destination ??
    (wantPretty ? humanLogStream(undefined, { sync: true }) : pino.destination({ sync: false }));
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

/**
 * Builds a function that replaces every occurrence of the given secrets in a line. Matching is
 * case-insensitive: a hex private key may be printed in either case, and over-redacting a case
 * variant of a base64url secret costs nothing. A secret cut short by a quote's `…` (an exchange
 * body echoing X-Api-Key, quoted to 120 characters) is replaced too: cut, it is no longer the whole
 * secret, and its first 42 of 43 characters would leave 6 bits to guess.
 */
export function secretScrubber(secrets: readonly string[]): (line: string) => string {
  if (secrets.length === 0) return (line) => line;
  const lower = secrets.map((s) => s.toLowerCase());
  let pattern: RegExp;
  try {
    pattern = new RegExp(secrets.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "gi");
    pattern.exec(""); // V8 compiles on first use: an oversized pattern throws here, not on a log line
  } catch {
    // Too large for the regex engine (a "secret" of tens of kB, never a real key): exact matches.
    return (line) =>
      scrubCut(
        secrets.reduce((out, s) => out.split(s).join(CENSOR), line),
        lower,
      );
  }
  return (line) => scrubCut(line.replace(pattern, CENSOR), lower);
}

/** The shortest cut secret replaced: as expandSecrets' shortest secret. Shorter, it reveals little. */
const MIN_CUT = 8;
const ELLIPSIS = "…";

/**
 * `line` with every secret's leading part that ends at a `…` (a value cut short where it was quoted)
 * replaced, from the longest such part of any secret. Lines without an ellipsis pass untouched.
 * `lower`: the secrets in lowercase (matching ignores case, as the whole secrets' does).
 */
function scrubCut(line: string, lower: readonly string[]): string {
  if (!line.includes(ELLIPSIS)) return line;
  let out = "";
  let from = 0;
  for (let at = line.indexOf(ELLIPSIS); at !== -1; at = line.indexOf(ELLIPSIS, at + 1)) {
    const cut = longestCutSecret(line, from, at, lower);
    if (cut === 0) continue;
    out += line.slice(from, at - cut) + CENSOR;
    from = at;
  }
  return out + line.slice(from);
}

/** How many characters before `at` (not before `from`) are a leading part of a secret, or 0. */
function longestCutSecret(line: string, from: number, at: number, lower: readonly string[]): number {
  if (at - from < MIN_CUT) return 0;
  const tail = line.slice(at - MIN_CUT, at).toLowerCase();
  let best = 0;
  for (const s of lower) {
    if (!s.includes(tail)) continue; // most lines: no secret ends this way
    for (let n = Math.min(s.length, at - from); n >= Math.max(MIN_CUT, best + 1); n--) {
      if (line.slice(at - n, at).toLowerCase() === s.slice(0, n)) {
        best = n;
        break;
      }
    }
  }
  return best;
}

/**
 * `write` with every one of `secrets` (expanded: expandSecrets) replaced: for what a command writes
 * to stderr outside the logger, e.g. an exchange answer quoted in a start failure. main() scrubs only
 * the secrets of the environment; a key read from a file is known once the config is loaded.
 * @example const stderr = scrubbingWriter(io.stderr, loggerOptions(config).secrets);
 */
export function scrubbingWriter(
  write: (text: string) => void,
  secrets: readonly string[],
): (text: string) => void {
  const scrubLine = secretScrubber(expandSecrets(secrets));
  return (text) => write(scrubLine(text));
}

/** One-off form of {@link secretScrubber}. */
export function scrub(line: string, secrets: readonly string[]): string {
  return secretScrubber(secrets)(line);
}
