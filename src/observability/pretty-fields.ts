/**
 * The fields of a log line as a terminal shows them: `key=value` pairs after the message, so a
 * line like `risk: market_not_open` says which market, token and order it is about. It works on
 * the line pino wrote, after path redaction and the secret scrub (pino-pretty parses that text),
 * so nothing here can bring a secret back. It runs on every line: one pass over the keys, no
 * allocation beyond the output.
 */

/** Identity and decision fields, shown first (in this order) when a line has them. */
const FIRST: readonly string[] = [
  "marketId",
  "slug",
  "outcome",
  "tokenId",
  "side",
  "price",
  "size",
  "priceMicro",
  "sizeMicro",
  "quoteLevel",
  "clientOrderId",
  "orderId",
  "tradeId",
  "code",
  "reason",
  "status",
  "action",
  "scope",
  "err",
];
const FIRST_SET: ReadonlySet<string> = new Set(FIRST);

/** pino's own keys (shown by pino-pretty already) and `cmd`, the same on every line of a process. */
const HIDDEN: ReadonlySet<string> = new Set(["level", "time", "msg", "pid", "hostname", "cmd"]);

/** Decimal ids this long (token ids: 76-78 digits) are shortened to their ends. */
const LONG_DECIMAL = 20;
const ID_END = 6;
/** Longer strings and objects are cut: a line stays a line. */
const MAX_VALUE = 160;
/** Strings this long that the message already contains (a reason, a path, a URL) are not repeated. */
const MIN_ELIDED = 6;

