import { describe, expect, it } from "vitest";
import { MockAdmin } from "../../../src/mock/faults/admin.js";
import { adminPeerAllowed, adminRoutes } from "../../../src/mock/faults/admin-routes.js";
import { HttpProblem } from "../../../src/mock/http/problem.js";
import type { RequestContext, Route } from "../../../src/mock/http/route.js";
import { FakeGateway, simContext } from "./sim-support.js";

describe("adminPeerAllowed", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.10.20.30", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["::FFFF:127.0.0.1", true],
    ["10.0.0.5", false],
    ["192.168.1.20", false],
    ["172.17.0.1", false],
    ["::ffff:10.0.0.5", false],
    ["2001:db8::1", false],
    ["128.0.0.1", false],
    ["127.0.0.1.evil", false],
    ["", false],
  ])("%s → %s", (peer, allowed) => {
    expect(adminPeerAllowed(peer)).toBe(allowed);
  });
});

function request(
  route: Route,
  peer: string,
  body: unknown,
  headers: Record<string, string> = {},
): RequestContext {
  return {
    method: route.method,
    path: route.pattern,
    params: {},
    query: new URLSearchParams(),
    headers,
    body,
    // What the server derives from X-Forwarded-For; the admin check must not read it.
    ip: headers["x-forwarded-for"] ?? peer,
    peer,
    requestId: "r",
    traceId: "t",
    identity: undefined,
  };
}

function setup() {
  const { ctx } = simContext();
  const gw = new FakeGateway();
  const routes = adminRoutes(new MockAdmin(ctx, gw));
  const route = (pattern: string): Route => {
    const r = routes.find((x) => x.pattern === pattern);
    if (r === undefined) throw new Error(`no route ${pattern}`);
    return r;
  };
  return { ctx, gw, routes, route };
}

async function problemOf(run: () => unknown): Promise<HttpProblem> {
  try {
    await run();
  } catch (err) {
    if (err instanceof HttpProblem) return err;
    throw err;
  }
  throw new Error("expected an HttpProblem");
}

