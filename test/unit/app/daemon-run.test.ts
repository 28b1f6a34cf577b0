import { describe, expect, it } from "vitest";
import { DaemonRun, type RunParts } from "../../../src/app/daemon-run.js";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import type { MmConfig } from "../../../src/config/types.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { TradingEngine } from "../../../src/engine/engine.js";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { GatewayFatalError } from "../../../src/gateway/errors.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";

/*
 * The key refused for good, by a gateway's close (fatal) or a REST 401 (unauthorized), takes one
 * path: logged as an error naming the cause, then the stop with exit code 3.
 */

function run(): {
  run: DaemonRun;
  stops: string[];
  errors: () => Record<string, unknown>[];
  warns: () => Record<string, unknown>[];
} {
  const sink = collectingStream();
  const stops: string[] = [];
  // The stop path reads only these of its parts.
  const engine = {
    stop: async (reason: string) => {
      stops.push(reason);
      return { openOrders: 0 };
    },
  } as unknown as TradingEngine;
  const parts: RunParts = {
    config: { shutdown: { timeoutMs: 1_000 } } as unknown as MmConfig,
    clock: new SimClock(1_000),
    logger: createLogger({ level: "info", pretty: false, destination: sink }),
    engine,
    client: { close: () => undefined } as unknown as ExchangeHttpClient,
    reporter: { close: () => undefined } as unknown as RunParts["reporter"],
    journal: undefined,
    onStopping: undefined,
  };
  const errors = () => sink.records().filter((r) => r.level === 50);
  const warns = () => sink.records().filter((r) => r.level === 40);
  return { run: new DaemonRun(parts), stops, errors, warns };
}

const revoked = (gateway: "market" | "user") =>
  new GatewayFatalError(gateway, "api_key_revoked", "revoked", 4401);
const refused = (endpoint: string) =>
  new ExchangeError({
    code: "api_key_expired",
    message: "expired",
    outcome: "rejected",
    endpoint,
    httpStatus: 401,
  });

describe("DaemonRun: the key refused for good", () => {
  it("a gateway's fatal close is logged with its gateway and close code, and stops with exit 3", async () => {
    const { run: r, stops, errors } = run();
    r.fatal(revoked("user"));
    expect(await r.done).toEqual({ exitCode: DAEMON_EXIT.fatal, reason: "api_key_revoked" });
    expect(stops).toEqual(["api_key_revoked"]);
    expect(errors()).toMatchObject([
      {
        code: "api_key_revoked",
        gateway: "user",
        closeCode: 4401,
        msg: "the exchange closed /ws/user for good (api_key_revoked): cancelling what can still be cancelled and stopping",
      },
    ]);
  });

  it("a REST 401 is logged with its endpoint and status, and stops with exit 3", async () => {
    const { run: r, stops, errors } = run();
    r.unauthorized(refused("GET /api/orders/open"));
    expect(await r.done).toEqual({ exitCode: DAEMON_EXIT.fatal, reason: "api_key_expired" });
    expect(stops).toEqual(["api_key_expired"]);
    expect(errors()).toMatchObject([
      {
        code: "api_key_expired",
        endpoint: "GET /api/orders/open",
        status: 401,
        msg: "the exchange refused the API key (api_key_expired on GET /api/orders/open): cancelling what can still be cancelled and stopping",
      },
    ]);
  });

  it("logs every gateway's close but only the first 401, and stops once", async () => {
    const { run: r, stops, errors } = run();
    r.unauthorized(refused("GET /api/orders/open"));
    r.unauthorized(refused("POST /api/orders/place"));
    r.fatal(revoked("market"));
    r.fatal(revoked("user"));
    expect(await r.done).toEqual({ exitCode: DAEMON_EXIT.fatal, reason: "api_key_expired" });
    expect(stops).toEqual(["api_key_expired"]);
    expect(errors().map((e) => e.endpoint ?? e.gateway)).toEqual(["GET /api/orders/open", "market", "user"]);
  });

  it("a stop already asked for keeps its outcome", async () => {
    const { run: r, stops, errors } = run();
    const stopped = r.stop("SIGTERM");
    r.fatal(revoked("user"));
    r.unauthorized(refused("GET /api/orders/open"));
    expect(await stopped).toEqual({ exitCode: DAEMON_EXIT.ok, reason: "SIGTERM" });
    expect(await r.done).toEqual({ exitCode: DAEMON_EXIT.ok, reason: "SIGTERM" });
    expect(stops).toEqual(["SIGTERM"]);
    expect(errors().map((e) => e.gateway)).toEqual(["user"]);
  });
});

const scopeRefused = (endpoint: string, requiredScope: string) =>
  new ExchangeError({
    code: "api_key_scope_missing",
    message: `scope ${requiredScope} required`,
    outcome: "rejected",
    endpoint,
    httpStatus: 403,
    details: { requiredScope, have: ["portfolio:read"] },
  });

describe("DaemonRun: a scope refusal", () => {
  it("of a request whose scope the spec names (GET /api/orders/open: orders:read) stops with exit 3, naming it", async () => {
    const { run: r, stops } = run();
    r.unauthorized(scopeRefused("GET /api/orders/open", "orders:read"));
    const reason = "api_key_scope_missing: the API key lacks orders:read, which GET /api/orders/open needs";
    expect(await r.done).toEqual({ exitCode: DAEMON_EXIT.fatal, reason });
    expect(stops).toEqual([reason]);
  });

  it("of a public read (a market's record, the platform status: no scope in the spec) stops nothing and is warned of once per endpoint", async () => {
    const { run: r, stops, errors, warns } = run();
    r.unauthorized(scopeRefused("GET /api/markets/{slug}", "markets:read"));
    r.unauthorized(scopeRefused("GET /api/markets/{slug}", "markets:read"));
    r.unauthorized(scopeRefused("GET /api/platform/status", "markets:read"));
    await Promise.resolve();
    // Was: exit 3 at the first, every market's quotes cancelled, for a read the run can do without.
    expect(r.stopping).toBe(false);
    expect(stops).toEqual([]);
    expect(errors()).toEqual([]);
    expect(warns()).toMatchObject([
      { endpoint: "GET /api/markets/{slug}", requiredScope: "markets:read", status: 403 },
      { endpoint: "GET /api/platform/status", requiredScope: "markets:read", status: 403 },
    ]);
    expect(await r.stop("SIGTERM")).toEqual({ exitCode: DAEMON_EXIT.ok, reason: "SIGTERM" });
  });
});

describe("DaemonRun: a failed start tearing down", () => {
  it("a refusal after abandon() is logged and kept for the start's error (exit 3), but starts no stop of its own", async () => {
    const { run: r, stops, errors } = run();
    r.abandon();
    r.unauthorized(refused("GET /api/me/positions"));
    r.fatal(revoked("user"));
    // The failed start's catch closes the feeds, the journal and the client itself: a stop racing
    // it would cancel through a closing client and end the run row twice.
    await Promise.resolve();
    expect(stops).toEqual([]);
    expect(r.stopping).toBe(false);
    expect(r.refusal).toMatchObject({ code: "api_key_expired", httpStatus: 401 });
    expect(errors().map((e) => e.endpoint ?? e.gateway)).toEqual(["GET /api/me/positions", "user"]);
  });
});
