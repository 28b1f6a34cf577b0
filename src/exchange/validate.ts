import { parseDecimal } from "../core/decimal.js";
import { ValidationError } from "../core/errors.js";

/**
 * Boundary checks for response bodies. Each throws ValidationError `malformed_response` naming the field
 * path; the caller turns it into an ExchangeError carrying the endpoint and X-Request-Id. Only fields mm
 * relies on are checked: other fields pass through untouched, so an additive API change breaks nothing.
 */

export type Obj = Record<string, unknown>;

/** Throws the boundary error for `path`. */
export function fail(path: string, expected: string, value: unknown): never {
  throw new ValidationError("malformed_response", `${path}: expected ${expected}, got ${kind(value)}`, {
    field: path,
    expected,
    got: kind(value),
  });
}

/** A JSON object (not an array, not null). */
export function obj(value: unknown, path: string): Obj {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(path, "an object", value);
  return value as Obj;
}

/** A JSON array. */
export function arr(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) fail(path, "an array", value);
  return value;
}

/** A string field (may be empty). */
export function str(o: Obj, key: string, path: string): string {
  const v = o[key];
  if (typeof v !== "string") fail(`${path}.${key}`, "a string", v);
  return v;
}

/** A non-empty string. */
export function id(o: Obj, key: string, path: string): string {
  const v = str(o, key, path);
  if (v === "") fail(`${path}.${key}`, "a non-empty string", v);
  return v;
}

/** A string or null field; absent reads as null. */
export function strOrNull(o: Obj, key: string, path: string): string | null {
  const v = o[key];
  if (v === null || v === undefined) return null;
  if (typeof v !== "string") fail(`${path}.${key}`, "a string or null", v);
  return v;
}

/** Optional string: undefined when absent or null. */
export function optStr(o: Obj, key: string, path: string): string | undefined {
  const v = o[key];
  if (v === null || v === undefined) return undefined;
  if (typeof v !== "string") fail(`${path}.${key}`, "a string", v);
  return v;
}

/** A decimal string (the API never sends decimals as JSON numbers). */
/** A decimal string, or null/absent (e.g. a trade's fee before settlement) → null. */
export function decOrNull(o: Obj, key: string, path: string): string | null {
  return o[key] === null || o[key] === undefined ? null : dec(o, key, path);
}

export function dec(o: Obj, key: string, path: string): string {
  const v = o[key];
  try {
    parseDecimal(v, `${path}.${key}`);
  } catch {
    fail(`${path}.${key}`, "a decimal string", v);
  }
  return v as string;
}

/** An optional decimal-string field. */
export function optDec(o: Obj, key: string, path: string): string | undefined {
  return o[key] === undefined || o[key] === null ? undefined : dec(o, key, path);
}

/** A safe-integer field. */
export function int(o: Obj, key: string, path: string): number {
  const v = o[key];
  if (typeof v !== "number" || !Number.isSafeInteger(v)) fail(`${path}.${key}`, "an integer", v);
  return v;
}

/** A safe integer or null; absent reads as null. */
export function intOrNull(o: Obj, key: string, path: string): number | null {
  return o[key] === null || o[key] === undefined ? null : int(o, key, path);
}

/** A boolean field. */
export function bool(o: Obj, key: string, path: string): boolean {
  const v = o[key];
  if (typeof v !== "boolean") fail(`${path}.${key}`, "a boolean", v);
  return v;
}

/** One of `values`. */
export function oneOf<T extends string>(o: Obj, key: string, values: readonly T[], path: string): T {
  const v = o[key];
  if (typeof v !== "string" || !(values as readonly string[]).includes(v)) {
    fail(`${path}.${key}`, `one of ${values.join("|")}`, v);
  }
  return v as T;
}

/** An array of strings. */
export function strArray(o: Obj, key: string, path: string): string[] {
  const list = arr(o[key], `${path}.${key}`);
  list.forEach((v, i) => {
    if (typeof v !== "string") fail(`${path}.${key}[${i}]`, "a string", v);
  });
  return list as string[];
}

/**
 * A list sent either bare or wrapped in an object under `key` (`[...]` or `{key: [...]}`), each element
 * checked by `item`.
 * @example listOf(body, "orders", "GET /api/orders/open", normaliseOrder)
 */
export function listOf<T>(
  body: unknown,
  key: string,
  path: string,
  item: (v: unknown, path: string) => T,
): T[] {
  if (Array.isArray(body)) return items(body, path, item);
  if (typeof body !== "object" || body === null) fail(path, `an array or {${key}: [...]}`, body);
  return items((body as Obj)[key], `${path}.${key}`, item);
}

/** An array whose elements are each checked by `item`. */
export function items<T>(value: unknown, path: string, item: (v: unknown, path: string) => T): T[] {
  return arr(value, path).map((v, i) => item(v, `${path}[${i}]`));
}

function kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === "number" || typeof v === "boolean") return `${typeof v} ${String(v)}`;
  return typeof v;
}
