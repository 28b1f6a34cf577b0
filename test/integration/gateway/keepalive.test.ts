import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { GatewayClient } from "../../../src/gateway/client.js";
import type { GatewayClientOptions } from "../../../src/gateway/options.js";
import { settle, until } from "./harness.js";
import { type Answer, politeAnswer, RawServer, rawClient, runClock } from "./raw-server.js";

let server: RawServer | undefined;
let client: GatewayClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const TIMING = {
  pingIntervalMs: 1_000,
  silenceTimeoutMs: 3_000,
  commandTimeoutMs: 2_000,
  connectTimeoutMs: 2_000,
};

const clientOf = (url: string, clock: SimClock, over: Partial<GatewayClientOptions> = {}): GatewayClient =>
  rawClient(url, clock, TIMING, over);

const run = runClock;

describe("keepalive, watchdog and timeouts (SimClock, raw servers)", () => {
  it("pings on schedule and hears the pongs", async () => {
    server = await new RawServer(politeAnswer()).listen();
    const clock = new SimClock(0);
    client = clientOf(server.url, clock);
    const pongs: number[] = [];
    client.onPong((link) => pongs.push(link));
    await client.start();
    await run(clock, 5_000);
    await until(() => pongs.length === 5, "five pongs");
    expect(server.commands("ping")).toHaveLength(5);
    expect(client.counters).toMatchObject({ pings: 5, pongs: 5, watchdogTrips: 0, disconnects: 0 });
  });

  it("a server that stops answering pings (and sends nothing) trips the watchdog: reconnect and resubscribe", async () => {
    const polite = politeAnswer();
    // The first connection goes quiet after its first pong; later ones behave.
    let pongsOnFirst = 0;
    const answer: Answer = (c, conn) => {
      if (c.cmd === "ping" && conn.n === 0 && pongsOnFirst++ >= 1) return undefined;
      return polite(c, conn);
    };
    server = await new RawServer(answer).listen();
    const clock = new SimClock(0);
    client = clientOf(server.url, clock, { timing: { ...TIMING, commandTimeoutMs: 60_000 } });
    await client.start();
    await client.subscribe("token_book", ["42"]);
    await run(clock, 1_000); // one answered ping
    expect(client.counters.pongs).toBe(1);
    await run(clock, 2_750); // 3 s after that pong: not yet dead
    expect(client.counters.watchdogTrips).toBe(0);
    await run(clock, 500);
    await until(() => client?.counters.watchdogTrips === 1, "the watchdog");
    await until(() => client?.counters.reconnects === 1, "the reconnect", { clock, advanceMs: 100 });
    await until(
      () => server?.conns[1] !== undefined && server.commands("subscribe").length === 2,
      "the resubscribe",
    );
    expect(server.commands("subscribe")[1]?.params).toEqual({
      subscriptions: [{ channel: "token_book", ids: ["42"] }],
    });
    expect(client.counters).toMatchObject({ disconnects: 1, connectionsOpened: 2, commandTimeouts: 0 });
  });

  it("an unanswered command times out, drops the connection, and the subscribe completes after the reconnect", async () => {
    const polite = politeAnswer();
    // The first connection never answers subscribe (but answers pings, so only the command times out).
    const answer: Answer = (c, conn) => (c.cmd === "subscribe" && conn.n === 0 ? undefined : polite(c, conn));
    server = await new RawServer(answer).listen();
    const clock = new SimClock(0);
    client = clientOf(server.url, clock, { timing: { ...TIMING, silenceTimeoutMs: 60_000 } });
    await client.start();
    const outcome = client.subscribe("token_book", ["7", "8"]);
    await until(() => server?.commands("subscribe").length === 1, "the first subscribe");
    await run(clock, 2_000);
    await until(() => client?.counters.commandTimeouts === 1, "the timeout");
    await until(() => client?.counters.reconnects === 1, "the reconnect", { clock, advanceMs: 100 });
    await expect(outcome).resolves.toEqual({ accepted: ["7", "8"], rejected: [] });
    expect(client.counters.disconnects).toBe(1);
  });

  it("no connected frame within connectTimeoutMs: retried with growing back-off", async () => {
    server = await new RawServer(politeAnswer(), { connected: false }).listen();
    const clock = new SimClock(0);
    client = clientOf(server.url, clock, { random: () => 1 });
    const started = client.start();
    started.catch(() => undefined);
    // attempt 1 at 0; timeout at 2,000; back-off 500 → attempt 2 at 2,500; timeout 4,500; back-off 1,000 → 5,500
    await until(() => server?.conns.length === 1, "first attempt");
    await run(clock, 2_500, 100);
    await until(() => server?.conns.length === 2, "second attempt");
    await run(clock, 2_900, 100);
    await settle(20);
    expect(server.conns).toHaveLength(2);
    await run(clock, 200, 100);
    await until(() => server?.conns.length === 3, "third attempt");
    expect(client.counters.connectAttempts).toBe(3);
    expect(client.counters.connectionsOpened).toBe(0);
  });

  it("close() stops everything: pending subscribe rejects, no reconnect", async () => {
    server = await new RawServer((c, conn) =>
      c.cmd === "subscribe" ? undefined : politeAnswer()(c, conn),
    ).listen();
    const clock = new SimClock(0);
    client = clientOf(server.url, clock);
    await client.start();
    const pending = client.subscribe("token_book", ["1"]).catch((e: unknown) => e);
    await until(() => server?.commands("subscribe").length === 1, "the subscribe");
    await client.close();
    expect(await pending).toMatchObject({ code: "client_closed" });
    await run(clock, 10_000, 1_000);
    expect(server.conns).toHaveLength(1);
    expect(client.linkStates()).toEqual(["closed"]);
  });
});
