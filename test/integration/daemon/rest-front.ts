import type { ServerResponse } from "node:http";
import { afterEach } from "vitest";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import { type RecordedRequest, startTestServer, type TestServer } from "../../support/http-test-server.js";
import { market, seedMarket, startMock } from "./support.js";

/** Answers one request in the front's place; returns false to let it pass to the mock. */
export type FrontOverride = (req: RecordedRequest, res: ServerResponse) => boolean;

/** Response headers the front does not copy: it re-frames the body itself. */
const HOP = new Set(["content-length", "transfer-encoding", "connection", "keep-alive"]);

/**
 * A loopback REST front of the mock (a TestServer): every request passes to `mock` and its answer
 * back, headers (X-Server-Time, rate limits) included, except those `override` answers itself.
 * Point exchange.baseUrl at its `url` (the WebSockets stay on the mock).
 * @example const front = await restFront(mock, (req, res) => req.path === "/api/positions" && (sendJson(res, 200, {}), true));
 */
export function restFront(mock: MockExchange, override: FrontOverride): Promise<TestServer> {
  return startTestServer(async (req, res) => {
    if (override(req, res)) return;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined && k !== "host" && !HOP.has(k)) headers[k] = Array.isArray(v) ? v.join(", ") : v;
    }
    const answer = await fetch(`${mock.httpUrl}${req.url}`, {
      method: req.method,
      headers,
      ...(req.bodyText === "" ? {} : { body: req.bodyText }),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!HOP.has(k) && k !== "content-encoding") out[k] = v;
    });
    res.writeHead(answer.status, { ...out, "content-length": body.length });
    res.end(body);
  });
}

/** The market the fronted mock is seeded with (a two-sided book: the engine can quote it). */
export const FRONTED = market("arg-vs-fra-final-arg-win");

/**
 * A test file's fronted mocks: `start(override)` starts the mock, seeds FRONTED's book at 0.50/0.60
 * and puts a REST front before it (see restFront); both are closed after each test.
 * @example const fronted = frontedMocks(); const { m, url } = await fronted((req, res) => false);
 */
export function frontedMocks(): (
  override: FrontOverride,
) => Promise<{ m: MockExchange; url: string; front: TestServer }> {
  let mock: MockExchange | undefined;
  let front: TestServer | undefined;
  afterEach(async () => {
    await front?.close();
    await mock?.close();
    front = undefined;
    mock = undefined;
  });
  return async (override) => {
    const m = await startMock();
    mock = m;
    seedMarket(m, FRONTED, "0.50", "0.60");
    const f = await restFront(m, override);
    front = f;
    return { m, url: f.url, front: f };
  };
}

/** A test file's mock and stand-alone test server (see serverSlots). */
export interface ServerSlots {
  mock: MockExchange | undefined;
  server: TestServer | undefined;
}

/**
 * Slots for a test's mock and a test server of its own (another service at exchange.baseUrl), both
 * closed and emptied after each test.
 * @example const slots = serverSlots(); it("…", async () => { slots.mock = await startMock(); slots.server = await startTestServer(answer); });
 */
export function serverSlots(): ServerSlots {
  const slots: ServerSlots = { mock: undefined, server: undefined };
  afterEach(async () => {
    await slots.server?.close();
    await slots.mock?.close();
    slots.server = undefined;
    slots.mock = undefined;
  });
  return slots;
}
