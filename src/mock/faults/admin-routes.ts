import { HttpProblem } from "../http/problem.js";
import type { RequestContext, Route, RouteResult } from "../http/route.js";
import type { MockAdmin } from "./admin.js";
import { AdminError } from "./admin-error.js";
import type { FailStatus } from "./request-faults.js";

/** Path prefix of the admin endpoints (the HTTP server exempts it from injected faults and rate limits). */
export const ADMIN_PREFIX = "/__admin";

/**
 * Whether a socket peer may use /__admin: loopback only (127.0.0.0/8, ::1, and their IPv4-mapped
 * IPv6 forms). Always called with RequestContext.peer, the socket's own address, never with the
 * X-Forwarded-For-derived `ip`: a header is the caller's word, the socket is not.
 * @example adminPeerAllowed("127.0.0.1") // true; adminPeerAllowed("10.0.0.5") // false
 */
export function adminPeerAllowed(peer: string): boolean {
  const ip = peer.toLowerCase().startsWith("::ffff:") ? peer.slice(7) : peer;
  return ip === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip);
}

type Body = Record<string, unknown>;

/**
 * The fault-injection API over HTTP, one endpoint per MockAdmin action. Mount only when the mock
 * was started with `admin: true` (createMockExchange); every endpoint answers 403 `forbidden` to
 * a non-loopback peer. Bodies are JSON objects; answers are 200 with the action's result, 400
 * `invalid_argument`/`bad_request`, 404 `unknown_*`, 409 `market_resolved`.
 *
 * | Endpoint | Body | Effect |
 * |---|---|---|
 * | GET /__admin/state | — | Every injected fault, open socket count, market statuses |
 * | POST /__admin/drop-sockets | `{gateway?}` (`"market"`/`"user"`; default both) | Terminates the WebSockets without a close frame; `{dropped}` |
 * | POST /__admin/drop-subscription | `{tokenIds}` | The /ws/market token_book subscriptions covering these tokens are dropped server-side, silently, the sockets left open (their sid unknown from then on); `{droppedSubscriptions}` |
 * | POST /__admin/skip-seq | `{tokenId}` (`"*"` = all) | Next book frame of the token skips one seq (a gap) |
 * | POST /__admin/reorder | `{tokenId}` (`"*"` = all) | Next two book frames of the token go out swapped |
 * | POST /__admin/silence-feed | `{tokenId, on?}` (on default true) | Token's channel events stop (on) / resume (off) |
 * | POST /__admin/refuse-book | `{tokenIds, code?, on?}` (code: a spec subscription rejection code, default `invalid_params`; on default true) | token_book subscriptions of these tokens refused with `code` (a subscribe rejects only them and accepts the rest of its entry; an update_subscription adding one fails), or allowed again (off); held subscriptions keep their feed |
 * | POST /__admin/http-latency | `{ms}` (0…600000) | Extra delay before every HTTP answer (not /__admin) |
 * | POST /__admin/ws-latency | `{ms}` (0…600000) | Extra delay before every WebSocket frame |
 * | POST /__admin/fail-next | `{count, status, code?, retryAfterSeconds?, paths?}` | Next `count` HTTP requests answer `status` (429/500/502/503) with `code` (default rate_limited / internal_error / exchange_upstream_error / exchange_unavailable) in the nested envelope; 429 sends Retry-After (default 1); `paths` (route templates, e.g. `["/api/orders/cancel", "/api/orders/cancel-all"]`) fails only requests to those routes, any method, and only they consume the count (400 naming `paths` for a route the mock does not serve); count 0 cancels |
 * | POST /__admin/hang-placements | `{count}` | Next `count` placements reach the venue but are never answered |
 * | POST /__admin/revoke-key | `{keyId}` | Key revoked: 401 api_key_revoked; its sockets close 4401 api_key_revoked |
 * | POST /__admin/expire-key | `{keyId}` | Key expires now: 401 api_key_expired; its sockets close 4401 api_key_expired |
 * | POST /__admin/suspend-partner | `{partnerId}` | Partner's keys get 401 api_key_suspended; sockets close 4401 api_key_suspended |
 * | POST /__admin/reactivate-partner | `{partnerId}` | Partner's keys work again |
 * | POST /__admin/pause-market | `{marketId}` (id, symbol or slug) | PAUSED: placements 409 market_not_open, resting orders stay; WS market_paused + market_status |
 * | POST /__admin/resume-market | `{marketId}` | OPEN again; WS market_unpaused + market_status |
 * | POST /__admin/resolve-market | `{marketId, winningOutcome}` (YES/NO/0/1) | Orders cancelled, RESOLVED, 1 USDC per winning share paid and all shares redeemed; WS market_status + market_resolved |
 * | POST /__admin/market-status | `{marketId, status, cancelOpenOrders?}` | Any status but RESOLVED (cancelOpenOrders default false); WS market_status |
 * | POST /__admin/freeze-platform | `{on}` (default true) | platform_status frozen pushed; placements 503 exchange_unavailable; cancels and reads work; flow idle |
 * | POST /__admin/silence-lifecycle | `{on}` (default true) | No condition_lifecycle push at all (paused, unpaused, resolved, status): markets change status silently, as the spec says most do; the records (GET /api/markets) still tell |
 * | POST /__admin/reset | `{}` | Clears every injected fault (not key/partner/market changes); returns the state |
 */
