import { AdminError, intIn, nonEmpty } from "./admin-error.js";
import type { FaultState } from "./state.js";

/** Statuses an injected request failure may carry. */
export type FailStatus = 429 | 500 | 502 | 503;

/**
 * Code sent when failNextRequests is given none: the spec's `rate_limited` for 429 and
 * `exchange_unavailable` for 503, its fallback `exchange_upstream_error` for 502, and
 * `internal_error` for 500 (the spec's catalogue has no generic 500 code).
 */
export const DEFAULT_FAIL_CODES: Readonly<Record<FailStatus, string>> = {
  429: "rate_limited",
  500: "internal_error",
  502: "exchange_upstream_error",
  503: "exchange_unavailable",
};

/** Upper bound of injected latency, ms (a test that wants "never" uses hang or silence instead). */
export const MAX_LATENCY_MS = 600_000;

/** Upper bound of injected counts. */
export const MAX_FAULT_COUNT = 1_000_000;

/** Most path templates one failNext filter may name (the mock serves fewer routes than this). */
export const MAX_FAIL_PATHS = 64;

/**
 * The validated `paths` filter of failNext: undefined (no filter: every request), or the distinct
 * path templates given. Each must be a route template as the spec writes it (`/api/orders/cancel`,
 * `/api/orders/{id}`), and one the mock serves when `served` is known: a typo or a concrete path
 * (`/api/orders/abc`) would match nothing, and a storm that never comes looks like a bot that
 * shrugged it off. /__admin is never failed, so naming it is refused too.
 * @example failPaths(["/api/orders/cancel", "/api/orders/cancel-all"]) // the same two
 */
export function failPaths(paths: unknown, served?: ReadonlySet<string>): string[] | undefined {
  if (paths === undefined) return undefined;
  const refuse = (message: string, value?: unknown) => {
    throw new AdminError(400, "invalid_argument", message, {
      field: "paths",
      ...(value === undefined ? {} : { value }),
    });
  };
  if (!Array.isArray(paths) || paths.length === 0 || paths.length > MAX_FAIL_PATHS) {
    return refuse(`paths must be a non-empty array of at most ${MAX_FAIL_PATHS} path templates`);
  }
  for (const p of paths as unknown[]) {
    if (typeof p !== "string" || !p.startsWith("/") || p.startsWith("/__admin")) {
      refuse('paths must be path templates such as "/api/orders/cancel" (never /__admin)', p);
    } else if (served !== undefined && !served.has(p)) {
      refuse(`paths: the mock serves no route ${p} (give the spec's template, e.g. /api/orders/{id})`, p);
    }
  }
  return [...new Set(paths as string[])];
}

/**
 * Whether a request to the route `pattern` is one the failNext fault answers (and so consumes its
 * count): every route without a filter, else only those whose template is listed.
 */
export function failNextMatches(fault: NonNullable<FaultState["failNext"]>, pattern: string): boolean {
  return fault.paths === undefined || fault.paths.includes(pattern);
}

/**
 * The validated failNext fault, or undefined for count 0 (cancels a pending one). `paths` (see
 * failPaths) limits it to requests of those route templates; `served` is the mock's own, when known.
 * @example failNextFault(3, 429, undefined, 7) // { count: 3, status: 429, code: "rate_limited", retryAfterSeconds: 7 }
 */
export function failNextFault(
  count: number,
  status: number,
  code: string | undefined,
  retryAfterSeconds: number,
  paths?: unknown,
  served?: ReadonlySet<string>,
): FaultState["failNext"] {
  const n = intIn("count", count, 0, MAX_FAULT_COUNT);
  if (typeof status !== "number" || !Object.hasOwn(DEFAULT_FAIL_CODES, status)) {
    throw new AdminError(400, "invalid_argument", "status must be 429, 500, 502 or 503", { field: "status" });
  }
  const s = status as FailStatus;
  const fault = {
    count: n,
    status: s,
    code: code === undefined ? DEFAULT_FAIL_CODES[s] : nonEmpty("code", code),
    retryAfterSeconds: intIn("retryAfterSeconds", retryAfterSeconds, 0, 86_400),
  };
  const only = failPaths(paths, served);
  if (n === 0) return undefined;
  return only === undefined ? fault : { ...fault, paths: only };
}
