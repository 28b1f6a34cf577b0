import type { IncomingMessage, ServerResponse } from "node:http";
import { type AuthFailure, authenticate, checkWriteClearance, type Identity } from "../auth/authenticate.js";
import type { MockContext } from "../context.js";
import { failNextMatches } from "../faults/request-faults.js";
import { API_VERSION, clientIp, EXPOSED_HEADERS, headerValue, peerIp, readBody } from "./conventions.js";
import { HttpProblem, problemBody } from "./problem.js";
import { findRoute, type RequestContext, type Route, type RouteResult } from "./route.js";

/** Returned by a handler that must never answer (fault injection: an ambiguous placement). */
export const NO_ANSWER: RouteResult = Object.freeze({ status: 0, body: undefined });

/**
 * Builds the node:http request listener of the mock: the spec's conventions on every response
 * (X-API-Version, X-Server-Time, X-Request-Id, rate-limit headers, CORS), then, in order: injected
 * faults, authentication, rate limits, write clearance, body parsing, the route's handler. Errors
 * thrown as HttpProblem are rendered in their envelope; anything else is a 500 and is logged.
 */
export function createRequestListener(
  ctx: MockContext,
  routes: readonly Route[],
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handle(ctx, routes, req, res).catch((err: unknown) => {
      ctx.log.error({ err }, "mock: request handling failed");
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
}

async function handle(ctx: MockContext, routes: readonly Route[], req: IncomingMessage, res: ServerResponse) {
  const requestId = ctx.nextRequestId();
  const traceId = ctx.nextRequestId();
  const headers: Record<string, string> = {
    "X-API-Version": API_VERSION,
    "X-Request-Id": requestId,
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": EXPOSED_HEADERS,
  };
  const isAdminPath = (req.url ?? "").startsWith("/__admin/");
  const send = async (result: RouteResult) => {
    if (result === NO_ANSWER) return;
    // The admin channel is never slowed by the faults it injects.
    if (ctx.faults.httpLatencyMs > 0 && !isAdminPath) await delay(ctx, ctx.faults.httpLatencyMs);
    const all = { ...headers, ...result.headers, "X-Server-Time": String(ctx.clock.now()) };
    if (result.body === undefined) {
      res.writeHead(result.status, all).end();
      return;
    }
    const text = JSON.stringify(result.body);
    res.writeHead(result.status, { ...all, "Content-Type": "application/json" }).end(text);
  };
  const sendProblem = (p: HttpProblem) =>
    send({
      status: p.status,
      body: problemBody(p, traceId),
      headers: p.envelope === "nested" ? { "X-Trace-Id": traceId } : {},
    });

  const url = new URL(req.url ?? "/", "http://mock.invalid");
  const method = (req.method ?? "GET").toUpperCase();
  if (method === "OPTIONS") {
    await send({
      status: 204,
      body: undefined,
      headers: {
        "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
        "Access-Control-Allow-Headers": "Content-Type, X-Api-Key, X-User-Wallet",
      },
    });
    return;
  }
  const found = findRoute(routes, method, url.pathname);
  if (found === "not_found")
    return sendProblem(new HttpProblem(404, "not_found", `no route ${url.pathname}`));
  if (found === "method_not_allowed") {
    return sendProblem(
      new HttpProblem(405, "method_not_allowed", `${method} not allowed on ${url.pathname}`),
    );
  }
  const { route, params } = found;
  const isAdmin = url.pathname.startsWith("/__admin/");

  try {
    const fail = ctx.faults.failNext;
    // A path-filtered fault lets every other route through without consuming its count.
    if (!isAdmin && fail !== undefined && fail.count > 0 && failNextMatches(fail, route.pattern)) {
      fail.count--;
      if (fail.count === 0) ctx.faults.failNext = undefined;
      if (fail.status === 429) headers["Retry-After"] = String(fail.retryAfterSeconds);
      throw new HttpProblem(fail.status, fail.code, "injected fault", {}, "nested");
    }

    const ip = clientIp(req);
    const apiKey = headerValue(req.headers["x-api-key"]);
    let identity: Identity | undefined;
    let authFailure: AuthFailure | undefined;
    if (route.auth === "key" || apiKey !== undefined) {
      // A public endpoint works without a key, so a key lacking its scope is no refusal: the key is
      // still checked (a bad key is refused), then the request is served as anonymous (publicReader).
      const auth = authenticate(ctx.directory, ctx.clock, {
        apiKey,
        userWallet: headerValue(req.headers["x-user-wallet"]),
        ip,
        scopes: route.auth === "key" ? route.scopes : [],
        needsWallet: route.auth === "key",
      });
      if (!auth.ok) authFailure = auth.failure;
      else identity = route.auth === "key" ? auth.identity : publicReader(route, auth.identity);
    }

    if (!isAdmin) {
      const verdict = ctx.limiter.check(method, url.pathname, {
        ip,
        wallet: route.auth === "key" ? identity?.wallet.address : undefined,
        rateLimitPerMin: identity?.partner.rateLimitPerMin ?? 600,
        query: Object.fromEntries(url.searchParams),
      });
      if (verdict.limit !== undefined) {
        headers["X-RateLimit-Limit"] = String(verdict.limit);
        headers["X-RateLimit-Remaining"] = String(verdict.remaining);
        headers["X-RateLimit-Reset"] = String(verdict.resetSeconds);
      }
      if (!verdict.allowed) {
        headers["Retry-After"] = String(verdict.resetSeconds);
        throw new HttpProblem(429, "rate_limited", "rate limit exceeded", {}, "nested");
      }
    }

    // Refused keys still count against the IP bucket (and get its headers), as at a real edge.
    if (authFailure !== undefined) {
      throw new HttpProblem(
        authFailure.status,
        authFailure.code,
        authFailure.message,
        authFailure.details ?? {},
      );
    }

    if (route.write === true && identity !== undefined) {
      const refusal = checkWriteClearance(identity, ctx.clock.now());
      if (refusal !== undefined) {
        throw new HttpProblem(refusal.status, refusal.code, refusal.message, refusal.details ?? {});
      }
    }

    let body: unknown;
    if (method === "POST") {
      const text = await readBody(req);
      if (text === undefined) throw new HttpProblem(413, "bad_request", "request body too large");
      if (text.trim() !== "") {
        try {
          body = JSON.parse(text);
        } catch {
          throw new HttpProblem(
            400,
            "bad_request",
            "request body is not valid JSON",
            {},
            route.envelope ?? "bare",
          );
        }
      }
    }
    const rc: RequestContext = {
      method,
      path: url.pathname,
      params,
      query: url.searchParams,
      headers: req.headers,
      body,
      ip,
      peer: peerIp(req),
      requestId,
      traceId,
      identity,
    };
    await send(await route.handler(rc));
  } catch (err) {
    if (err instanceof HttpProblem) return sendProblem(err);
    throw err;
  }
}

/**
 * Who a keyed request to a public endpoint reads as: its identity when the key holds the endpoint's
 * scopes (markets:read "raises the rate ceiling"), else nobody, as if no key had been sent, so it is
 * held to the unraised ceiling (the rate-limit table's IP bucket; the mock does not model the raise,
 * whose size the spec does not show, so today both get that bucket).
 * @example publicReader(marketsRoute, tradingOnlyIdentity) // undefined
 */
export function publicReader(route: Pick<Route, "scopes">, identity: Identity): Identity | undefined {
  return route.scopes.every((s) => identity.key.scopes.has(s)) ? identity : undefined;
}

function delay(ctx: MockContext, ms: number): Promise<void> {
  return new Promise((resolve) => ctx.clock.setTimer(ms, resolve));
}
