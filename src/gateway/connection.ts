import type { IncomingMessage } from "node:http";
import WebSocket from "ws";
import type { Clock, TimerId } from "../core/clock.js";
import type { Logger } from "../observability/logger.js";
import type { CloseCause, ConnectedInfo, ConnectionHooks } from "./connection-types.js";
import { bump, type GatewayCounters } from "./counters.js";
import { fatalClose, fatalUpgrade, GatewayError, GatewayFatalError } from "./errors.js";
import { Keepalive } from "./keepalive.js";
import type { GatewayTiming } from "./options.js";
import { PendingCommands } from "./pending.js";
import { parseErrorReply, parsePong } from "./replies.js";
import { isRecord } from "./schema/fields.js";
import type { GatewayKind } from "./types.js";
import { UnawaitedCommands } from "./unawaited.js";

export interface ConnectionOptions {
  readonly url: string;
  readonly gateway: GatewayKind;
  /** Upgrade headers (X-Api-Key, X-User-Wallet); never logged. */
  readonly headers: Readonly<Record<string, string>>;
  readonly origin?: string | undefined;
  readonly clock: Clock;
  readonly timing: GatewayTiming;
  readonly counters: GatewayCounters;
  readonly hooks: ConnectionHooks;
  readonly logger?: Logger | undefined;
}

/** How one command is sent. */
export interface SendOptions {
  /**
   * The caller does without the reply (the unsubscribe of a sid the server no longer listed,
   * sync.ts): unanswered, the command rejects `command_timeout` alone, the connection kept.
   */
  readonly replyOptional?: boolean;
}

const REPLY_TYPES = new Set([
  "subscribed",
  "subscription_updated",
  "unsubscribed",
  "subscriptions",
  "pong",
  "book_snapshot_requested",
  "error",
]);

/**
 * Commands whose reply the spec does not promise (its payload is "not shown") and that nothing
 * depends on: when awaited and unanswered they fail alone, without condemning the socket.
 * get_book_snapshot's real answer is the book_snapshot event, which the BookTracker times itself;
 * list_subscriptions is read only by the subscriptions check (sync.ts audit), for which an
 * unanswered list changes nothing — dropping the socket for it would resync every book on it.
 */
const REPLY_OPTIONAL: ReadonlySet<string> = new Set(["get_book_snapshot", "list_subscriptions"]);

/**
 * One WebSocket to /ws/market or /ws/user, for one life: open → `connected` frame → commands
 * with correlation ids and timeouts, pushes to the owner, keepalive (ping + silence watchdog) →
 * closed. It never reconnects (ConnectionLink does). A frame that is not JSON, not an object or
 * lacks `type` is counted and dropped; nothing a server sends can throw out of here.
 */
export class GatewayConnection {
  readonly #o: ConnectionOptions;
  readonly #pending: PendingCommands;
  readonly #unawaited: UnawaitedCommands;
  readonly #keepalive: Keepalive;
  #ws: WebSocket | undefined;
  #connectTimer: TimerId | undefined;
  #opened: { resolve: (i: ConnectedInfo) => void; reject: (e: Error) => void } | undefined;
  #open = false;
  #ended = false;
  #cause: CloseCause = "closed";
  #fatal: GatewayFatalError | undefined;
  #error: string | undefined;

