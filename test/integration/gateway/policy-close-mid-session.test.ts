import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { GatewayClient } from "../../../src/gateway/client.js";
import type { GatewayFatalError } from "../../../src/gateway/errors.js";
import { politeAnswer, RawServer, rawClient, runClock } from "./raw-server.js";

/*
 * The spec's one 1008 is "forbidden origin", a handshake failure. A 1008 after the `connected`
 * frame is RFC 6455's generic policy violation (a proxy between us and the exchange, say): it
 * used to stop the client for good (the daemon exits 3 as for a refused key, which a supervisor
 * may not restart). It is now a lost connection, reconnected and resubscribed; a 1008 at the
 * reconnect's handshake is still fatal.
 */

let server: RawServer | undefined;
let client: GatewayClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const marketClient = (url: string, clock: SimClock): GatewayClient =>
  rawClient(url, clock, { pingIntervalMs: 60_000, silenceTimeoutMs: 120_000, commandTimeoutMs: 2_000 });

describe("a 1008 close", () => {
  it("after the connected frame: reconnects and resubscribes, nothing fatal", async () => {
    server = await new RawServer(politeAnswer()).listen();
    const clock = new SimClock(0);
    client = marketClient(server.url, clock);
    const fatal: GatewayFatalError[] = [];
    client.onFatal((e) => fatal.push(e));
    await client.start();
    await client.subscribe("token_book", ["42"]);
    server.conns[0]?.ws.close(1008, "policy violation");
    await runClock(clock, 5_000);
    expect(fatal).toEqual([]);
    expect(client.counters.connectAttempts).toBe(2);
    expect(server.conns).toHaveLength(2);
    // The subscription is sent again on the new socket.
    expect(server.commands("subscribe")).toHaveLength(2);
  });

  it("at the reconnect's handshake (no connected frame): fatal, no further attempt", async () => {
    server = await new RawServer(politeAnswer(), {
      connected: false,
      onConnection: (c) => {
        if (c.n === 0)
          c.send({
            type: "connected",
            data: { gateway: "market", authMethod: "api_key", protocolVersion: 2 },
          });
        else c.ws.close(1008, "forbidden origin");
      },
    }).listen();
    const clock = new SimClock(0);
    client = marketClient(server.url, clock);
    const fatal: GatewayFatalError[] = [];
    client.onFatal((e) => fatal.push(e));
    await client.start();
    server.conns[0]?.ws.close(1008, "policy violation");
    await runClock(clock, 60_000, 1_000);
    expect(fatal.map((e) => [e.code, e.closeCode])).toEqual([["forbidden_origin", 1008]]);
    expect(client.counters.connectAttempts).toBe(2);
  });
});
