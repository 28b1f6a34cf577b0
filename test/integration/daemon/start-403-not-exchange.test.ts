import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import { startTestServer } from "../../support/http-test-server.js";
import { FRONTED, serverSlots } from "./rest-front.js";
import { daemonConfig, startMock, supervisedRun } from "./support.js";

/**
 * A 403 HTML page at exchange.baseUrl (a firewall's or CDN's "Access denied", a proxy in front of the
 * wrong host) is not the exchange's answer: its 403s carry the error body with a code (forbidden,
 * wallet_banned, api_key_scope_missing…). The start names the body and points at the setting, as
 * for a 401 without the code, and does not send the operator to rotate keys.
 */

const slots = serverSlots();
const PAGE = "<!doctype html><html><body><h1>Access denied</h1>Cloudflare Ray ID: 1234</body></html>";

function denied(res: ServerResponse): void {
  res.writeHead(403, { "content-type": "text/html" });
  res.end(PAGE);
}

describe("exchange.baseUrl answers a 403 HTML page at start", () => {
  it("exit 1, the body shown, the key not blamed", async () => {
    slots.mock = await startMock();
    const srv = await startTestServer((_req, res) => denied(res));
    slots.server = srv;
    const run = await supervisedRun(
      daemonConfig(slots.mock, [FRONTED.slug], { MM_EXCHANGE_BASE_URL: srv.url }),
    );
    expect(run.code).toBe(DAEMON_EXIT.failed);
    expect(run.stderr).toContain("Access denied");
    expect(run.stderr).not.toContain("refused this read to the API key");
    expect(run.stderr).toContain("HTTP 403 without the exchange API's error body");
    expect(run.stderr).toContain("check the setting");
  });
});
