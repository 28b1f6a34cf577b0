import type { Clock } from "../core/clock.js";
import type { Logger } from "../observability/logger.js";
import { buildMockContext } from "./build-context.js";
import type { MockContext } from "./context.js";
import { MockAdmin } from "./faults/admin.js";
import { adminRoutes } from "./faults/admin-routes.js";
import { startFlow } from "./flow/index.js";
import { listenHttp } from "./http/listen.js";
import { httpRoutes } from "./http/routes/index.js";
import { defaultScenarioPath, loadScenario } from "./scenario/load.js";
import type { Scenario } from "./scenario/types.js";
import { attachGateways } from "./ws/index.js";

/** How to build a mock exchange. Every field is optional: the defaults give the paper venue. */
export interface MockExchangeOptions {
  /** A scenario, or the path of a scenario file; default config/mock/default.json. */
  readonly scenario?: Scenario | string;
  /** Default 127.0.0.1: the mock never listens beyond loopback unless told to. */
  readonly host?: string;
  /** Default 0: an ephemeral port. */
  readonly port?: number;
  /** Default: the wall clock. */
  readonly clock?: Clock;
  /** Default: silent. */
  readonly logger?: Logger;
  /** Mount the /__admin/* fault-injection endpoints (loopback peers only); default false. */
  readonly admin?: boolean;
  /** Run the simulated market activity; default: the scenario's flow.enabled. */
  readonly flow?: boolean;
  /** Origins allowed on WebSocket upgrades that send an Origin header; default none. */
  readonly allowedOrigins?: readonly string[];
}

/** A running mock exchange. */
export interface MockExchange {
  /** e.g. http://127.0.0.1:43117 — the spec's {base_url}. */
  readonly httpUrl: string;
  /** e.g. ws://127.0.0.1:43117 — the spec's {ws_url}; gateways at /ws/market and /ws/user. */
  readonly wsUrl: string;
  /** In-process fault injection and market control (always available to the process that built it). */
  readonly admin: MockAdmin;
  /** The shared state, for tests that look inside (venue, directory, faults). */
  readonly context: MockContext;
  /** Stops the flow, closes every socket and the server. */
  close(): Promise<void>;
}

/**
 * Builds and starts a mock exchange: HTTP API and WebSocket gateways on one loopback port over
 * one SimVenue, with the scenario's partners, keys, wallets and markets, and (unless disabled)
 * simulated market activity so that resting quotes get filled.
 * @example
 * const mock = await createMockExchange({ admin: true });
 * const client = new ExchangeHttpClient({ baseUrl: mock.httpUrl, apiKey, ... });
 * await mock.close();
 */
export async function createMockExchange(opts: MockExchangeOptions = {}): Promise<MockExchange> {
  const scenario =
    typeof opts.scenario === "object" ? opts.scenario : loadScenario(opts.scenario ?? defaultScenarioPath());
  const ctx = buildMockContext({
    scenario,
    ...(opts.clock === undefined ? {} : { clock: opts.clock }),
    ...(opts.logger === undefined ? {} : { logger: opts.logger }),
  });
  const admin = new MockAdmin(ctx);
  const api = httpRoutes(ctx);
  admin.attachRoutes(api.map((r) => r.pattern));
  const routes = [...api, ...(opts.admin === true ? adminRoutes(admin) : [])];
  const http = await listenHttp(ctx, routes, {
    host: opts.host ?? "127.0.0.1",
    ...(opts.port === undefined ? {} : { port: opts.port }),
  });
  const gateways = attachGateways(http.server, ctx, {
    ...(opts.allowedOrigins === undefined ? {} : { allowedOrigins: [...opts.allowedOrigins] }),
  });
  admin.attachGateway(gateways);
  const flow = (opts.flow ?? scenario.flow.enabled) ? startFlow(ctx) : undefined;
  // Old rate-limit windows are dropped once a minute so a long paper run keeps flat memory.
  let sweep = 0;
  const scheduleSweep = () => {
    sweep = ctx.clock.setTimer(60_000, () => {
      ctx.limiter.sweep();
      scheduleSweep();
    });
  };
  scheduleSweep();
  let closed = false;
  return {
    httpUrl: http.url,
    wsUrl: http.url.replace(/^http/, "ws"),
    admin,
    context: ctx,
    async close() {
      if (closed) return;
      closed = true;
      ctx.clock.cancelTimer(sweep);
      flow?.stop();
      await gateways.close();
      await http.close();
      ctx.venue.dispose();
    },
  };
}
