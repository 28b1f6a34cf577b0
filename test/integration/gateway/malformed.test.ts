import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import { CommandRejectedError, GatewayFatalError } from "../../../src/gateway/errors.js";
import type { ChannelEvent } from "../../../src/gateway/schema/events.js";
import { settle, until } from "./harness.js";
import { politeAnswer, RawServer } from "./raw-server.js";

const TOKEN = "123456";
const COND = `0x${"ab".repeat(32)}`;
let server: RawServer | undefined;
let client: GatewayClient;
afterEach(async () => {
  await client?.close();
  await server?.close();
  server = undefined;
});

const trade = (over: Record<string, unknown> = {}, env: Record<string, unknown> = {}) => ({
  type: "trade_matched",
  sid: 1,
  channel: "token_trade_matches",
  id: TOKEN,
  ...env,
  data: {
    tokenId: TOKEN,
    conditionId: COND,
    outcomeIndex: 0,
    tradeId: "t-1",
    price: "0.53",
    quantity: "10",
    side: "buy",
    source: "matcher",
    tsMs: 1_000,
    ...over,
  },
});

/** Each garbage frame and the counter it must land in. */
const GARBAGE: [string, unknown, string][] = [
  ["not JSON", "{nope", "not_json"],
  ["a JSON array", [1, 2], "not_object"],
  ["a JSON string", "hello", "not_object"],
  ["no type", { sid: 1, data: {} }, "missing_type"],
  [
    "an unknown event type",
    { type: "mystery", sid: 1, channel: "token_book", id: TOKEN, data: {} },
    "unknown_type",
  ],
  ["a type on the wrong channel", trade({}, { channel: "token_book" }), "wrong_channel"],
  [
    "a /ws/user event on /ws/market",
    { type: "user_fill", sid: 1, channel: "user_fills", data: {} },
    "wrong_gateway",
  ],
  ["no sid", trade({}, { sid: undefined }), "bad_envelope"],
  ["data not an object", { ...trade(), data: [1] }, "bad_data"],
  ["a decimal as a JSON number", trade({ price: 0.53 }), "bad_field"],
  ["a missing field", trade({ tradeId: undefined }), "bad_field"],
  ["a negative outcomeIndex", trade({ outcomeIndex: -1 }), "bad_field"],
  ["an uppercase conditionId", trade({ conditionId: COND.toUpperCase() }), "bad_field"],
  ["an envelope id that is not the token", trade({}, { id: "999" }), "id_mismatch"],
  [
    "a book seq that is a string",
    {
      type: "book_delta",
      sid: 2,
      channel: "token_book",
      id: TOKEN,
      data: { tokenId: TOKEN, seq: "7", prevSeq: 6, changes: [] },
    },
    "book_bad_seq",
  ],
  [
    "a book token that is not decimal",
    {
      type: "book_snapshot",
      sid: 2,
      channel: "token_book",
      id: "x1",
      data: { tokenId: "x1", seq: 1, bids: [], asks: [] },
    },
    "book_bad_token",
  ],
];