// Characters that can rewrite a terminal (escape sequences, C1 controls); tab and newline stay.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what gets removed
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
// A value printed bare must not read as two pairs or hide a quote: else it is JSON-quoted.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters force quoting
const BARE = /^[^\s"=\\\u0000-\u001F\u007F-\u009F]+$/;
const DECIMAL = /^\d+$/;
const WORD = /[A-Za-z0-9_]/;
const INTEGER = /^-?\d+$/;

/**
 * The fields of a parsed log line as ` key=value` pairs, identity fields first, or "" when it has
 * none. Long decimal ids (token ids) show their first and last 6 digits (`342564…529327`); UUIDs,
 * clientOrderIds and addresses stay whole (a shortened UUID of the mock's markets would read the
 * same for all of them). `*Micro` integers show as decimals without the suffix (`priceMicro:
 * 560000` → `price=0.56`), `*Pico` likewise; an error shows as `Type(code): message`; a value
 * the message already says (a reason, a path, "position -10") is not repeated. Token ids are
 * hashes, so 12 of their digits tell a session's tokens apart.
 * @example prettyFields({ msg: "risk: market_not_open", marketId: "m-1", scope: "token" }) // " marketId=m-1 scope=token"
 */
export function prettyFields(log: Record<string, unknown>): string {
  const msg = typeof log.msg === "string" ? log.msg : "";
  let out = "";
  for (const key of FIRST) {
    if (key in log) out += pair(key, log[key], msg, log);
  }
  for (const key in log) {
    if (!HIDDEN.has(key) && !FIRST_SET.has(key)) out += pair(key, log[key], msg, log);
  }
  return out;
}

/** A safe one-line message: control characters that could rewrite the terminal removed. */
export function safeText(s: string): string {
  return s.replace(UNSAFE, "");
}

/** The stack of a line's error (error and fatal lines show it under the line), if any. */
export function errorStack(log: Record<string, unknown>): string | undefined {
  const err = log.err;
  if (typeof err !== "object" || err === null) return undefined;
  const stack = (err as { stack?: unknown }).stack;
  return typeof stack === "string" ? safeText(stack) : undefined;
}

function pair(key: string, value: unknown, msg: string, log: Record<string, unknown>): string {
  if (value === undefined) return "";
  if (typeof value === "string") {
    if (value.length >= MIN_ELIDED && saysWhole(msg, value)) return "";
    return scaled(key, value, msg, log) ?? ` ${key}=${key === "err" ? bare(value) : stringValue(value)}`;
  }
  if (typeof value === "number") return scaled(key, String(value), msg, log) ?? ` ${key}=${value}`;
  if (typeof value === "boolean" || value === null) return ` ${key}=${String(value)}`;
  if (Array.isArray(value)) return ` ${key}=${list(value)}`;
  if (typeof value === "object" && isErrorLike(value)) return ` ${key}=${bare(errorText(value))}`;
  return ` ${key}=${cutAtComma(safeJson(value))}`;
}

/**
 * Whether `msg` holds `value` as a whole token (not inside a longer word or id: "market" is not
 * said by "market_not_open", nor "…-s0-1" by "…-s0-17").
 */
function saysWhole(msg: string, value: string): boolean {
  for (let at = msg.indexOf(value); at >= 0; at = msg.indexOf(value, at + 1)) {
    const before = msg[at - 1];
    const after = msg[at + value.length];
    if ((before === undefined || !WORD.test(before)) && (after === undefined || !WORD.test(after)))
      return true;
  }
  return false;
}

function stringValue(value: string): string {
  if (value.length >= LONG_DECIMAL && DECIMAL.test(value)) {
    return `${value.slice(0, ID_END)}…${value.slice(-ID_END)}`;
  }
  return bare(value);
}

/**
 * `priceMicro: "560000"` as ` price=0.56` (exact: digits shifted, never a float), when the key
 * without its suffix is not a field of the line too; "" when the message says it already
 * ("position -10" for positionMicro -10000000); undefined when the value is not a scaled integer.
 */
function scaled(key: string, digits: string, msg: string, log: Record<string, unknown>): string | undefined {
  const places = key.endsWith("Micro") ? 6 : key.endsWith("Pico") ? 12 : 0;
  if (places === 0 || !INTEGER.test(digits)) return undefined;
  const name = key.slice(0, key.length - (places === 6 ? 5 : 4));
  if (name === "" || name in log) return undefined;
  const text = decimal(digits, places);
  return saysAlready(msg, name, text) ? "" : ` ${name}=${text}`;
}

/** Whether `msg` has `name`, a space or a sign, then exactly `value` ("PnL +0.15" for pnl 0.15). */
function saysAlready(msg: string, name: string, value: string): boolean {
  const at = msg.toLowerCase().indexOf(name.toLowerCase());
  if (at < 0) return false;
  let i = at + name.length;
  while (msg[i] === " " || msg[i] === "+") i++;
  if (!msg.startsWith(value, i)) return false;
  const next = msg[i + value.length];
  return next === undefined || !/[\d.]/.test(next);
}

function decimal(digits: string, places: number): string {
  const negative = digits.startsWith("-");
  const abs = (negative ? digits.slice(1) : digits).padStart(places + 1, "0");
  const whole = abs.slice(0, abs.length - places).replace(/^0+(?=\d)/, "");
  const frac = abs.slice(abs.length - places).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${frac === "" ? "" : `.${frac}`}`;
}

function bare(s: string): string {
  const text = cut(s);
  return BARE.test(text) ? text : JSON.stringify(text);
}

function cut(s: string): string {
  return s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE)}…` : s;
}

/** A list, each item as a value; past MAX_VALUE the rest is counted, never cut mid-item. */
function list(items: readonly unknown[]): string {
  let out = "";
  for (const [i, item] of items.entries()) {
    const text =
      typeof item === "string"
        ? listed(stringValue(item))
        : typeof item === "object" && item !== null
          ? safeJson(item)
          : String(item);
    if (out.length + text.length > MAX_VALUE && i > 0) return `[${out},+${items.length - i} more]`;
    out += i === 0 ? text : `,${text}`;
  }
  return `[${out}]`;
}

/** A list item holding a comma or a bracket is quoted: else it would read as two items. */
function listed(text: string): string {
  return text.startsWith('"') || !/[,[\]]/.test(text) ? text : JSON.stringify(text);
}

/** JSON cut after its last whole member that fits, so no id inside is cut. */
function cutAtComma(json: string): string {
  if (json.length <= MAX_VALUE) return json;
  const comma = json.lastIndexOf(",", MAX_VALUE);
  return comma > 0 ? `${json.slice(0, comma)},…` : cut(json);
}

function isErrorLike(v: object): v is { message: string } {
  return typeof (v as { message?: unknown }).message === "string";
}

function errorText(err: { message: string }): string {
  const { type, code } = err as { type?: unknown; code?: unknown };
  const name = typeof type === "string" ? type : "Error";
  const tag = typeof code === "string" || typeof code === "number" ? `(${code})` : "";
  return `${name}${tag}: ${err.message}`;
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, shortIds) ?? String(v);
  } catch {
    return String(v);
  }
}

function shortIds(_key: string, v: unknown): unknown {
  return typeof v === "string" && v.length >= LONG_DECIMAL && DECIMAL.test(v) ? stringValue(v) : v;
}
