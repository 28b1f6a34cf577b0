import type { Route } from "../route.js";
import { iso, json } from "./format.js";
import type { RouteDeps } from "./shared.js";

/**
 * Service probes and platform reads: GET /health, /ready, /api/platform/status and
 * /api/platform/notices. Payloads are not shown in the spec: status carries the WebSocket
 * platform_status example fields (frozen, reason, since, etaUnfreeze), notices are a list under
 * `notices`. /ready answers 503 while the platform is frozen (the matcher takes no orders).
 */
export function platformRoutes(deps: RouteDeps): Route[] {
  const { ctx } = deps;
  let frozen = ctx.faults.platformFrozen;
  let since = deps.markets.startedAt;
  // The fault state is a plain flag; the moment it flipped is noted the first time it is read.
  const status = () => {
    if (ctx.faults.platformFrozen !== frozen) {
      frozen = ctx.faults.platformFrozen;
      since = ctx.clock.now();
    }
    return {
      frozen,
      reason: frozen ? "maintenance" : null,
      since: iso(since),
      etaUnfreeze: null,
    };
  };
  return [
    {
      method: "GET",
      pattern: "/health",
      auth: "public",
      scopes: [],
      handler: () => json({ status: "ok", time: iso(ctx.clock.now()) }),
    },
    {
      method: "GET",
      pattern: "/ready",
      auth: "public",
      scopes: [],
      handler: () => {
        const s = status();
        return json(
          { ready: !s.frozen, checks: { matcher: s.frozen ? "frozen" : "ok" } },
          s.frozen ? 503 : 200,
        );
      },
    },
    {
      method: "GET",
      pattern: "/api/platform/status",
      auth: "public",
      scopes: [],
      handler: () => json(status()),
    },
    {
      method: "GET",
      pattern: "/api/platform/notices",
      auth: "public",
      scopes: [],
      handler: () =>
        json({
          notices: [
            {
              id: "mock-paper-venue",
              level: "info",
              title: "Paper trading venue",
              body: "This is the mm mock exchange: balances, fills and fees are simulated.",
              createdAt: iso(deps.markets.startedAt),
            },
          ],
        }),
    },
  ];
}
