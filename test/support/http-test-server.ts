import http, { type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A request as the test server saw it, body fully read. */
export interface RecordedRequest {
  method: string;
  /** Raw request target (path and query, as sent). */
  url: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  bodyText: string;
  /** Parsed body; undefined when empty or not JSON. */
  json: unknown;
  /** 1-based id of the TCP connection it arrived on (same id = same keep-alive socket). */
  connectionId: number;
  remotePort: number;
  /** `now()` at the moment the body was read (the test's clock when given, else Date.now()). */
  receivedAt: number;
}

/** Answers one request. May respond, delay, or destroy `res.socket` to simulate failures. */
export type TestHandler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  readonly connectionCount: number;
  setHandler(handler: TestHandler): void;
  /** Resolves once `n` requests in total have been received (bodies read). */
  waitForRequests(n: number): Promise<void>;
  /** Stops listening and destroys open sockets. */
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Stamps `receivedAt`; pass a SimClock's `now` to see request times in simulated time. */
  now?: () => number;
  /** Server keep-alive timeout, ms (node default 5000). */
  keepAliveTimeoutMs?: number;
}

/**
 * A tiny real HTTP server on 127.0.0.1 with an ephemeral port, for testing clients against real sockets.
 * @example
 * const server = await startTestServer((req, res) => sendJson(res, 200, { ok: true }));
 * await fetchSomething(server.url);
 * expect(server.requests[0]?.headers["x-api-key"]).toBe(key);
 * await server.close();
 */
export async function startTestServer(
  handler?: TestHandler,
  opts: TestServerOptions = {},
): Promise<TestServer> {
  const now = opts.now ?? Date.now;
  let current: TestHandler =
    handler ?? ((_req, res) => sendJson(res, 404, { code: "not_found", message: "no handler" }));
  const requests: RecordedRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const sockets = new Set<Socket>();
  const connectionIds = new WeakMap<Socket, number>();
  let connectionCount = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const bodyText = Buffer.concat(chunks).toString("utf8");
      const target = new URL(req.url ?? "/", "http://127.0.0.1");
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        path: target.pathname,
        query: target.searchParams,
        headers: req.headers,
        bodyText,
        json: tryJson(bodyText),
        connectionId: connectionIds.get(req.socket) ?? 0,
        remotePort: req.socket.remotePort ?? 0,
        receivedAt: now(),
      };
      requests.push(recorded);
      for (const w of waiters.filter((w) => requests.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      Promise.resolve(current(recorded, res)).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { code: "test_handler_failed", message: String(err) });
      });
    });
  });
  server.keepAliveTimeout = opts.keepAliveTimeoutMs ?? 5_000;
  server.on("connection", (socket: Socket) => {
    connectionCount++;
    connectionIds.set(socket, connectionCount);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    get connectionCount() {
      return connectionCount;
    },
    setHandler(h) {
      current = h;
    },
    waitForRequests(n) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Writes a JSON response (a string body is sent verbatim, for malformed-body tests).
 * @example sendJson(res, 429, { status: 429, error: { code: "rate_limited", message: "slow down", trace_id: "t1" } }, { "retry-after": "2" })
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | number> = {},
): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, {
    "content-type": typeof body === "string" ? "text/plain" : "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/**
 * A port on 127.0.0.1 that nothing listens on (bound once, then released), for connection-refused tests.
 * @example const port = await closedPort(); // connecting to it fails with ECONNREFUSED
 */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function tryJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