  constructor(opts: ConnectionOptions) {
    this.#o = opts;
    this.#pending = new PendingCommands(opts.clock, opts.timing.commandTimeoutMs, (cmd, optional) => {
      opts.counters.commandTimeouts++;
      if (!optional && !REPLY_OPTIONAL.has(cmd)) this.terminate("command_timeout");
    });
    this.#unawaited = new UnawaitedCommands(opts.clock, opts.timing.commandTimeoutMs);
    this.#keepalive = new Keepalive(opts.clock, opts.timing, {
      ping: () => void this.#ping(),
      dead: () => {
        opts.counters.watchdogTrips++;
        this.terminate("watchdog");
      },
    });
  }

  /** True between the `connected` frame and the end. */
  get isOpen(): boolean {
    return this.#open && !this.#ended;
  }

  /**
   * Opens the socket and resolves with the `connected` frame's data; rejects with
   * GatewayFatalError (4401, 1008, refused upgrade, bad protocol version) or GatewayError
   * (connect_timeout, connection_lost) when the socket ends first.
   */
  open(): Promise<ConnectedInfo> {
    if (this.#ws !== undefined) throw new GatewayError("already_opened", "a GatewayConnection opens once");
    const o = this.#o;
    o.counters.connectAttempts++;
    const ws = new WebSocket(o.url, {
      headers: { ...o.headers },
      ...(o.origin === undefined ? {} : { origin: o.origin }),
      perMessageDeflate: false,
    });
    this.#ws = ws;
    this.#connectTimer = o.clock.setTimer(o.timing.connectTimeoutMs, () => {
      this.#connectTimer = undefined;
      if (!this.#open) this.terminate("connect_timeout");
    });
    ws.on("unexpected-response", (_req, res) => {
      const status = res.statusCode ?? 0;
      // Until its body is read whole, a refusal is no word of the exchange's on the key (the connect
      // timer still runs: a body that never ends closes with this).
      const provisional = fatalUpgrade(o.gateway, status);
      this.#fatal ??= provisional;
      if (provisional === undefined || (status !== 401 && status !== 403)) {
        res.resume();
        ws.terminate();
        return;
      }
      readBody(res, UPGRADE_BODY_LIMIT, (body) => {
        if (this.#fatal === provisional) this.#fatal = fatalUpgrade(o.gateway, status, body);
        ws.terminate();
      });
    });
    ws.on("error", (err) => {
      // Kept for the close: why a connection never opened is what names a wrong URL.
      this.#error ??= errorText(err);
      o.logger?.debug({ err: err.message, gateway: o.gateway }, "gateway: socket error");
    });
    ws.on("message", (data, isBinary) => this.#onMessage(data, isBinary));
    ws.on("close", (code, reason) => this.#onClose(code, reason.toString()));
    return new Promise((resolve, reject) => {
      this.#opened = { resolve, reject };
    });
  }

  /**
   * Sends `{id, cmd, params}` and resolves with the reply (rejects as PendingCommands says). A
   * command left unanswered for `commandTimeoutMs` drops the connection (a silent socket cannot be
   * trusted), except get_book_snapshot and list_subscriptions (REPLY_OPTIONAL) and a command sent
   * with `replyOptional` (its caller does without the reply): they only reject.
   */
  send(cmd: string, params?: Record<string, unknown>, opts?: SendOptions): Promise<Record<string, unknown>> {
    const ws = this.#ws;
    if (!this.isOpen || ws === undefined || ws.readyState !== WebSocket.OPEN) {
      return Promise.reject(new GatewayError("not_connected", `${cmd}: the connection is not open`, { cmd }));
    }
    const id = this.#pending.nextId();
    const reply = this.#pending.add(id, cmd, opts?.replyOptional === true);
    this.#write(ws, id, cmd, params);
    return reply;
  }

  /**
   * Sends `{id, cmd, params}` without waiting for a reply: no timeout, nothing pending. A reply
   * echoing the id within `commandTimeoutMs` is consumed quietly (an `error` one counted as a
   * rejection); a later one counts as a late reply. False (nothing sent) when not open.
   * @example conn.post("get_book_snapshot", { tokenId }) // the book_snapshot event is the answer
   */
  post(cmd: string, params?: Record<string, unknown>): boolean {
    const ws = this.#ws;
    if (!this.isOpen || ws === undefined || ws.readyState !== WebSocket.OPEN) return false;
    const id = this.#pending.nextId();
    this.#unawaited.add(id, cmd);
    this.#write(ws, id, cmd, params);
    return true;
  }

  #write(ws: WebSocket, id: string, cmd: string, params: Record<string, unknown> | undefined): void {
    this.#o.counters.commandsSent++;
    ws.send(JSON.stringify(params === undefined ? { id, cmd } : { id, cmd, params }));
  }

  /** Drops the socket at once (no close handshake); the owner hears onClosed with `cause`. */
  terminate(cause: CloseCause): void {
    if (this.#ended) return;
    this.#cause = cause;
    this.#ws?.terminate();
  }

  /** Closes politely (1000); the owner hears onClosed with cause `client`. */
  close(): void {
    if (this.#ended) return;
    this.#cause = "client";
    const ws = this.#ws;
    if (ws === undefined) return;
    if (ws.readyState === WebSocket.OPEN) ws.close(1000, "client closing");
    else ws.terminate();
  }

  async #ping(): Promise<void> {
    const sent = this.#o.clock.now();
    this.#o.counters.pings++;
    try {
      const { serverTs } = parsePong(await this.send("ping"));
      this.#o.hooks.onPong?.(this.#o.clock.now() - sent, serverTs);
    } catch {
      // A timeout already dropped the connection; a lost connection is reported by onClose.
    }
  }

  #onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    const o = this.#o;
    const recvTs = o.clock.now();
    this.#keepalive.heard();
    let raw: unknown;
    try {
      if (isBinary) throw new Error("binary");
      raw = JSON.parse(Array.isArray(data) ? Buffer.concat(data).toString() : data.toString());
    } catch {
      return void bump(o.counters.malformed, "not_json");
    }
    if (!isRecord(raw)) return void bump(o.counters.malformed, "not_object");
    // The spec shows no WebSocket error payload: a server using the HTTP envelope's shape may send
    // `{id, error: {code, message}}` with no type. parseErrorReply reads its code, so it is taken
    // for the error reply it is (and settles its command) rather than counted malformed.
    const f = raw.type === undefined && isRecord(raw.error) ? { ...raw, type: "error" } : raw;
    const type = f.type;
    if (typeof type !== "string") return void bump(o.counters.malformed, "missing_type");
    if (type === "connected") return void this.#onConnected(f);
    // A reply is known by the correlation id it echoes, whatever its type or shape: the spec shows
    // only the subscribe reply, so a pong may carry its fields under `data` and an update may be
    // acknowledged by a type we never heard of. Event frames carry a channel, and their ids are
    // tokens, conditions, vaults or "platform_status", never our `c<n>`.
    const id = typeof f.id === "string" ? f.id : undefined;
    const replyShaped = REPLY_TYPES.has(type) && f.data === undefined;
    if (id !== undefined && (f.channel === undefined || replyShaped) && this.#isOurs(id)) {
      return void this.#onReply(id, type, f);
    }
    if (replyShaped) {
      // A reply to nothing we sent lately (its command timed out): counted, not malformed.
      this.#countReply(type);
      return void bump(o.counters.dropped, "late_reply");
    }
    try {
      o.hooks.onPush(f, recvTs);
    } catch (err) {
      // The owner's listeners must not throw; if one does, the frame is lost but the socket lives.
      bump(o.counters.dropped, "listener_error");
      o.logger?.error({ err, gateway: o.gateway }, "gateway: event listener threw");
    }
  }

  /** True when `id` is a command of ours still awaited, or posted lately. */
  #isOurs(id: string): boolean {
    return this.#pending.has(id) || this.#unawaited.has(id);
  }

  /** Settles (or quietly consumes) the command a reply echoing `id` answers. */
  #onReply(id: string, type: string, f: Record<string, unknown>): void {
    const o = this.#o;
    this.#countReply(type);
    // A heartbeat reply is the one echoing a ping's id, whatever its type or shape (a pong under
    // `data`, an ack type we never heard of): counted by the id, not by `type: "pong"`.
    if (this.#pending.cmdOf(id) === "ping" && type !== "error") o.counters.pongs++;
    if (this.#pending.settle(id, f)) return;
    const cmd = this.#unawaited.take(id);
    if (type === "error") {
      const code = parseErrorReply(f).code;
      o.logger?.debug({ gateway: o.gateway, cmd, code }, "gateway: command refused");
      // A refused get_book_snapshot may mean the server no longer holds the token: the owner checks.
      if (cmd !== undefined) o.hooks.onPostRefused?.(cmd, code);
    }
  }

  /** Counts a reply by type: an unknown type as `other` (the server's string must not mint labels). */
  #countReply(type: string): void {
    const o = this.#o;
    bump(o.counters.framesByType, REPLY_TYPES.has(type) ? type : "other");
    if (type === "error") o.counters.commandRejections++;
  }

  #onConnected(f: Record<string, unknown>): void {
    const o = this.#o;
    bump(o.counters.framesByType, "connected");
    if (this.#open) return void bump(o.counters.dropped, "extra_connected");
    const d = isRecord(f.data) ? f.data : {};
    const str = (v: unknown) => (typeof v === "string" ? v : undefined);
    const info: ConnectedInfo = {
      gateway: str(d.gateway),
      authMethod: str(d.authMethod),
      protocolVersion: typeof d.protocolVersion === "number" ? d.protocolVersion : undefined,
      partnerId: str(d.partnerId),
      data: d,
    };
    if (o.gateway === "market" && info.protocolVersion !== 2) {
      this.#fatal = new GatewayFatalError(
        o.gateway,
        "unsupported_protocol_version",
        `/ws/market speaks protocolVersion ${String(info.protocolVersion)}; this client speaks 2`,
        undefined,
        { protocolVersion: info.protocolVersion },
      );
      return void this.close();
    }
    this.#open = true;
    this.#clearConnectTimer();
    this.#keepalive.start();
    o.hooks.onOpen?.(info);
    this.#opened?.resolve(info);
    this.#opened = undefined;
  }

  #onClose(code: number, reason: string): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#clearConnectTimer();
    this.#keepalive.stop();
    const o = this.#o;
    const wasOpen = this.#open;
    const fatal = this.#fatal ?? fatalClose(o.gateway, code, reason, wasOpen);
    this.#open = false;
    const lost = new GatewayError("connection_lost", `/ws/${o.gateway} closed (${code} ${reason})`, {
      code,
      reason,
      cause: this.#cause,
    });
    this.#pending.failAll(fatal ?? lost);
    const failure =
      fatal ??
      (this.#cause === "connect_timeout"
        ? new GatewayError(
            "connect_timeout",
            `/ws/${o.gateway}: no connected frame within ${o.timing.connectTimeoutMs} ms`,
          )
        : lost);
    this.#opened?.reject(failure);
    this.#opened = undefined;
    o.hooks.onClosed({
      code,
      reason,
      cause: this.#cause,
      fatal,
      wasOpen,
      ...(this.#error === undefined ? {} : { error: this.#error }),
    });
  }

  #clearConnectTimer(): void {
    if (this.#connectTimer !== undefined) this.#o.clock.cancelTimer(this.#connectTimer);
    this.#connectTimer = undefined;
  }
}

/** An error's message, with its code when the message leaves it out (TLS errors do). */
function errorText(err: Error): string {
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" && !err.message.includes(code) ? `${err.message} [${code}]` : err.message;
}

/** How much of a refused upgrade's body is read: the exchange's error envelope is far smaller. */
const UPGRADE_BODY_LIMIT = 4_096;

/**
 * Reads up to `limit` bytes of a response's body, then calls `done` once with them as text (a body
 * cut by the limit or by an error is passed as far as it came).
 */
function readBody(res: IncomingMessage, limit: number, done: (body: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let called = false;
  const finish = (): void => {
    if (called) return;
    called = true;
    done(Buffer.concat(chunks).toString("utf8", 0, Math.min(size, limit)));
  };
  res.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      finish();
      res.destroy();
    }
  });
  res.on("end", finish);
  res.on("error", finish);
  res.on("close", finish);
}
