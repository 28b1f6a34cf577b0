import { HttpProblem } from "./problem.js";

/**
 * Query-parameter rules shared by the mock's reads (spec, Conventions 5–7): enum parameters
 * refuse unknown values with 400 `bad_request`; `limit` below 1 is 400 `invalid_limit` and above
 * the maximum is clamped; every other parameter the route does not read is ignored, `offset` and
 * `page` included.
 */

/**
 * The page size: `def` when absent, clamped to `max`, 400 `invalid_limit` below 1 (or when not an
 * integer at all, which the spec does not address).
 * @example limitParam(rc.query, { def: 100, max: 200 }) // "?limit=500" → 200
 */
export function limitParam(q: URLSearchParams, opts: { def: number; max: number }): number {
  const raw = q.get("limit");
  if (raw === null) return opts.def;
  const n = /^-?\d{1,12}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new HttpProblem(400, "invalid_limit", "limit must be an integer of at least 1", {
      limit: raw.slice(0, 40),
    });
  }
  return Math.min(n, opts.max);
}

/**
 * An enum parameter: undefined when absent, 400 `bad_request` for a value outside `allowed`.
 * @example enumParam(rc.query, "status", ORDER_STATUSES) // "?status=DONE" → 400
 */
export function enumParam<T extends string>(
  q: URLSearchParams,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new HttpProblem(400, "bad_request", `${name} must be one of ${allowed.join(", ")}`, {
      parameter: name,
      value: raw.slice(0, 40),
      allowed: [...allowed],
    });
  }
  return raw as T;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO-8601 date-time parameter as epoch ms: undefined when absent, 400 `bad_request` when it
 * does not parse.
 * @example timeParam(rc.query, "from") // "?from=2026-05-01T00:00:00Z" → 1777593600000
 */
export function timeParam(q: URLSearchParams, name: string): number | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  const ms = DATE_TIME.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new HttpProblem(400, "bad_request", `${name} must be an ISO-8601 date-time`, {
      parameter: name,
      value: raw.slice(0, 40),
    });
  }
  return ms;
}

/**
 * An integer parameter within [min, ∞), clamped to `max`: 400 `bad_request` when malformed.
 * @example intParam(rc.query, "depth", { def: 100, min: 1, max: 100 })
 */
export function intParam(
  q: URLSearchParams,
  name: string,
  opts: { def: number; min: number; max: number },
): number {
  const raw = q.get(name);
  if (raw === null) return opts.def;
  const n = /^-?\d{1,12}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < opts.min) {
    throw new HttpProblem(400, "bad_request", `${name} must be an integer of at least ${opts.min}`, {
      parameter: name,
      value: raw.slice(0, 40),
    });
  }
  return Math.min(n, opts.max);
}

/** An optional free-text parameter (ids, slugs): undefined when absent or empty. */
export function textParam(q: URLSearchParams, name: string): string | undefined {
  const raw = q.get(name);
  return raw === null || raw === "" ? undefined : raw;
}
