import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { StartReadError } from "../../../src/app/start-errors.js";
import { type RecordedRequest, sendJson, startTestServer } from "../../support/http-test-server.js";
import { serverSlots } from "./rest-front.js";
import { daemonConfig, market, startFailure, startMock } from "./support.js";

/*
 * exchange.baseUrl pointed at some other web server, which answers the start's market reads 200 with
 * its own page or JSON: the start ends with one StartReadError naming the setting, the URL read and
 * what was wrong with the answer (exit 1, like an unreachable exchange), never with an unnamed error.
 */

const ARG = market("arg-vs-fra-final-arg-win");

const slots = serverSlots();

async function startAgainst(answer: (req: RecordedRequest, res: ServerResponse) => void): Promise<{
  err: unknown;
  url: string;
  paths: string[];
}> {
  slots.mock = await startMock();
  const srv = await startTestServer(answer);
  slots.server = srv;
  const err = await startFailure(daemonConfig(slots.mock, [ARG.slug], { MM_EXCHANGE_BASE_URL: srv.url }));
  return { err, url: srv.url, paths: srv.requests.map((r) => r.url) };
}

function html(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/html" });
  res.end("<!doctype html><title>Welcome to nginx!</title>");
}

describe("daemon: exchange.baseUrl answers 200 with something that is not the exchange's API", () => {
  it("an HTML page for GET /api/markets: names the setting, the URL read and the body", async () => {
    const { err, url, paths } = await startAgainst((_req, res) => html(res));
    expect(paths).toEqual(["/api/markets?limit=500"]);
    expect(err).toBeInstanceOf(StartReadError);
    const e = err as StartReadError;
    expect(e.message).toBe(
      `exchange.baseUrl ${url}: GET /api/markets at ${url}/api/markets?limit=500: HTTP 200 malformed_response: ` +
        `expected a JSON body, got "<!doctype html><title>Welcome to nginx!</title>"; ` +
        "the answer is not the exchange API's: check the setting",
    );
    expect(e.details).toEqual({
      setting: "exchange.baseUrl",
      url,
      endpoint: "GET /api/markets",
      readUrl: `${url}/api/markets?limit=500`,
      httpStatus: 200,
    });
  });

  it("JSON of another shape for GET /api/markets: names the field that does not fit", async () => {
    const { err, url } = await startAgainst((_req, res) => sendJson(res, 200, { status: "ok", uptime: 12 }));
    expect(err).toBeInstanceOf(StartReadError);
    expect((err as StartReadError).message).toBe(
      `exchange.baseUrl ${url}: GET /api/markets at ${url}/api/markets?limit=500: HTTP 200 malformed_response: ` +
        "body.markets: expected an array, got undefined; the answer is not the exchange API's: check the setting",
    );
  });

  it("a list without the slug, then another shape for the market lookup: names the lookup's URL", async () => {
    const { err, url, paths } = await startAgainst((req, res) =>
      req.path === "/api/markets" ? sendJson(res, 200, []) : sendJson(res, 200, { page: "home" }),
    );
    expect(paths).toEqual(["/api/markets?limit=500", `/api/markets/${ARG.slug}`]);
    expect(err).toBeInstanceOf(StartReadError);
    const e = err as StartReadError;
    expect(e.message).toBe(
      `exchange.baseUrl ${url}: GET /api/markets/{slug} at ${url}/api/markets/${ARG.slug}: HTTP 200 ` +
        "malformed_response: body.id: expected a string, got undefined; the answer is not the exchange API's: check the setting",
    );
    expect(e.details).toMatchObject({ readUrl: `${url}/api/markets/${ARG.slug}`, httpStatus: 200 });
  });
});
