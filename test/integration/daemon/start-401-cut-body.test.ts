import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import { ExchangeError, keyRefused } from "../../../src/exchange/exchange-error.js";
import { startTestServer } from "../../support/http-test-server.js";
import { serverSlots } from "./rest-front.js";
import { daemonConfig, market, startMock, supervisedRun } from "./support.js";

/**
 * A 401 counts as the exchange refusing the key only with the exchange's error code read from its
 * body. The transport keeps the status of a response whose headers arrived, so a 401 whose body is
 * cut (connection_lost), stalls (request_timeout) or is too large (malformed_response) carries a
 * client code: no word of the exchange's on the key. At start that is exit 1 naming the URL, not
 * exit 3 blaming the key (and while running, not a stop for good).
 */

const ARG = market("arg-vs-fra-final-arg-win");
const slots = serverSlots();

/** A proxy's 401 page whose connection drops after the first bytes of its body. */
function cutLoginPage(res: ServerResponse): void {
  res.writeHead(401, { "content-type": "text/html", "content-length": "5000" });
  res.write("<!doctype html><html><head><title>Sign in</title>");
  setTimeout(() => res.socket?.destroy(), 20);
}

describe("a 401 whose body never arrived whole", () => {
  it("keyRefused: a client code (no body read) is not the exchange refusing the key", () => {
    for (const code of ["connection_lost", "request_timeout", "malformed_response"]) {
      const err = new ExchangeError({
        code,
        message: "x",
        outcome: "ambiguous",
        endpoint: "GET /api/markets",
        httpStatus: 401,
      });
      expect(keyRefused(err), code).toBe(false);
    }
  });

  it("mm run at start: exit 1 (the URL named), not exit 3 blaming the key with connection_lost", async () => {
    slots.mock = await startMock();
    const srv = await startTestServer((_req, res) => cutLoginPage(res));
    slots.server = srv;
    const run = await supervisedRun(
      daemonConfig(slots.mock, [ARG.slug], {
        MM_EXCHANGE_BASE_URL: srv.url,
        MM_RETRY_MAX_ATTEMPTS: "1",
      }),
    );
    expect(run.stderr).not.toContain("refused the API key");
    expect(run.code).toBe(DAEMON_EXIT.failed);
  });
});
