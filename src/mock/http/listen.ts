import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import type { MockContext } from "../context.js";
import type { Route } from "./route.js";
import { createRequestListener } from "./server.js";

/** A listening HTTP server of the mock. */
export interface HttpListener {
  readonly server: Server;
  /** e.g. http://127.0.0.1:43117 */
  readonly url: string;
  readonly port: number;
  /** Closes the server and every open socket (hung requests included). */
  close(): Promise<void>;
}

/**
 * Serves `routes` on host:port (default 127.0.0.1 and an ephemeral port). The server object is
 * exposed so the WebSocket gateways can share its port through the `upgrade` event.
 */
export async function listenHttp(
  ctx: MockContext,
  routes: readonly Route[],
  opts: { host?: string; port?: number } = {},
): Promise<HttpListener> {
  const host = opts.host ?? "127.0.0.1";
  const server = createServer({ keepAliveTimeout: 5_000 }, createRequestListener(ctx, routes));
  const sockets = new Set<Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const hostForUrl = host.includes(":") ? `[${host}]` : host;
  return {
    server,
    port,
    url: `http://${hostForUrl}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
