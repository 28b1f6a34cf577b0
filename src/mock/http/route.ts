import type { IncomingHttpHeaders } from "node:http";
import type { Identity } from "../auth/authenticate.js";
import type { Scope } from "../scenario/types.js";

/** What a handler sees of a request. */
export interface RequestContext {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when none). */
  readonly body: unknown;
  /** Client IP after trusted X-Forwarded-For (what rate limits and allowlists see). */
  readonly ip: string;
  /** The socket's own peer address, never taken from headers (what /__admin trusts). */
  readonly peer: string;
  readonly requestId: string;
  readonly traceId: string;
  /** Present on authenticated routes, and on public routes when a valid key was sent. */
  readonly identity: Identity | undefined;
}

/** A handler's answer. Decimals must already be strings; the server serialises with JSON. */
export interface RouteResult {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One endpoint of the mock. */
export interface Route {
  readonly method: "GET" | "POST" | "DELETE";
  /** Path pattern with `{param}` segments, e.g. `/api/orders/{id}`. */
  readonly pattern: string;
  /**
   * `public`: key optional (validated when sent; one without `scopes` reads as no key); `key`: key
   * required, with `scopes`.
   */
  readonly auth: "public" | "key";
  /** Scopes required (all); on a public route, what a key needs to count as the caller. */
  readonly scopes: readonly Scope[];
  /** Write endpoints also need KYC clearance of the effective wallet. */
  readonly write?: boolean;
  /** Envelope for errors raised before the handler runs (auth, rate limit use their own). */
  readonly envelope?: "bare" | "placement";
  readonly handler: (ctx: RequestContext) => RouteResult | Promise<RouteResult>;
}

/** Matches `path` against a route pattern; returns the params or undefined. */
export function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const p = pattern.split("/");
  const s = path.split("/");
  if (p.length !== s.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    const seg = p[i] as string;
    const actual = s[i] as string;
    if (seg.startsWith("{") && seg.endsWith("}")) {
      if (actual === "") return undefined;
      // A broken percent-escape names no resource: no route (404 with the usual headers), never a throw.
      let value: string;
      try {
        value = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
      params[seg.slice(1, -1)] = value;
    } else if (seg !== actual) return undefined;
  }
  return params;
}

/**
 * Picks the route for a request: literal segments beat parameters (`/api/orders/open` before
 * `/api/orders/{id}`). Returns `method_not_allowed` when the path exists under another method.
 */
export function findRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | "not_found" | "method_not_allowed" {
  let best: { route: Route; params: Record<string, string>; literals: number } | undefined;
  let pathExists = false;
  for (const route of routes) {
    const params = matchPattern(route.pattern, path);
    if (params === undefined) continue;
    pathExists = true;
    if (route.method !== method) continue;
    const literals = route.pattern.split("/").filter((seg) => !seg.startsWith("{")).length;
    if (best === undefined || literals > best.literals) best = { route, params, literals };
  }
  if (best !== undefined) return { route: best.route, params: best.params };
  return pathExists ? "method_not_allowed" : "not_found";
}
