import { setMaxListeners } from "node:events";
import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import type { Logger } from "pino";
import { type Clock, monotonicNow } from "../core/clock.js";
import { classifyTransportFailure, clientClosedError, ExchangeError } from "./exchange-error.js";
import {
  type RateLimitState,
  RateLimitTracker,
  readRateLimitHeaders,
  readRetryAfterMs,
} from "./rate-limit-state.js";
import { ServerClock } from "./server-clock.js";

export type HttpMethod = "GET" | "POST" | "DELETE";

type TransportFailureCode = "connect_failed" | "connection_lost" | "request_timeout" | "malformed_response";

export interface TransportRequest {
  method: HttpMethod;
  /** Route template, e.g. `/api/orders/{id}`: the endpoint's identity in logs, errors and rate-limit state. */
  route: string;
  /** Concrete path with query, already encoded (see buildPath). */
  path: string;
  /** JSON-serialisable body; omitted when undefined. */
  body?: unknown;
  /** Overrides the transport's default timeout. */
  timeoutMs?: number;
}

export interface TransportResponse {
  /** `METHOD /route/template`. */
  endpoint: string;
  /** The request target sent (TransportRequest.path); errors read from the answer carry it. */
  path?: string | undefined;
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Parsed body; undefined when empty or not JSON (see `isJson`). */
  json: unknown;
  isJson: boolean;
  requestId: string | undefined;
  traceId: string | undefined;
  apiVersion: string | undefined;
  serverTimeMs: number | undefined;
  rateLimit: RateLimitState | undefined;
  retryAfterMs: number | undefined;
  /** Clock readings: request start, response headers, response end. */
  sentAt: number;
  receivedAt: number;
  durationMs: number;
}

export interface TransportOptions {
  /** e.g. `https://api.example.com` (a path prefix is kept). */
  baseUrl: string;
  apiKey?: string | undefined;
  /** Sent as X-User-Wallet on every request (multi_wallet partners). */
  userWallet?: string | undefined;
  clock: Clock;
  logger: Logger;
  /** Whole-request deadline (connect to last body byte), ms. */
  timeoutMs: number;
  /** Keep-alive pool size per host. Default 16. */
  maxSockets?: number;
  /** Idle keep-alive sockets are closed after this long, ms (below typical server keep-alive). Default 4000. */
  freeSocketTimeoutMs?: number;
  /** Larger bodies are refused as malformed. Default 16 MiB. */
  maxBodyBytes?: number;
}

/**
 * One HTTP exchange with the API over node:http(s) and a keep-alive agent. Resolves with any HTTP status
 * (interpreting envelopes is the caller's job); rejects only with an ExchangeError for transport failures,
 * classified by whether the request can have reached the server: node:http (unlike fetch) tells us when
 * the connection was established, which is the line between "nothing was sent" and "outcome unknown".
 * Records rate-limit headers per endpoint, the server clock offset and the API version as it goes.
 */
export class HttpTransport {
  readonly rateLimits = new RateLimitTracker();
  readonly serverClock: ServerClock;
  #apiVersion: string | undefined;
  readonly #base: URL;
  readonly #prefix: string;
  readonly #module: typeof http | typeof https;
  readonly #agent: http.Agent;
  // Private fields: a careless `log.debug({ transport })` can never serialise the key.
  readonly #apiKey: string | undefined;
  readonly #userWallet: string | undefined;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #timeoutMs: number;
  readonly #maxBodyBytes: number;
  readonly #closing = new AbortController();

