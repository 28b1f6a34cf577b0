import { isIP } from "node:net";
import convict from "convict";
import { isAddress } from "viem";
import { parseDecimal } from "../core/decimal.js";
import { assertTick } from "../core/ticks.js";
import { toWei } from "../core/wei.js";
import { requoteIntervalProblem } from "../engine/requote-timer.js";
import { ENGINE_FORMATS } from "./formats-engine.js";
import { showValue } from "./secret-shapes.js";

/**
 * The JSON type a setting must have inside a config file (env values are strings, coerced):
 * `object` is a map of strings (tick sizes…), `json` any JSON object (strategy, risk), `array` a list.
 */
export type JsonType = "string" | "number" | "object" | "json" | "array";

/** Range bounds a numeric setting declares beside its format. */
export interface Bounds {
  readonly min?: number;
  readonly max?: number;
  /** When true, `min` itself is refused (e.g. a ratio in (0, 1]). */
  readonly exclusiveMin?: boolean;
  /** When true, `max` itself is refused (e.g. a ratio in (0, 1)). */
  readonly exclusiveMax?: boolean;
  /** 0 is accepted besides [min, max]: the setting's documented "off". */
  readonly zeroIsOff?: boolean;
  /** Why the range is what it is; said after a value outside it (the operator chose that value). */
  readonly rangeNote?: string;
}

export interface FormatDef {
  /** How the format reads in docs ("address", "integer"…). */
  readonly describe: string;
  readonly jsonType: JsonType;
  /** Throws an Error whose message says what is wrong; convict prefixes the setting path. */
  validate(value: unknown, spec: Bounds): void;
  /** Turns an env string into the setting's type; leaves it alone when it does not parse, so validate reports it. */
  coerce?(raw: string): unknown;
}

const fail = (message: string): never => {
  throw new Error(message);
};

function url(protocols: readonly string[]): FormatDef {
  return {
    describe: `${protocols.map((p) => p.slice(0, -1)).join("/")} URL`,
    jsonType: "string",
    validate(value) {
      if (typeof value !== "string" || value === "") fail(`must be a URL, got ${showValue(value)}`);
      const text = value as string;
      let parsed: URL;
      try {
        parsed = new URL(text);
      } catch {
        return fail(
          `must be an absolute URL, got ${text.includes("@") ? "an unparsable URL" : showValue(text)}`,
        );
      }
      if (parsed.username !== "" || parsed.password !== "") fail("must not contain credentials");
      if (!protocols.includes(parsed.protocol)) {
        fail(`must start with ${protocols.map((p) => `${p}//`).join(" or ")}, got ${showValue(text)}`);
      }
      if (parsed.search !== "" || parsed.hash !== "") {
        fail("must not contain a query string or fragment (the API key travels in a header, never in a URL)");
      }
    },
  };
}

/**
 * An RFC 1123 host name: dot-separated labels of letters, digits and inner dashes, 253 characters
 * at most. The last label must not be all digits, so a mistyped IPv4 address (300.1.1.1) is
 * refused here rather than looked up.
 */
const HOST_NAME =
  /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*(?=[A-Za-z0-9-]*[A-Za-z-])[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

function checkHost(value: unknown): void {
  if (typeof value !== "string" || (isIP(value) === 0 && !HOST_NAME.test(value))) {
    fail(
      `must be an IP address or a host name, without a port or brackets (127.0.0.1, ::1, 0.0.0.0, localhost), got ${showValue(value)}`,
    );
  }
}

const hasControlChar = (s: string): boolean => [...s].some((c) => c.charCodeAt(0) < 0x20);

/** An env string of digits as a number; anything else left for the validator to report. */
const intCoerce = (raw: string): unknown => (/^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw);

function checkRange(n: number, spec: Bounds): void {
  const { min, max, exclusiveMin, exclusiveMax, zeroIsOff, rangeNote } = spec;
  if (zeroIsOff === true && n === 0) return;
  const why = rangeNote === undefined ? "" : `: ${rangeNote}`;
  if (min !== undefined && (exclusiveMin === true ? n <= min : n < min)) {
    const floor = `${exclusiveMin === true ? ">" : "≥"} ${min}`;
    fail(`must be ${zeroIsOff === true ? `0 or ${floor}` : floor}, got ${n}${why}`);
  }
  if (max !== undefined && (exclusiveMax === true ? n >= max : n > max)) {
    fail(`must be ${exclusiveMax === true ? "<" : "≤"} ${max}, got ${n}${why}`);
  }
}

function checkAddress(value: unknown): void {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    fail(`must be an address (0x + 40 hex characters), got ${showValue(value)}`);
  }
  // Mixed case means an EIP-55 checksum: a wrong one is a typo we can catch here.
  if (!isAddress(value as string, { strict: true }))
    fail(`has an invalid EIP-55 checksum: ${value as string}`);
  // Well-formed, but an EIP-712 domain or a maker there verifies against nothing: every order refused.
  if (/^0x0{40}$/.test(value as string))
    fail(`must not be the zero address (${value as string}): no contract or wallet lives there`);
}

function checkTick(value: unknown): void {
  try {
    assertTick(parseDecimal(value, "tick"));
  } catch {
    fail(`must be a decimal string, a multiple of 0.000001 in (0, 0.5], got ${showValue(value)}`);
  }
}

function checkSize(value: unknown): void {
  try {
    const size = parseDecimal(value, "size");
    if (size.lte(0)) throw new Error("not positive");
    toWei(size, "size");
  } catch {
    fail(`must be a positive decimal string with at most 6 decimals, got ${showValue(value)}`);
  }
}

function decimalMap(what: string, check: (v: unknown) => void): FormatDef {
  return {
    describe: `JSON object: market slug → ${what}`,
    jsonType: "object",
    validate(value) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        fail(`must be a JSON object mapping market slugs to ${what}s, got ${showValue(value)}`);
      }
      for (const [slug, v] of Object.entries(value as Record<string, unknown>)) {
        if (slug === "") fail("has an empty market slug");
        try {
          check(v);
        } catch (e) {
          fail(`${JSON.stringify(slug)} ${(e as Error).message}`);
        }
      }
    },
    coerce(raw) {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return raw;
      }
    },
  };
}

