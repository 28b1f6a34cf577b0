import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { DAEMON_EXIT } from "../../../src/app/outcome.js";
import { superviseDaemon } from "../../../src/app/supervise.js";
import { sendJson } from "../../support/http-test-server.js";
import { FRONTED, frontedMocks } from "./rest-front.js";
import { daemonConfig, memoryLogger } from "./support.js";

/*
 * The markets read fine, then a later start-up read (the wallet's positions, its open orders, its
 * trades in the start-up reconcile) is answered 200 with something that is not the exchange API's
 * answer (a proxy or gateway in front of it, another API version). The start ends like a wrong
 * answer to the markets read: one line naming exchange.baseUrl, the URL read and the field that did
 * not fit, exit 1; never "unexpected error".
 */

const ARG = FRONTED;
const fronted = frontedMocks();

interface WrongRead {
  readonly code: number | undefined;
  readonly thrown: unknown;
  readonly lines: string[];
  readonly url: string;
  readonly paths: string[];
}

/**
 * `mm run` under supervise against the mock behind a REST front answering `path` with `body` (200):
 * how the start ended, the stderr lines, and the request paths the front saw.
 */
async function startWith(path: string, body: unknown, policy: "cancel" | "adopt"): Promise<WrongRead> {
  const { m, front: f } = await fronted((req, res) => {
    if (req.path !== path) return false;
    sendJson(res, 200, body);
    return true;
  });
  const config = daemonConfig(m, [ARG.slug], {
    MM_EXCHANGE_BASE_URL: f.url,
    MM_RECONCILE_ON_START: policy,
  });
  const { logger } = memoryLogger();
  const lines: string[] = [];
  let code: number | undefined;
  let thrown: unknown;
  try {
    code = await superviseDaemon(
      "run",
      (onStopping, stopRequested) => startDaemon(config, { logger, onStopping, stopRequested }),
      5_000,
      (text) => lines.push(text),
      { requests: () => () => undefined },
    );
  } catch (err) {
    thrown = err;
  }
  return { code, thrown, lines, url: f.url, paths: f.requests.map((r) => r.path) };
}

describe("daemon: a later start-up read answered 200 with something that is not the exchange's API", () => {
  it("GET /api/me/positions (the baseline): exit 1, the line names the URL read and the body field", async () => {
    const run = await startWith("/api/me/positions", { status: "ok" }, "cancel");
    expect(run.thrown).toBeUndefined();
    expect(run.code).toBe(DAEMON_EXIT.failed);
    expect(run.lines.join("")).toMatch(
      new RegExp(
        `^mm run: could not read the wallet's positions at start: exchange.baseUrl ${run.url}: ` +
          `GET /api/me/positions at ${run.url}/api/me/positions[^:]*: HTTP 200 malformed_response: ` +
          "body.positions: expected an array, got undefined; the answer is not the exchange API's: " +
          "check the setting; nothing was quoted; exit 1 \\(code start_read_failed\\)\n$",
      ),
    );
    expect(run.paths).not.toContain("/api/orders/place");
  });

  it("a quoted token's position quantity finer than the 6 decimals of a share: the start says so", async () => {
    const position = { tokenId: ARG.yesTokenId, quantity: "1.1234567" };
    const run = await startWith("/api/me/positions", { positions: [position] }, "cancel");
    expect(run.thrown).toBeUndefined();
    expect(run.code).toBe(DAEMON_EXIT.failed);
    // It used to end as "mm run: unexpected error: unreadable position quantity at start".
    expect(run.lines.join("")).toBe(
      `mm run: could not start: the wallet's positions answer gives token ${ARG.yesTokenId} a quantity ` +
        'that is no exact number of shares (a decimal string of at most 6 decimals): "1.1234567": ' +
        "quantity has more than 6 decimals; nothing was quoted; exit 1 (code engine_start_failed)\n",
    );
  });

  it("GET /api/orders/open before the start-up cancel (policy cancel): named the same way", async () => {
    const run = await startWith("/api/orders/open", "<html>gateway</html>", "cancel");
    expect(run.thrown).toBeUndefined();
    expect(run.code).toBe(DAEMON_EXIT.failed);
    expect(run.lines.join("")).toContain(
      `mm run: could not read the wallet's open orders at start: exchange.baseUrl ${run.url}: GET /api/orders/open at ${run.url}/api/orders/open`,
    );
    expect(run.lines.join("")).toContain(
      `HTTP 200 malformed_response: expected a JSON body, got "<html>gateway</html>"; the answer is not the exchange API's`,
    );
  });

  it("GET /api/me/trades in the start-up reconcile (policy adopt): the reconcile's cause is named, exit 1", async () => {
    const run = await startWith("/api/me/trades", { trades: "none" }, "adopt");
    expect(run.thrown).toBeUndefined();
    expect(run.code).toBe(DAEMON_EXIT.failed);
    const line = run.lines.join("");
    expect(line).toContain(
      `mm run: could not read the wallet's trades at start: exchange.baseUrl ${run.url}: GET /api/me/trades at ${run.url}/api/me/trades`,
    );
    expect(line).toContain("HTTP 200 malformed_response: body.trades: expected an array, got");
    expect(line).toMatch(
      /the answer is not the exchange API's: check the setting; nothing was quoted; exit 1 \(code start_read_failed\)\n$/,
    );
  });

  it("the REST front alone (the fixture above): a whole start passes through it to the mock", async () => {
    const { m, front: f } = await fronted(() => false);
    const { logger } = memoryLogger();
    const d = await startDaemon(daemonConfig(m, [ARG.slug], { MM_EXCHANGE_BASE_URL: f.url }), { logger });
    await d.stop("test over");
    expect(f.requests.map((r) => r.path)).toEqual(
      expect.arrayContaining(["/api/markets", "/api/me/positions", "/api/orders/open", "/api/me/trades"]),
    );
  });
});
