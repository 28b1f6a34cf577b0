import { createServer, type Server } from "node:http";
import { type WebSocket, WebSocketServer } from "ws";
import type { SimClock } from "../../../src/core/sim-clock.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import type { GatewayClientOptions } from "../../../src/gateway/options.js";

/** A command a scripted server received. */
export interface Received {
  readonly id: string;
  readonly cmd: string;
  readonly params: Record<string, unknown> | undefined;
}

/** What a scripted connection can do. */
export interface RawConn {
  readonly ws: WebSocket;
  /** Index of the connection (0 = first accepted). */
  readonly n: number;
  sendText(text: string): void;
  send(frame: unknown): void;
}

/** How the server answers: return a reply object, or undefined to stay silent. */
export type Answer = (c: Received, conn: RawConn) => Record<string, unknown> | undefined;

/** A well-behaved answer: subscriptions accepted with increasing sids, pongs, acks. */
export function politeAnswer(): Answer {
  let sid = 1;
  // What it holds, so that list_subscriptions tells the truth (sids are unique across sockets).
  const held = new Map<unknown, { sid: number; channel: string; ids: string[] }>();
  return (c) => {
    switch (c.cmd) {
      case "subscribe": {
        const subs = (c.params?.subscriptions ?? []) as { channel: string; ids?: string[] }[];
        const accepted = subs.map((s) => ({ sid: sid++, channel: s.channel, ids: s.ids ?? [] }));
        for (const a of accepted) held.set(a.sid, { ...a, ids: [...a.ids] });
        return { type: "subscribed", accepted, rejected: [] };
      }
      case "ping":
        return { type: "pong", serverTs: 1 };
      case "update_subscription": {
        const h = held.get(c.params?.sid);
        if (h !== undefined) {
          const remove = new Set((c.params?.remove_ids ?? []) as string[]);
          h.ids = [...h.ids.filter((id) => !remove.has(id)), ...((c.params?.add_ids ?? []) as string[])];
        }
        return { type: "subscription_updated", sid: c.params?.sid };
      }
      case "unsubscribe":
        held.delete(c.params?.sid);
        return { type: "unsubscribed", sids: [c.params?.sid] };
      case "list_subscriptions":
        return { type: "subscriptions", subscriptions: [...held.values()] };
      default:
        return { type: "error", code: "invalid_params", message: "unknown" };
    }
  };
}

/** politeAnswer, plus an acknowledgement of get_book_snapshot (which politeAnswer refuses). */
export function ackingSnapshots(): Answer {
  const polite = politeAnswer();
  return (c, conn) =>
    c.cmd === "get_book_snapshot"
      ? { type: "book_snapshot_requested", tokenId: c.params?.tokenId }
      : polite(c, conn);
}

/**
 * `polite`, except that get_book_snapshot is refused invalid_params ("not subscribed", though the
 * server holds the book) and list_subscriptions, the client's check after such a refusal, is
 * answered `list` (undefined: never answered).
 */
export function refusingSnapshots(polite: Answer, list: Record<string, unknown> | undefined): Answer {
  return (c, conn) =>
    c.cmd === "get_book_snapshot"
      ? { type: "error", code: "invalid_params", message: "not subscribed" }
      : c.cmd === "list_subscriptions"
        ? list
        : polite(c, conn);
}

/**
 * politeAnswer, except that the first `refusals` subscribes on a reconnected socket (n ≥ 1) are
 * refused with `code`.
 */
export function refusingResubscribe(code: string, refusals: number): Answer {
  const polite = politeAnswer();
  let left = refusals;
  return (c, conn) => {
    if (c.cmd === "subscribe" && conn.n >= 1 && left > 0) {
      left--;
      const subs = (c.params?.subscriptions ?? []) as { channel: string; ids?: string[] }[];
      return {
        type: "subscribed",
        accepted: [],
        rejected: subs.map((s) => ({ channel: s.channel, ids: s.ids ?? [], code, message: "refused" })),
      };
    }
    return polite(c, conn);
  };
}

/**
 * A tiny WebSocket server on 127.0.0.1 that sends a `connected` frame (unless told not to) and
 * answers commands with `answer`, recording them: for frames and behaviours the mock never
 * produces (garbage, silence, a wrong protocol version).
 */
export class RawServer {
  readonly received: Received[] = [];
  readonly conns: RawConn[] = [];
  readonly #http: Server;
  readonly #wss: WebSocketServer;
  url = "";

  constructor(
    answer: Answer,
    opts: { connected?: ((n: number) => unknown) | false; onConnection?: (c: RawConn) => void } = {},
  ) {
    this.#http = createServer((_req, res) => {
      res.writeHead(426);
      res.end();
    });
    this.#wss = new WebSocketServer({ server: this.#http });
    this.#wss.on("connection", (ws) => {
      const conn: RawConn = {
        ws,
        n: this.conns.length,
        sendText: (text) => ws.send(text),
        send: (frame) => ws.send(JSON.stringify(frame)),
      };
      this.conns.push(conn);
      ws.on("message", (data) => {
        const f = JSON.parse(String(data)) as { id: string; cmd: string; params?: Record<string, unknown> };
        const c: Received = { id: f.id, cmd: f.cmd, params: f.params };
        this.received.push(c);
        const reply = answer(c, conn);
        if (reply !== undefined) ws.send(JSON.stringify({ id: f.id, ...reply }));
      });
      const connected =
        opts.connected ?? (() => ({ gateway: "market", authMethod: "api_key", protocolVersion: 2 }));
      if (connected !== false) conn.send({ type: "connected", data: connected(conn.n) });
      opts.onConnection?.(conn);
    });
  }

  /** Listens on 127.0.0.1 (ephemeral port); `url` is the gateway base (ws://127.0.0.1:port). */
  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.#http.listen(0, "127.0.0.1", resolve));
    const addr = this.#http.address();
    this.url = `ws://127.0.0.1:${typeof addr === "object" && addr !== null ? addr.port : 0}`;
    return this;
  }

  /** Commands received of one name. */
  commands(cmd: string): Received[] {
    return this.received.filter((c) => c.cmd === cmd);
  }

  async close(): Promise<void> {
    for (const c of this.#wss.clients) c.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }
}

/**
 * Advances a SimClock by `ms` in `step` ms steps, letting the sockets run (`settleMs` of real time)
 * between steps: the raw-server tests' way of passing simulated time over real WebSockets.
 */
export async function runClock(clock: SimClock, ms: number, step = 250, settleMs = 3): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    clock.advanceBy(step);
    await new Promise((r) => setTimeout(r, settleMs));
  }
}

/**
 * A /ws/market GatewayClient of a RawServer on `clock`, with key "k" and a fixed back-off jitter
 * (random 0.5); `over` replaces any option (timing, limits, …).
 */
export function rawClient(
  url: string,
  clock: SimClock,
  timing: NonNullable<GatewayClientOptions["timing"]>,
  over: Partial<GatewayClientOptions> = {},
): GatewayClient {
  return new GatewayClient({
    url,
    gateway: "market",
    apiKey: "k",
    clock,
    random: () => 0.5,
    timing,
    ...over,
  });
}
