import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { GatewayClient } from "../../../src/gateway/client.js";
import { type Answer, politeAnswer, RawServer, rawClient, runClock } from "./raw-server.js";

/*
 * The spec shows the payload of the `subscribe` reply only ("Payloads of the WebSocket commands
 * other than subscribe: not shown"); events carry theirs under `data`. A server whose pong puts
 * its fields under `data` ({id, type: "pong", data: {serverTs}}) answers every ping, with the
 * ping's own correlation id. GatewayConnection only takes a frame as a reply when it has no
 * `data`, so the pong goes to the event parser (unknown_type, counted malformed), the ping stays
 * pending, times out after commandTimeoutMs and drops the connection: a healthy socket is torn
 * down (and every book resynced) at every ping, for ever. The same holds for a reply whose `type`
 * is not one of the names the client guesses (REPLY_TYPES): the spec names none but `subscribed`,
 * so an update_subscription acknowledged as, say, `updated` times out and drops the connection.
 * A frame echoing the correlation id of a pending command is that command's reply, whatever its
 * type or shape (event envelopes carry token/condition/vault ids, never the client's `c<n>`).
 */

let server: RawServer | undefined;
let client: GatewayClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

describe("a command reply is known by the correlation id it echoes", () => {
  it("a pong under `data`, echoing the ping's id, is the ping's answer: no timeout, no disconnect", async () => {
    const polite = politeAnswer();
    const answer: Answer = (c, conn) =>
      c.cmd === "ping" ? { type: "pong", data: { serverTs: 1 } } : polite(c, conn);
    server = await new RawServer(answer).listen();
    const clock = new SimClock(0);
    client = rawClient(server.url, clock, {
      pingIntervalMs: 1_000,
      silenceTimeoutMs: 30_000,
      commandTimeoutMs: 2_000,
    });
    const serverTs: (number | undefined)[] = [];
    client.onPong((_link, _rtt, ts) => serverTs.push(ts));
    await client.start();
    await client.subscribe("token_book", ["42"]);
    await runClock(clock, 6_000);
    expect(serverTs[0]).toBe(1); // read from under `data`
    expect(client.counters.commandTimeouts).toBe(0);
    expect(client.counters.disconnects).toBe(0);
    expect(server.commands("ping").length).toBeGreaterThanOrEqual(5);
    expect(client.counters.pongs).toBeGreaterThanOrEqual(5);
  });

  it("counts every ping reply matched by its correlation id as a pong, whatever its type; a stray pong frame is not one", async () => {
    // counters.pongs counted frames typed `pong`: a server acknowledging pings as `heartbeat` (or
    // under `data` with an ack type) answered every ping and showed none, while a `pong` frame
    // echoing no ping of ours counted as one.
    let n = 0;
    const polite = politeAnswer();
    const answer: Answer = (c, conn) => {
      if (c.cmd !== "ping") return polite(c, conn);
      if (n === 0) conn.send({ id: "c999", type: "pong" }); // echoes no ping: a late reply, not a pong
      return n++ % 2 === 0 ? { type: "heartbeat" } : { type: "ack", data: { serverTs: 7 } };
    };
    server = await new RawServer(answer).listen();
    const clock = new SimClock(0);
    client = rawClient(server.url, clock, {
      pingIntervalMs: 1_000,
      silenceTimeoutMs: 30_000,
      commandTimeoutMs: 2_000,
    });
    let heard = 0;
    client.onPong(() => heard++);
    await client.start();
    await runClock(clock, 4_500);
    expect(client.counters.pings).toBe(4);
    expect(heard).toBe(4);
    expect(client.counters.pongs).toBe(4);
    expect(client.counters.framesByType).toMatchObject({ other: 4, pong: 1 });
    expect(client.counters.dropped.late_reply).toBe(1);
    expect(client.counters.commandTimeouts).toBe(0);
  });

  it("a ping refused with an error reply is a rejection, not a pong", async () => {
    const polite = politeAnswer();
    const answer: Answer = (c, conn) =>
      c.cmd === "ping" ? { type: "error", code: "rate_limited", message: "slow down" } : polite(c, conn);
    server = await new RawServer(answer).listen();
    const clock = new SimClock(0);
    client = rawClient(server.url, clock, {
      pingIntervalMs: 1_000,
      silenceTimeoutMs: 30_000,
      commandTimeoutMs: 2_000,
    });
    await client.start();
    await runClock(clock, 2_500);
    expect(client.counters.pings).toBe(2);
    expect(client.counters.pongs).toBe(0);
    expect(client.counters.commandRejections).toBe(2);
  });

  it("an update_subscription acknowledged with a type the client does not list settles the command", async () => {
    const polite = politeAnswer();
    const answer: Answer = (c, conn) =>
      c.cmd === "update_subscription" ? { type: "updated", sid: c.params?.sid } : polite(c, conn);
    server = await new RawServer(answer).listen();
    const clock = new SimClock(0);
    client = rawClient(server.url, clock, {
      pingIntervalMs: 60_000,
      silenceTimeoutMs: 120_000,
      commandTimeoutMs: 2_000,
    });
    await client.start();
    await client.subscribe("token_book", ["42"]);
    const second = client.subscribe("token_book", ["43"]); // same subscription: update_subscription add_ids
    await runClock(clock, 3_000);
    expect(server.commands("update_subscription")).toHaveLength(1);
    expect(client.counters.commandTimeouts).toBe(0);
    expect(client.counters.disconnects).toBe(0);
    expect((await second).accepted).toEqual(["43"]);
    // Counted as a reply of an unknown type, not as a malformed event.
    expect(client.counters.framesByType.other).toBe(1);
    expect(client.counters.malformed).toEqual({});
  });

  it("a frame of an unknown type echoing no pending id is still an event: counted malformed", async () => {
    const polite = politeAnswer();
    const answer: Answer = (c, conn) => {
      // A stray frame with an id the client never sent, then one with a pending id but a channel.
      if (c.cmd === "ping") conn.send({ id: "c999", type: "mystery" });
      if (c.cmd === "ping") conn.send({ id: c.id, type: "mystery", channel: "token_book", data: {} });
      return polite(c, conn);
    };
    server = await new RawServer(answer).listen();
    const clock = new SimClock(0);
    client = rawClient(server.url, clock, {
      pingIntervalMs: 1_000,
      silenceTimeoutMs: 30_000,
      commandTimeoutMs: 2_000,
    });
    await client.start();
    await runClock(clock, 1_500);
    expect(client.counters.pongs).toBe(1);
    expect(client.counters.malformed.unknown_type).toBe(2);
    expect(client.counters.framesByType.other).toBeUndefined();
    expect(client.counters.disconnects).toBe(0);
  });
});
