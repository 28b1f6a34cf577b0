import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import type { MockContext } from "../context.js";
import type { GatewayControl } from "../faults/gateway-control.js";
import { type CommandHooks, handleMessage } from "./commands.js";
import { Connection } from "./connection.js";
import { gatewayControl } from "./control.js";
import { bookRefusal } from "./feed-faults.js";
import { Feeds } from "./feeds.js";
import { errorFrame } from "./frames.js";
import { checkHandshake, gatewayAt } from "./handshake.js";
import { Hub } from "./hub.js";

export interface GatewayOptions {
  /**
   * Origins a browser may connect from ("*" = any). Default: none, so every request carrying an
   * Origin header is closed with 1008; server-side clients send no Origin and are unaffected.
   */
  readonly allowedOrigins?: readonly string[];
  /** A socket whose unsent frames exceed this is terminated (a client that stopped reading); default 16 MiB. */
  readonly maxBufferedBytes?: number;
}

/** The running gateways: GatewayControl for the admin API, and shutdown. */
export interface Gateways extends GatewayControl {
  /** Stops accepting upgrades, closes every socket (1001) and releases timers and the venue listener. */
  close(): Promise<void>;
}

// Client frames are small commands; anything bigger is a client bug or abuse.
const MAX_CLIENT_FRAME_BYTES = 1 << 20;
const CLOSE_GRACE_MS = 1_000;
const DEFAULT_MAX_BUFFERED_BYTES = 16 << 20;

/**
 * Serves /ws/market and /ws/user on an existing HTTP server (same port as the HTTP API), through
 * its `upgrade` event: handshake checks (handshake.ts), the `connected` frame, commands
 * (commands.ts) and every channel (feeds.ts), fed by one listener on ctx.venue.
 * @example
 * const http = await listenHttp(ctx, routes);
 * const gateways = attachGateways(http.server, ctx, { allowedOrigins: [] });
 * // ws://127.0.0.1:<port>/ws/market with header X-Api-Key
 */
export function attachGateways(server: Server, ctx: MockContext, opts: GatewayOptions = {}): Gateways {
  const allowedOrigins = opts.allowedOrigins ?? [];
  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    maxPayload: MAX_CLIENT_FRAME_BYTES,
  });
  const hub = new Hub();
  const feeds = new Feeds(ctx, hub);
  const connections = new Set<Connection>();
  const stopListening = ctx.venue.subscribe((e) => feeds.onVenueEvent(e));
  const hooks: CommandHooks = {
    afterSubscribe: (sub, ids) => feeds.afterSubscribe(sub, ids),
    sendBookSnapshot: (sub, tokenId) => feeds.book.sendSnapshot(sub, tokenId),
    bookRefusal: (tokenId) => bookRefusal(ctx.faults, tokenId),
    now: () => ctx.clock.now(),
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const gateway = gatewayAt(new URL(req.url ?? "/", "http://mock.invalid").pathname);
    if (gateway === undefined) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const verdict = checkHandshake(ctx, req, gateway, allowedOrigins);
    // Failures are close frames after the upgrade, never HTTP errors (spec: no other fallback).
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (!verdict.ok) {
        ws.close(verdict.code, verdict.reason);
        return;
      }
      const conn = new Connection(ws, gateway, verdict.identity, {
        index: hub.index,
        clock: ctx.clock,
        faults: ctx.faults,
        maxBufferedBytes: opts.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
      });
      connections.add(conn);
      ws.on("message", (data) => {
        try {
          handleMessage(conn, Array.isArray(data) ? Buffer.concat(data).toString() : data.toString(), hooks);
        } catch (err) {
          ctx.log.error({ err, gateway }, "mock ws: command handling failed");
          conn.send(errorFrame(null, "internal_error", "the command failed inside the mock"));
        }
      });
      ws.on("close", () => {
        connections.delete(conn);
        conn.dispose();
      });
      ws.on("error", (err) => ctx.log.debug({ err, gateway }, "mock ws: socket error"));
      conn.send(JSON.stringify({ type: "connected", data: connectedData(conn), serverTs: ctx.clock.now() }));
    });
  };
  server.on("upgrade", onUpgrade);

  return {
    ...gatewayControl(connections, feeds),
    close: async () => {
      server.off("upgrade", onUpgrade);
      stopListening();
      feeds.dispose();
      const closed = [...connections].map(
        (c) =>
          new Promise<void>((resolve) =>
            c.ws.readyState === c.ws.CLOSED ? resolve() : c.ws.once("close", () => resolve()),
          ),
      );
      for (const c of connections) c.close(1001, "server shutting down");
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(closed),
        new Promise<void>((r) => (timer = setTimeout(r, CLOSE_GRACE_MS))),
      ]);
      clearTimeout(timer);
      for (const c of connections) c.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/**
 * The `connected` frame's data. /ws/market: the spec's fields. /ws/user (not shown in the spec):
 * the same fields with gateway "user", plus the bound walletAddress and vaultAddress.
 */
function connectedData(conn: Connection): Record<string, unknown> {
  const base = {
    gateway: conn.gateway,
    authMethod: "api_key",
    protocolVersion: 2,
    partnerId: conn.partnerId,
  };
  if (conn.gateway === "market") return base;
  return { ...base, walletAddress: conn.wallet, vaultAddress: conn.identity.wallet.vault };
}