/** Every custom format the schema uses, by name. Registered with convict by {@link registerFormats}. */
export const FORMATS = {
  "mm-http-url": url(["http:", "https:"]),
  "mm-ws-url": url(["ws:", "wss:"]),
  "mm-address": { describe: "address", jsonType: "string", validate: checkAddress },
  "mm-optional-address": {
    describe: "address or empty",
    jsonType: "string",
    validate: (value) => (value === "" ? undefined : checkAddress(value)),
  },
  "mm-int": {
    describe: "integer",
    jsonType: "number",
    validate(value, spec) {
      if (typeof value !== "number" || !Number.isSafeInteger(value)) {
        fail(`must be an integer, got ${showValue(value)}`);
      }
      checkRange(value as number, spec);
    },
    coerce: intCoerce,
  },
  "mm-requote-interval": {
    describe: "integer",
    jsonType: "number",
    validate(value) {
      // Not echoed by the shared rule: an env string could hold a secret (showValue hides it).
      if (typeof value !== "number") fail(`must be an integer, got ${showValue(value)}`);
      // The engine's own rule, which a backtest's engine options are checked against too.
      const problem = requoteIntervalProblem(value);
      if (problem !== undefined) fail(problem);
    },
    coerce: intCoerce,
  },
  "mm-number": {
    describe: "number",
    jsonType: "number",
    validate(value, spec) {
      if (typeof value !== "number" || !Number.isFinite(value))
        fail(`must be a number, got ${showValue(value)}`);
      checkRange(value as number, spec);
    },
    coerce: (raw) => (/^\s*-?\d+(?:\.\d+)?\s*$/.test(raw) ? Number(raw) : raw),
  },
  "mm-text": {
    describe: "text",
    jsonType: "string",
    validate(value) {
      if (typeof value !== "string" || value.trim() === "" || value.length > 200 || hasControlChar(value)) {
        fail(`must be non-empty text of at most 200 characters, got ${showValue(value)}`);
      }
    },
  },
  "mm-host": { describe: "IP address or host name", jsonType: "string", validate: checkHost },
  "mm-path": {
    describe: "file path or empty",
    jsonType: "string",
    validate(value) {
      if (typeof value !== "string" || value.includes("\u0000"))
        fail(`must be a file path, got ${showValue(value)}`);
    },
  },
  "mm-tick": { describe: "decimal string", jsonType: "string", validate: checkTick },
  "mm-size": { describe: "decimal string", jsonType: "string", validate: checkSize },
  "mm-tick-map": decimalMap("tick size", checkTick),
  "mm-size-map": decimalMap("minimum order size", checkSize),
  // Secret values are checked (without echoing them) when secrets are resolved.
  "mm-secret": { describe: "secret", jsonType: "string", validate: () => undefined },
  ...ENGINE_FORMATS,
} satisfies Record<string, FormatDef>;

export type FormatName = keyof typeof FORMATS;

let registered = false;

/** Registers {@link FORMATS} with convict (once per process; convict's format table is global). */
export function registerFormats(): void {
  if (registered) return;
  for (const [name, def] of Object.entries(FORMATS) as [string, FormatDef][]) {
    convict.addFormat({
      name,
      validate: (value: unknown, spec: convict.SchemaObj) => def.validate(value, spec as Bounds),
      ...(def.coerce === undefined ? {} : { coerce: def.coerce }),
    });
  }
  registered = true;
}

/**
 * Validates a value against a setting's format: a custom format name or a list of allowed values.
 * Throws an Error describing the problem.
 */
export function checkFormat(format: FormatName | readonly string[], value: unknown, spec: Bounds): void {
  if (typeof format === "string") {
    FORMATS[format].validate(value, spec);
    return;
  }
  if (typeof value !== "string" || !format.includes(value)) {
    fail(`must be one of ${format.join(", ")}, got ${showValue(value)}`);
  }
}

/** The JSON type a file must use for a setting with this format. */
export function jsonTypeOf(format: FormatName | readonly string[]): JsonType {
  return typeof format === "string" ? FORMATS[format].jsonType : "string";
}

/** A short description of a format for docs. */
export function describeFormat(format: FormatName | readonly string[]): string {
  return typeof format === "string" ? FORMATS[format].describe : format.join(" | ");
}
