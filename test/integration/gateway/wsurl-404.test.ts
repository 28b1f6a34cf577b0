import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { LiveClock } from "../../../src/core/live-clock.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";

let client: GatewayClient | undefined;
let server: Server | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** An HTTP server on 127.0.0.1 that answers every WebSocket upgrade 404 (a wrong path prefix). */
async function notFoundServer(): Promise<number> {
  const s = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  s.on("upgrade", (_req, socket) => {
    socket.end("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  });
  server = s;
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const address = s.address();
  return typeof address === "object" && address !== null ? address.port : 0;
}

/**
 * README "Running": a wrong `exchange.wsUrl` is named. The commonest wrong wsUrl on a reachable
 * host is a wrong path (e.g. `ws://host:8080/api`): the server answers the upgrade 404, a fatal
 * `upgrade_rejected`. Its fatal line now names the setting and the URL (found by review: it said
 * only "gateway: fatal close", and `mm run` blamed the API key, exit 3).
 */
describe("a wrong exchange.wsUrl path (upgrade answered 404)", () => {
  it("names exchange.wsUrl and the URL, as for a refused connection", async () => {
    const port = await notFoundServer();
    const sink = collectingStream();
    const logger = createLogger({ level: "info", pretty: false, destination: sink });
    const c = new GatewayClient({
      url: `ws://127.0.0.1:${port}/wrong-prefix`,
      gateway: "market",
      apiKey: "mm_test_k1_secretsecretsecret",
      clock: new LiveClock(),
      logger,
      timing: { backoff: { baseMs: 10, maxMs: 20 } },
    });
    client = c;
    c.start().catch(() => undefined);
    // The 404 is fatal (a wrong path does not heal); wait for the fatal close (or retries).
    const end = Date.now() + 5_000;
    while (
      c.fatal === undefined &&
      sink.records().filter((r) => r.msg === "gateway: connection lost; reconnecting").length < 2
    ) {
      if (Date.now() > end) throw new Error("neither a fatal close nor a retry");
      await new Promise((r) => setTimeout(r, 10));
    }
    // The README's promise: the setting and the URL are named.
    const named = sink.records().filter((r) => r.setting === "exchange.wsUrl");
    expect(named).toHaveLength(1);
    expect(String(named[0]?.msg)).toContain(`ws://127.0.0.1:${port}/wrong-prefix/ws/market`);
    expect(sink.text()).not.toContain("secretsecretsecret");
  });
});