  constructor(opts: TransportOptions) {
    this.#base = new URL(opts.baseUrl);
    if (this.#base.protocol !== "http:" && this.#base.protocol !== "https:") {
      throw new RangeError(`baseUrl must be http(s), got ${this.#base.protocol}`);
    }
    this.#prefix = this.#base.pathname.replace(/\/+$/, "");
    this.#module = this.#base.protocol === "https:" ? https : http;
    const agentOpts = {
      keepAlive: true,
      maxSockets: opts.maxSockets ?? 16,
      timeout: opts.freeSocketTimeoutMs ?? 4_000,
      scheduling: "lifo" as const,
    };
    this.#agent = this.#module === https ? new https.Agent(agentOpts) : new http.Agent(agentOpts);
    this.#apiKey = opts.apiKey;
    this.#userWallet = opts.userWallet;
    this.#clock = opts.clock;
    this.#log = opts.logger;
    this.#timeoutMs = opts.timeoutMs;
    this.#maxBodyBytes = opts.maxBodyBytes ?? 16 * 1024 * 1024;
    this.serverClock = new ServerClock(opts.clock);
    // Every call waiting to retry listens here; a busy engine has more than node's default 10.
    setMaxListeners(0, this.#closing.signal);
  }

  /** X-API-Version of the last response. */
  get apiVersion(): string | undefined {
    return this.#apiVersion;
  }

  /** Aborted once the transport is closed: retry waits listen to it so that they end at once. */
  get closed(): AbortSignal {
    return this.#closing.signal;
  }

  /**
   * Closes pooled connections; in-flight requests fail as connection_lost, and every later send
   * fails as `client_closed` without leaving (a new socket would otherwise be opened for it).
   */
  close(): void {
    this.#closing.abort();
    this.#agent.destroy();
  }

  /**
   * Sends one request.
   * @example const res = await transport.send({ method: "GET", route: "/api/markets", path: "/api/markets" });
   */
  send(req: TransportRequest): Promise<TransportResponse> {
    const endpoint = `${req.method} ${req.route}`;
    if (this.#closing.signal.aborted) return Promise.reject(clientClosedError(endpoint));
    const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
    const headers: Record<string, string> = { accept: "application/json" };
    if (payload !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = String(payload.length);
    } else if (req.method !== "GET") {
      // Otherwise node:http would send a body-less POST with chunked encoding.
      headers["content-length"] = "0";
    }
    if (this.#apiKey !== undefined && this.#apiKey !== "") headers["x-api-key"] = this.#apiKey;
    if (this.#userWallet !== undefined) headers["x-user-wallet"] = this.#userWallet;
    const timeoutMs = req.timeoutMs ?? this.#timeoutMs;
    const sentAt = this.#clock.now();
    // The server-clock estimate is kept on the monotonic clock (a wall step must not move it).
    const sentMono = monotonicNow(this.#clock);
    const tls = this.#module === https;

    return new Promise<TransportResponse>((resolve, reject) => {
      let written = false;
      let settled = false;
      // Once headers arrived, failures still carry the status and X-Request-Id they announced.
      let response: IncomingMessage | undefined;
      const fail = (code: TransportFailureCode, cause: unknown) => {
        if (settled) return;
        settled = true;
        this.#clock.cancelTimer(timer);
        const durationMs = this.#clock.now() - sentAt;
        const requestId = headerString(response?.headers["x-request-id"]);
        const err = new ExchangeError({
          code,
          message: transportMessage(code, endpoint, timeoutMs, cause),
          outcome: classifyTransportFailure(written),
          endpoint,
          path: req.path,
          httpStatus: response?.statusCode,
          requestId,
          traceId: headerString(response?.headers["x-trace-id"]),
          details: { written, errno: errnoOf(cause) },
          cause,
        });
        this.#log.debug(
          { method: req.method, path: req.path, durationMs, code, written, errno: errnoOf(cause), requestId },
          "exchange http transport failure",
        );
        reject(err);
      };

      const request = this.#module.request({
        protocol: this.#base.protocol,
        hostname: this.#base.hostname,
        port: this.#base.port === "" ? undefined : this.#base.port,
        path: this.#prefix + req.path,
        method: req.method,
        headers,
        agent: this.#agent,
      });
      const timer = this.#clock.setTimer(timeoutMs, () => {
        fail("request_timeout", undefined);
        request.destroy();
      });

      request.on("socket", (socket: Socket) => {
        // A pooled socket is already connected: the request goes out at once.
        if (!socket.connecting) written = true;
        else
          socket.once(tls ? "secureConnect" : "connect", () => {
            written = true;
          });
      });
      request.on("error", (err) => fail(written ? "connection_lost" : "connect_failed", err));
      request.on("response", (res: IncomingMessage) => {
        response = res;
        const receivedAt = this.#clock.now();
        const receivedMono = monotonicNow(this.#clock);
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > this.#maxBodyBytes) {
            fail("malformed_response", new Error(`response body above ${this.#maxBodyBytes} bytes`));
            request.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on("error", (err) => fail("connection_lost", err));
        res.on("close", () => {
          if (!res.complete) fail("connection_lost", new Error("response ended early"));
        });
        res.on("end", () => {
          if (settled) return;
          settled = true;
          this.#clock.cancelTimer(timer);
          resolve(
            this.#finish(req, endpoint, res, Buffer.concat(chunks).toString("utf8"), sentAt, receivedAt, {
              sent: sentMono,
              received: receivedMono,
            }),
          );
        });
      });
      request.end(payload);
    });
  }

  #finish(
    req: TransportRequest,
    endpoint: string,
    res: IncomingMessage,
    text: string,
    sentAt: number,
    receivedAt: number,
    mono: { readonly sent: number; readonly received: number },
  ): TransportResponse {
    const now = this.#clock.now();
    const h = res.headers;
    const serverTimeMs = headerNumber(h["x-server-time"]);
    if (serverTimeMs !== undefined) this.serverClock.observe(mono.sent, mono.received, serverTimeMs);
    const rateLimit = readRateLimitHeaders(h, receivedAt);
    if (rateLimit !== undefined) this.rateLimits.update(endpoint, rateLimit);
    const apiVersion = headerString(h["x-api-version"]);
    if (apiVersion !== undefined) this.#apiVersion = apiVersion;
    const { json, isJson } = parseJson(text);
    const out: TransportResponse = {
      endpoint,
      path: req.path,
      status: res.statusCode ?? 0,
      headers: h,
      text,
      json,
      isJson,
      requestId: headerString(h["x-request-id"]),
      traceId: headerString(h["x-trace-id"]),
      apiVersion,
      serverTimeMs,
      rateLimit,
      // An HTTP-date is the exchange's clock: read against its estimate (this answer's X-Server-Time included).
      retryAfterMs: readRetryAfterMs(h["retry-after"], this.serverClock.serverTimeAt(mono.received)),
      sentAt,
      receivedAt,
      durationMs: now - sentAt,
    };
    this.#log.debug(
      {
        method: req.method,
        path: req.path,
        status: out.status,
        durationMs: out.durationMs,
        requestId: out.requestId,
        apiVersion,
        rateLimitRemaining: rateLimit?.remaining,
      },
      "exchange http response",
    );
    return out;
  }
}

function parseJson(text: string): { json: unknown; isJson: boolean } {
  if (text.trim() === "") return { json: undefined, isJson: false };
  try {
    return { json: JSON.parse(text) as unknown, isJson: true };
  } catch {
    return { json: undefined, isJson: false };
  }
}

function headerString(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === "" ? undefined : s;
}

function headerNumber(v: string | string[] | undefined): number | undefined {
  const s = headerString(v);
  if (s === undefined || !/^\d+$/.test(s.trim())) return undefined;
  return Number(s);
}

function errnoOf(cause: unknown): string | undefined {
  if (cause instanceof Error && "code" in cause && typeof cause.code === "string") return cause.code;
  return undefined;
}

function transportMessage(code: string, endpoint: string, timeoutMs: number, cause: unknown): string {
  if (code === "request_timeout") return `${endpoint}: no complete response within ${timeoutMs} ms`;
  const why = cause instanceof Error ? cause.message : "unknown";
  if (code === "malformed_response") return `${endpoint}: ${why}`;
  return code === "connect_failed"
    ? `${endpoint}: could not connect (${why})`
    : `${endpoint}: connection lost (${why})`;
}
