import { describe, expect, it } from "vitest";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import { startTestServer } from "../../support/http-test-server.js";
import { FRONTED, serverSlots } from "./rest-front.js";
import { daemonConfig, startMock, supervisedRun } from "./support.js";

/**
 * A proxy's login page answering the WebSocket upgrade at exchange.wsUrl with HTTP 401 is not the
 * exchange refusing the key: the spec's handshake refusals are 4401 close frames. The start names
 * the setting and the page and exits 1, not 3 ("refused for good", which a supervisor may not
 * restart) (session 14; README's exit codes).
 */

const slots = serverSlots();
const PAGE = "<html><body>Sign in to Corp Proxy</body></html>";

describe("exchange.wsUrl answers the upgrade 401 with a proxy's page at start", () => {
  it("exit 1, the page shown, the key not blamed", async () => {
    slots.mock = await startMock();
    const srv = await startTestServer((_req, res) => {
      res.writeHead(401, { "content-type": "text/html" });
      res.end(PAGE);
    });
    slots.server = srv;
    const wsUrl = srv.url.replace("http:", "ws:");
    const run = await supervisedRun(daemonConfig(slots.mock, [FRONTED.slug], { MM_EXCHANGE_WS_URL: wsUrl }));
    expect(run.code).toBe(DAEMON_EXIT.failed);
    expect(run.stderr).toContain("exchange.wsUrl");
    expect(run.stderr).toContain("HTTP 401 without the exchange API's error code");
    expect(run.stderr).toContain(PAGE);
    expect(run.stderr).not.toContain("refused the API key");
  });
});