export function adminRoutes(admin: MockAdmin): Route[] {
  const post = (action: string, run: (b: Body) => unknown): Route => ({
    method: "POST",
    pattern: `${ADMIN_PREFIX}/${action}`,
    auth: "public",
    scopes: [],
    handler: (rc) => guarded(rc, () => run(bodyOf(rc))),
  });
  return [
    {
      method: "GET",
      pattern: `${ADMIN_PREFIX}/state`,
      auth: "public",
      scopes: [],
      handler: (rc) => guarded(rc, () => admin.state()),
    },
    post("drop-sockets", (b) =>
      admin.dropAllSockets(b.gateway === undefined ? undefined : (b.gateway as "market")),
    ),
    post("drop-subscription", (b) => admin.dropSubscriptions(b.tokenIds as string[])),
    post("skip-seq", (b) => admin.skipSeq(b.tokenId as string)),
    post("reorder", (b) => admin.reorder(b.tokenId as string)),
    post("silence-feed", (b) => admin.silenceFeed(b.tokenId as string, flag(b, "on"))),
    post("refuse-book", (b) =>
      admin.refuseBooks(
        b.tokenIds as string[],
        b.code === undefined ? undefined : (b.code as string),
        flag(b, "on"),
      ),
    ),
    post("silence-lifecycle", (b) => admin.silenceLifecycle(flag(b, "on"))),
    post("http-latency", (b) => admin.setHttpLatency(b.ms as number)),
    post("ws-latency", (b) => admin.setWsLatency(b.ms as number)),
    post("fail-next", (b) =>
      admin.failNextRequests(
        b.count as number,
        b.status as FailStatus,
        b.code === undefined ? undefined : (b.code as string),
        b.retryAfterSeconds === undefined ? 1 : (b.retryAfterSeconds as number),
        b.paths === undefined ? undefined : (b.paths as string[]),
      ),
    ),
    post("hang-placements", (b) => admin.hangNextPlacements(b.count as number)),
    post("revoke-key", (b) => admin.revokeKey(b.keyId as string)),
    post("expire-key", (b) => admin.expireKey(b.keyId as string)),
    post("suspend-partner", (b) => admin.suspendPartner(b.partnerId as string)),
    post("reactivate-partner", (b) => admin.reactivatePartner(b.partnerId as string)),
    post("pause-market", (b) => admin.pauseMarket(b.marketId as string)),
    post("resume-market", (b) => admin.resumeMarket(b.marketId as string)),
    post("resolve-market", (b) => admin.resolveMarket(b.marketId as string, b.winningOutcome as "YES")),
    post("market-status", (b) =>
      admin.setMarketStatus(b.marketId as string, b.status as "OPEN", {
        cancelOpenOrders: flag(b, "cancelOpenOrders", false),
      }),
    ),
    post("freeze-platform", (b) => admin.freezePlatform(flag(b, "on"))),
    post("reset", () => admin.reset()),
  ];
}

// Loopback check first, then the action; AdminError becomes its HTTP problem. Values are cast
// above because MockAdmin validates every argument itself (it is also called in process).
function guarded(rc: RequestContext, run: () => unknown): RouteResult {
  if (!adminPeerAllowed(rc.peer)) {
    throw new HttpProblem(403, "forbidden", "admin endpoints answer loopback peers only", { peer: rc.peer });
  }
  try {
    return { status: 200, body: run() };
  } catch (err) {
    if (err instanceof AdminError)
      throw new HttpProblem(err.status, err.code, err.message, { ...err.details });
    throw err;
  }
}

function bodyOf(rc: RequestContext): Body {
  if (rc.body === undefined) return {};
  if (typeof rc.body !== "object" || rc.body === null || Array.isArray(rc.body)) {
    throw new HttpProblem(400, "bad_request", "admin body must be a JSON object");
  }
  return rc.body as Body;
}

function flag(b: Body, field: string, fallback = true): boolean {
  const v = b[field];
  if (v === undefined) return fallback;
  if (typeof v !== "boolean") {
    throw new HttpProblem(400, "invalid_argument", `${field} must be a boolean`, { field });
  }
  return v;
}
