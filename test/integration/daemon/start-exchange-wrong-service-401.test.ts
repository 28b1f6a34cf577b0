import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import { type RecordedRequest, sendJson, startTestServer } from "../../support/http-test-server.js";
import { FRONTED, frontedMocks, serverSlots } from "./rest-front.js";
import { daemonConfig, startMock, supervisedRun } from "./support.js";

/*
 * The exchange's 401s carry its error body with a code naming the key's problem (the spec's
 * Authentication checks: auth_required, api_key_unknown_key, api_key_revoked…): mm stops for good,
 * exit 3. A 401 without that body (another service at exchange.baseUrl, a proxy's login page) says
 * nothing about the key: the start names the setting, the URL read and what the body looked like,
 * exit 1, as for a 200 that is not the exchange API's answer. It used to say the exchange refused
 * the API key (http_error), exit 3.
 */

const ARG = FRONTED;
const slots = serverSlots();
const fronted = frontedMocks();

const LOGIN_PAGE = `<!doctype html><html><head><title>Sign in</title></head><body>${"x".repeat(200)}</body></html>`;

function loginPage(res: ServerResponse): void {
  res.writeHead(401, { "content-type": "text/html", "www-authenticate": "Basic" });
  res.end(LOGIN_PAGE);
}

/** A front answering `path` with `answer` and passing the rest to the mock. */
function only(
  path: string,
  answer: (res: ServerResponse) => void,
): (req: RecordedRequest, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.path !== path) return false;
    answer(res);
    return true;
  };
}

describe("daemon: exchange.baseUrl answers 401 at start", () => {
  it("another service's HTML page for GET /api/markets: exit 1, the URL and the body named, the key not blamed", async () => {
    slots.mock = await startMock();
    const srv = await startTestServer((_req, res) => loginPage(res));
    slots.server = srv;
    const url = srv.url;
    const run = await supervisedRun(daemonConfig(slots.mock, [ARG.slug], { MM_EXCHANGE_BASE_URL: url }));
    expect(run.code).toBe(DAEMON_EXIT.failed);
    expect(run.stderr).toBe(
      `mm run: could not read the markets at start: exchange.baseUrl ${url}: GET /api/markets at ` +
        `${url}/api/markets?limit=500: HTTP 401 without the exchange API's error body: got ` +
        `${JSON.stringify(`${LOGIN_PAGE.slice(0, 120)}…`)}; the answer is not the exchange API's ` +
        "(its 401s carry a code naming the key's problem): check the setting; nothing was quoted; exit 1 (code start_read_failed)\n",
    );
    expect(run.stderr).not.toContain("refused the API key");
  });

  it("a proxy's 401 JSON without a code on a later start-up read (the positions): exit 1, named the same way", async () => {
    const { m, url } = await fronted(
      only("/api/me/positions", (res) => sendJson(res, 401, { message: "Unauthorized" })),
    );
    const run = await supervisedRun(daemonConfig(m, [ARG.slug], { MM_EXCHANGE_BASE_URL: url }));
    expect(run.code).toBe(DAEMON_EXIT.failed);
    expect(run.stderr).toContain(
      `mm run: could not read the wallet's positions at start: exchange.baseUrl ${url}: GET /api/me/positions at ${url}/api/me/positions`,
    );
    expect(run.stderr).toContain(
      `HTTP 401 without the exchange API's error body: got ${JSON.stringify('{"message":"Unauthorized"}')}`,
    );
    expect(run.stderr).toMatch(/; nothing was quoted; exit 1 \(code start_read_failed\)\n$/);
    expect(run.stderr).not.toContain("refused the API key");
  });

  it("the exchange's own 401 (its nested error body, api_key_revoked): still exit 3 naming the code", async () => {
    const revoked = {
      status: 401,
      error: { code: "api_key_revoked", message: "API key revoked", trace_id: "t1" },
    };
    const { m, url } = await fronted(only("/api/markets", (res) => sendJson(res, 401, revoked)));
    const run = await supervisedRun(daemonConfig(m, [ARG.slug], { MM_EXCHANGE_BASE_URL: url }));
    expect(run.code).toBe(DAEMON_EXIT.fatal);
    expect(run.stderr).toBe(
      "mm run: the exchange refused the API key (api_key_revoked) at start-up; nothing was quoted; exit 3 (code api_key_revoked)\n",
    );
  });
});