describe("adminRoutes", () => {
  it("exposes every action as public POST /__admin/<action> (plus GET state), no scopes", () => {
    const { routes } = setup();
    expect(routes.map((r) => `${r.method} ${r.pattern}`).sort()).toEqual(
      [
        "GET /__admin/state",
        ...[
          "drop-sockets",
          "drop-subscription",
          "skip-seq",
          "reorder",
          "silence-feed",
          "refuse-book",
          "silence-lifecycle",
          "http-latency",
          "ws-latency",
          "fail-next",
          "hang-placements",
          "revoke-key",
          "expire-key",
          "suspend-partner",
          "reactivate-partner",
          "pause-market",
          "resume-market",
          "resolve-market",
          "market-status",
          "freeze-platform",
          "reset",
        ].map((a) => `POST /__admin/${a}`),
      ].sort(),
    );
    for (const r of routes) {
      expect(r.auth).toBe("public");
      expect(r.scopes).toEqual([]);
    }
  });

  it("refuses a non-loopback peer with 403, even when X-Forwarded-For claims loopback", async () => {
    const { ctx, route } = setup();
    const r = route("/__admin/freeze-platform");
    for (const peer of ["10.0.0.5", "::ffff:192.168.0.9"]) {
      const p = await problemOf(() =>
        r.handler(request(r, peer, { on: true }, { "x-forwarded-for": "127.0.0.1" })),
      );
      expect(p.status).toBe(403);
      expect(p.code).toBe("forbidden");
    }
    expect(ctx.faults.platformFrozen).toBe(false);
  });

  it("serves a loopback peer whatever X-Forwarded-For says", async () => {
    const { ctx, gw, route } = setup();
    const r = route("/__admin/freeze-platform");
    const out = await r.handler(request(r, "127.0.0.1", { on: true }, { "x-forwarded-for": "203.0.113.7" }));
    expect(out).toEqual({ status: 200, body: { platformFrozen: true } });
    expect(ctx.faults.platformFrozen).toBe(true);
    expect(gw.calls).toEqual([{ fn: "publishPlatformStatus" }]);
  });

  it("maps bad bodies and admin errors to 400 / 404 / 409 problems", async () => {
    const { route } = setup();
    const fail = route("/__admin/fail-next");
    expect((await problemOf(() => fail.handler(request(fail, "::1", [1, 2])))).status).toBe(400);
    const bad = await problemOf(() => fail.handler(request(fail, "::1", { count: 1, status: 418 })));
    expect([bad.status, bad.code]).toEqual([400, "invalid_argument"]);
    const paths = await problemOf(() =>
      fail.handler(request(fail, "::1", { count: 1, status: 500, paths: "/api/orders/cancel" })),
    );
    expect([paths.status, paths.code, paths.details]).toEqual([400, "invalid_argument", { field: "paths" }]);
    const silence = route("/__admin/silence-feed");
    const flag = await problemOf(() => silence.handler(request(silence, "::1", { tokenId: "*", on: "yes" })));
    expect([flag.status, flag.code]).toEqual([400, "invalid_argument"]);
    const refuse = route("/__admin/refuse-book");
    const noIds = await problemOf(() => refuse.handler(request(refuse, "::1", { tokenId: "1" })));
    expect([noIds.status, noIds.code]).toEqual([400, "invalid_argument"]);
    const revoke = route("/__admin/revoke-key");
    const unknown = await problemOf(() =>
      revoke.handler(request(revoke, "::1", { keyId: "0000000000000000" })),
    );
    expect([unknown.status, unknown.code]).toEqual([404, "unknown_key"]);
    const resolve = route("/__admin/resolve-market");
    await resolve.handler(request(resolve, "::1", { marketId: "ARG-WIN", winningOutcome: "no" }));
    const again = await problemOf(() =>
      resolve.handler(request(resolve, "::1", { marketId: "ARG-WIN", winningOutcome: 0 })),
    );
    expect([again.status, again.code]).toEqual([409, "market_resolved"]);
  });

  it("passes every documented body field through", async () => {
    const { ctx, route } = setup();
    const call = (pattern: string, body?: unknown) => {
      const r = route(pattern);
      return r.handler(request(r, "127.0.0.1", body));
    };
    await call("/__admin/fail-next", { count: 4, status: 429, code: "rate_limited", retryAfterSeconds: 3 });
    expect(ctx.faults.failNext).toEqual({
      count: 4,
      status: 429,
      code: "rate_limited",
      retryAfterSeconds: 3,
    });
    await call("/__admin/fail-next", { count: 9, status: 500, paths: ["/api/orders/cancel-all"] });
    expect(ctx.faults.failNext).toEqual({
      count: 9,
      status: 500,
      code: "internal_error",
      retryAfterSeconds: 1,
      paths: ["/api/orders/cancel-all"],
    });
    await call("/__admin/http-latency", { ms: 12 });
    await call("/__admin/ws-latency", { ms: 34 });
    await call("/__admin/hang-placements", { count: 2 });
    await call("/__admin/skip-seq", { tokenId: "*" });
    await call("/__admin/reorder", { tokenId: "*" });
    await call("/__admin/silence-feed", { tokenId: "*" });
    expect(ctx.faults).toMatchObject({ httpLatencyMs: 12, wsLatencyMs: 34, hangPlacements: 2 });
    expect([...ctx.faults.feed.silenced]).toEqual(["*"]);
    await call("/__admin/silence-feed", { tokenId: "*", on: false });
    expect([...ctx.faults.feed.silenced]).toEqual([]);
    const yes = ctx.markets.bySymbol("ARG-WIN")?.yesTokenId ?? "";
    const no = ctx.markets.bySymbol("ARG-WIN")?.noTokenId ?? "";
    await call("/__admin/refuse-book", { tokenIds: [yes] });
    await call("/__admin/refuse-book", { tokenIds: [no], code: "api_key_scope_missing" });
    expect(Object.fromEntries(ctx.faults.feed.refusedBooks)).toEqual({
      [yes]: "invalid_params",
      [no]: "api_key_scope_missing",
    });
    await call("/__admin/refuse-book", { tokenIds: [yes], on: false });
    expect([...ctx.faults.feed.refusedBooks.keys()]).toEqual([no]);
    await call("/__admin/market-status", { marketId: "FRA-WIN", status: "CLOSED", cancelOpenOrders: true });
    expect(ctx.venue.market(ctx.markets.bySymbol("FRA-WIN")?.id ?? "")?.status).toBe("CLOSED");
    await call("/__admin/expire-key", { keyId: "e03d44eb088dd604" });
    expect(ctx.directory.keys.get("e03d44eb088dd604")?.expiresAtMs).toBe(ctx.clock.now());
    const state = await call("/__admin/reset");
    expect(state.status).toBe(200);
    expect(ctx.faults.httpLatencyMs).toBe(0);
  });
});