describe("malformed frames are counted per reason and dropped, never thrown", () => {
  it("garbage from a raw server: every frame counted, valid ones around it still delivered", async () => {
    server = await new RawServer(politeAnswer()).listen();
    client = new GatewayClient({ url: server.url, gateway: "market", apiKey: "k", clock: new SimClock(0) });
    const events: ChannelEvent[] = [];
    client.onEvent((e) => events.push(e));
    await client.start();
    await client.subscribe("token_trade_matches", [TOKEN]);
    await client.subscribe("token_book", [TOKEN]);
    const conn = server?.conns[0];
    if (conn === undefined) throw new Error("no connection");
    conn.send(trade());
    for (const [, frame] of GARBAGE) {
      if (typeof frame === "string" && frame.startsWith("{")) conn.sendText(frame);
      else conn.send(frame);
    }
    conn.ws.send(Buffer.from([1, 2, 3]), { binary: true }); // a binary frame: not JSON text
    conn.send(trade({ tokenId: "777" }, { id: "777" })); // valid, but nobody subscribed 777
    conn.send({ id: "c999", type: "pong" }); // a reply nobody waits for
    conn.send({ type: "connected", data: { protocolVersion: 2 } }); // a second connected frame
    conn.send(trade({ tradeId: "t-2" }));
    await client.ping(); // frames are ordered: once the pong is in, all of the above is too

    const expected: Record<string, number> = {};
    for (const [, , reason] of GARBAGE) expected[reason] = (expected[reason] ?? 0) + 1;
    expected.not_json = (expected.not_json ?? 0) + 1; // the binary frame
    expect(client.counters.malformed).toEqual(expected);
    expect(client.counters.dropped).toEqual({ unsolicited: 1, late_reply: 1, extra_connected: 1 });
    expect(events.map((e) => (e.type === "trade_matched" ? e.tradeId : e.type))).toEqual(["t-1", "t-2"]);
    expect(events[0]).toEqual({
      type: "trade_matched",
      tokenId: TOKEN,
      conditionId: COND,
      outcomeIndex: 0,
      tradeId: "t-1",
      price: "0.53",
      quantity: "10",
      side: "buy",
      source: "matcher",
      tsMs: 1_000,
    });
    expect(client.lastMalformed).toMatchObject({ rejected: "book_bad_token" });
    expect(client.linkStates()).toEqual(["open"]);
    expect(client.counters.disconnects).toBe(0);
  });

  it("a listener that throws is isolated: the socket lives and the next frames arrive", async () => {
    server = await new RawServer(politeAnswer()).listen();
    client = new GatewayClient({ url: server.url, gateway: "market", apiKey: "k", clock: new SimClock(0) });
    const seen: string[] = [];
    client.onEvent(() => {
      throw new Error("listener bug");
    });
    client.onEvent((e) => seen.push(e.type === "trade_matched" ? e.tradeId : e.type));
    await client.start();
    await client.subscribe("token_trade_matches", [TOKEN]);
    server?.conns[0]?.send(trade());
    server?.conns[0]?.send(trade({ tradeId: "t-2" }));
    await client.ping();
    expect(seen).toEqual(["t-1", "t-2"]);
    expect(client.counters.dropped.listener_error).toBe(2);
  });

  it("an error reply rejects the command with CommandRejectedError and the server's code", async () => {
    server = await new RawServer((c) =>
      c.cmd === "ping"
        ? { type: "error", cmd: "ping", code: "rate_limited", message: "slow down" }
        : undefined,
    ).listen();
    client = new GatewayClient({ url: server.url, gateway: "market", apiKey: "k", clock: new SimClock(0) });
    await client.start();
    const err = await client.ping().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandRejectedError);
    expect(err).toMatchObject({ code: "rate_limited", cmd: "ping", details: { serverMessage: "slow down" } });
    expect(client.linkStates()).toEqual(["open"]);
  });

  it("a /ws/market connect frame with protocolVersion other than 2 is fatal", async () => {
    server = await new RawServer(politeAnswer(), {
      connected: () => ({ gateway: "market", protocolVersion: 3 }),
    }).listen();
    const clock = new SimClock(0);
    client = new GatewayClient({ url: server.url, gateway: "market", apiKey: "k", clock });
    const err = await client.start().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayFatalError);
    expect(err).toMatchObject({ code: "unsupported_protocol_version", details: { protocolVersion: 3 } });
    clock.advanceBy(60_000);
    await settle(20);
    expect(client.counters.connectAttempts).toBe(1);
  });

  it("an upgrade refused over HTTP: 4xx is fatal, 5xx is retried", async () => {
    const { createServer } = await import("node:http");
    const statuses = [503, 401];
    const http = createServer((_req, res) => {
      res.writeHead(statuses.shift() ?? 401);
      res.end();
    });
    await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
    const addr = http.address();
    const clock = new SimClock(0);
    client = new GatewayClient({
      url: `ws://127.0.0.1:${typeof addr === "object" && addr !== null ? addr.port : 0}`,
      gateway: "market",
      apiKey: "k",
      clock,
      random: () => 0,
    });
    const started = client.start().catch((e: unknown) => e);
    await until(() => client.linkStates()[0] === "backoff", "the 503 to be retried");
    clock.advanceBy(1_000);
    const err = await started;
    expect(err).toMatchObject({ code: "upgrade_rejected", details: { httpStatus: 401 } });
    expect(client.counters.connectAttempts).toBe(2);
    await new Promise<void>((r) => http.close(() => r()));
  });
});
