import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

/** What /ready reports: ready, or why not (e.g. "books not synced: 3 of 8"). */
export interface Readiness {
  readonly ready: boolean;
  readonly reason?: string;
}

export interface ObservabilityServerOptions {
  /** Default 127.0.0.1: metrics and health stay on loopback unless an operator opens them. */
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly registry: Registry;
  /** Called on every /ready; the wiring decides (books synced and account reconciled). */
  readonly readiness: () => Readiness;
}

/** A running observability server. */
export interface ObservabilityServer {
  /** e.g. http://127.0.0.1:9464 */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * Serves the operator endpoints:
 * - `GET /metrics`: the registry in the Prometheus text format;
 * - `GET /health`: 200 while the process serves (liveness);
 * - `GET /ready`: 200 `{"ready":true}` once `readiness()` says so, else 503 with `{"ready":false,"reason"}`;
 * - anything else 404, a method other than GET/HEAD 405. A failing registry or readiness check
 *   answers 500 without taking the process down.
 * @example
 * const srv = await startObservabilityServer({ port: 9464, registry, readiness: () => ({ ready: engine.status().reconciled }) });
 * await srv.close();
 */
export async function startObservabilityServer(
  opts: ObservabilityServerOptions,
): Promise<ObservabilityServer> {
  const server = createServer((req, res) => {
    handle(opts, req, res).catch((err: unknown) => {
      send(
        res,
        500,
        "text/plain; charset=utf-8",
        `internal error: ${err instanceof Error ? err.message : "unknown"}\n`,
      );
    });
  });
  // Scrapers keep connections alive between scrapes; close() must not wait for them.
  server.keepAliveTimeout = 5_000;
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    server,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

async function handle(
  opts: ObservabilityServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = (req.url ?? "/").split("?")[0];
  if (path !== "/metrics" && path !== "/health" && path !== "/ready") {
    return send(res, 404, "text/plain; charset=utf-8", "not found\n");
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("allow", "GET, HEAD");
    return send(res, 405, "text/plain; charset=utf-8", "method not allowed\n");
  }
  if (path === "/metrics") {
    const body = await opts.registry.metrics();
    return send(res, 200, opts.registry.contentType, body, req.method === "HEAD");
  }
  if (path === "/health")
    return send(res, 200, "application/json", '{"status":"ok"}\n', req.method === "HEAD");
  const r = opts.readiness();
  const body = r.ready ? { ready: true } : { ready: false, reason: r.reason ?? "not ready" };
  return send(
    res,
    r.ready ? 200 : 503,
    "application/json",
    `${JSON.stringify(body)}\n`,
    req.method === "HEAD",
  );
}

function send(res: ServerResponse, status: number, type: string, body: string, headOnly = false): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, {
    "content-type": type,
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
  });
  res.end(headOnly ? undefined : body);
}
