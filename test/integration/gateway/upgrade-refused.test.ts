import { createServer, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { LiveClock } from "../../../src/core/live-clock.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import type { GatewayFatalError } from "../../../src/gateway/errors.js";

let client: GatewayClient | undefined;
let server: Server | undefined;
const sockets: Duplex[] = [];
afterEach(async () => {
  await client?.close();
  client = undefined;
  for (const s of sockets.splice(0)) s.destroy();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** An HTTP server on 127.0.0.1 that answers every WebSocket upgrade with `answer` written raw. */
async function refusingServer(answer: string): Promise<number> {
  const s = createServer((_req, res) => res.end());
  s.on("upgrade", (_req, socket: Duplex) => {
    sockets.push(socket);
    socket.write(answer);
  });
  server = s;
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const address = s.address();
  return typeof address === "object" && address !== null ? address.port : 0;
}

function response(status: string, body: string, contentLength = Buffer.byteLength(body)): string {
  return `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${contentLength}\r\nConnection: close\r\n\r\n${body}`;
}

async function fatalOf(port: number, connectTimeoutMs = 2_000): Promise<GatewayFatalError> {
  const c = new GatewayClient({
    url: `ws://127.0.0.1:${port}`,
    gateway: "user",
    apiKey: "mm_test_k1_secretsecretsecret",
    clock: new LiveClock(),
    timing: { connectTimeoutMs, backoff: { baseMs: 10, maxMs: 20 } },
  });
  client = c;
  const started = await c.start().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(started).toBeDefined();
  const fatal = c.fatal;
  if (fatal === undefined) throw new Error("no fatal close");
  return fatal;
}

/*
 * The spec's WebSocket handshake refusals are 4401 close frames after the upgrade. An upgrade
 * refused over HTTP 401/403 is the key's only when its body carries the exchange's error code;
 * otherwise it is whatever else answers at exchange.wsUrl (a proxy's login page), exit 1 with the
 * body quoted (session 14: it was exit 3, "the API key refused for good").
 */
describe("an upgrade refused over HTTP 401/403", () => {
  it("with a proxy's page: upgrade_rejected, the page quoted", async () => {
    const port = await refusingServer(response("401 Unauthorized", "<html>Sign in to Corp Proxy</html>"));
    const fatal = await fatalOf(port);
    expect(fatal.code).toBe("upgrade_rejected");
    expect(fatal.details).toMatchObject({ httpStatus: 401, body: '"<html>Sign in to Corp Proxy</html>"' });
  });

  it("with the exchange's error envelope: named by its code (the key's)", async () => {
    const body = JSON.stringify({
      status: 401,
      error: { code: "api_key_revoked", message: "API key revoked" },
    });
    const fatal = await fatalOf(await refusingServer(response("401 Unauthorized", body)));
    expect(fatal.code).toBe("api_key_revoked");
    expect(fatal.details).toMatchObject({ httpStatus: 401 });
  });

  it("whose body never ends: upgrade_rejected at the connect timeout, not a hang or the key", async () => {
    const port = await refusingServer(response("403 Forbidden", '{"code":"api_key_ip', 500));
    const started = Date.now();
    const fatal = await fatalOf(port, 200);
    expect(fatal.code).toBe("upgrade_rejected");
    expect(fatal.details.body).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
