import type { Clock, TimerId } from "../core/clock.js";
import { publicUrl } from "../core/public-url.js";
import type { Logger } from "../observability/logger.js";
import { type ConnectionOptions, GatewayConnection, type SendOptions } from "./connection.js";
import type { ClosedInfo, ConnectedInfo } from "./connection-types.js";
import type { GatewayCounters } from "./counters.js";
import { GatewayError, type GatewayFatalError, upgradeAnswer, wrongGatewayUrl } from "./errors.js";
import { type GatewayTiming, reconnectDelay } from "./options.js";
import type { GatewayKind } from "./types.js";

const CLOSE_GRACE_MS = 1_000;

/** Where a link stands. */
export type LinkState = "connecting" | "open" | "backoff" | "fatal" | "closed";

/** What a link reports to the client. */
export interface LinkHooks {
  /** Connected (`reconnect` true after a drop): the client resubscribes this link's subscriptions. */
  onUp(link: ConnectionLink, info: ConnectedInfo, reconnect: boolean): void;
  /** An open connection dropped; a reconnect is scheduled. */
  onDown(link: ConnectionLink, info: ClosedInfo): void;
  /** Closed for good (4401, a handshake 1008, …): no reconnect. */
  onFatal(link: ConnectionLink, err: GatewayFatalError): void;
  onPush(link: ConnectionLink, frame: Record<string, unknown>, recvTs: number): void;
  onPong(link: ConnectionLink, rttMs: number, serverTs: number | undefined): void;
  /** A command posted without awaiting its reply was answered with an `error`. */
  onPostRefused?(link: ConnectionLink, cmd: string, code: string): void;
}

export interface LinkOptions {
  readonly index: number;
  readonly url: string;
  readonly gateway: GatewayKind;
  readonly headers: Readonly<Record<string, string>>;
  readonly origin?: string | undefined;
  readonly clock: Clock;
  readonly random: () => number;
  readonly timing: GatewayTiming;
  readonly counters: GatewayCounters;
  readonly hooks: LinkHooks;
  readonly logger?: Logger | undefined;
}

/**
 * One logical connection of a client: a GatewayConnection per life, re-opened after a drop with
 * exponential back-off and jitter (options.ts reconnectDelay) until close() or a fatal close.
 * The attempt count resets when a connection had stayed up for `backoff.resetAfterMs`, so a
 * server that accepts and drops at once is not hammered at the base delay.
 */
export class ConnectionLink {
  readonly index: number;
  readonly #o: LinkOptions;
  #state: LinkState = "connecting";
  #conn: GatewayConnection | undefined;
  #timer: TimerId | undefined;
  #attempt = 0;
  #everOpen = false;
  #namedUrl = false;
  #openedAt = 0;
  #ended: (() => void)[] = [];

  constructor(opts: LinkOptions) {
    this.index = opts.index;
    this.#o = opts;
    this.#connect();
  }

  get state(): LinkState {
    return this.#state;
  }

  /** Failed attempts since the last stable connection. */
  get attempt(): number {
    return this.#attempt;
  }

  /** Sends a command on the open connection (rejects `not_connected` otherwise). */
  send(cmd: string, params?: Record<string, unknown>, opts?: SendOptions): Promise<Record<string, unknown>> {
    if (this.#state !== "open" || this.#conn === undefined) {
      return Promise.reject(
        new GatewayError("not_connected", `${cmd}: connection ${this.index} is ${this.#state}`),
      );
    }
    return this.#conn.send(cmd, params, opts);
  }

  /** Sends a command without awaiting a reply (GatewayConnection.post); false when not open. */
  post(cmd: string, params?: Record<string, unknown>): boolean {
    if (this.#state !== "open" || this.#conn === undefined) return false;
    return this.#conn.post(cmd, params);
  }

  /** Drops the current socket as a network failure would (the link reconnects). */
  drop(): void {
    this.#conn?.terminate("closed");
  }

  /**
   * Stops for good: closes the socket (1000, or a hard drop if the server has not answered the
   * close within a second), cancels any pending reconnect; resolves when the socket is gone.
   */
  close(): Promise<void> {
    if (this.#state !== "closed" && this.#state !== "fatal") this.#state = "closed";
    if (this.#timer !== undefined) this.#o.clock.cancelTimer(this.#timer);
    this.#timer = undefined;
    const conn = this.#conn;
    if (conn === undefined) return Promise.resolve();
    return new Promise((resolve) => {
      // Shutdown only: a real-time grace, so a test on a SimClock still closes.
      const grace = setTimeout(() => conn.terminate("client"), CLOSE_GRACE_MS);
      grace.unref();
      this.#ended.push(() => {
        clearTimeout(grace);
        resolve();
      });
      conn.close();
    });
  }

  /** Stops after another link's fatal close (same key: this one would fail the same way). */
  halt(): Promise<void> {
    this.#state = "fatal";
    return this.close();
  }

  #connect(): void {
    const o = this.#o;
    this.#state = "connecting";
    const options: ConnectionOptions = {
      url: o.url,
      gateway: o.gateway,
      headers: o.headers,
      origin: o.origin,
      clock: o.clock,
      timing: o.timing,
      counters: o.counters,
      logger: o.logger,
      hooks: {
        onOpen: (info) => this.#onOpen(conn, info),
        onPush: (frame, recvTs) => o.hooks.onPush(this, frame, recvTs),
        onPong: (rtt, serverTs) => o.hooks.onPong(this, rtt, serverTs),
        onPostRefused: (cmd, code) => o.hooks.onPostRefused?.(this, cmd, code),
        onClosed: (info) => this.#onClosed(conn, info),
      },
    };
    const conn = new GatewayConnection(options);
    this.#conn = conn;
    conn.open().catch(() => undefined); // outcomes arrive through the hooks
  }

  #onOpen(conn: GatewayConnection, info: ConnectedInfo): void {
    if (conn !== this.#conn || this.#state !== "connecting") return;
    const c = this.#o.counters;
    this.#state = "open";
    this.#openedAt = this.#o.clock.now();
    c.connectionsOpened++;
    c.connectionsOpen++;
    const reconnect = this.#everOpen;
    if (reconnect) c.reconnects++;
    this.#everOpen = true;
    this.#o.logger?.info({ gateway: this.#o.gateway, link: this.index, reconnect }, "gateway: connected");
    this.#o.hooks.onUp(this, info, reconnect);
  }

  // Once per client (its link 0), on its first failed attempt before any connection: a wrong URL (or the gateway
  // down at start) must be recognisable from the log, not only as endless "reconnecting" lines.
  // Every client's URL is exchange.wsUrl plus the gateway's path.
  #nameUrl(info: ClosedInfo): void {
    this.#namedUrl = true;
    const url = publicUrl(this.#o.url);
    this.#o.logger?.warn(
      {
        gateway: this.#o.gateway,
        link: this.index,
        setting: "exchange.wsUrl",
        url,
        code: info.code,
        cause: info.cause,
        error: info.error,
      },
      `gateway: could not connect to ${url} (exchange.wsUrl): ${info.error ?? `closed ${info.code}`}; ` +
        "retrying until it answers (check the setting, or whether the exchange is up)",
    );
  }

  #onClosed(conn: GatewayConnection, info: ClosedInfo): void {
    if (conn !== this.#conn) return;
    this.#conn = undefined;
    const o = this.#o;
    if (info.wasOpen) o.counters.connectionsOpen--;
    for (const fn of this.#ended.splice(0)) fn();
    if (this.#state === "closed" || this.#state === "fatal") return;
    if (info.fatal !== undefined) {
      this.#state = "fatal";
      o.counters.fatal++;
      if (wrongGatewayUrl(info.fatal)) {
        // Not the key: the URL. Named, as a refused connection is (#nameUrl), without "retrying".
        const url = publicUrl(o.url);
        const status = info.fatal.details.httpStatus;
        o.logger?.error(
          {
            gateway: o.gateway,
            link: this.index,
            code: info.fatal.code,
            setting: "exchange.wsUrl",
            url,
            status,
          },
          `gateway: ${url} (exchange.wsUrl): ${upgradeAnswer(info.fatal)}: check the setting`,
        );
      } else {
        o.logger?.error(
          { gateway: o.gateway, link: this.index, code: info.fatal.code },
          "gateway: fatal close",
        );
      }
      o.hooks.onFatal(this, info.fatal);
      return;
    }
    if (info.wasOpen) {
      o.counters.disconnects++;
      if (o.clock.now() - this.#openedAt >= o.timing.backoff.resetAfterMs) this.#attempt = 0;
      o.hooks.onDown(this, info);
    }
    this.#attempt++;
    // Link 0 only: later links are opened beside a link that connected, so the URL is right.
    if (this.index === 0 && !this.#everOpen && !this.#namedUrl) this.#nameUrl(info);
    const delay = reconnectDelay(this.#attempt, o.timing.backoff, o.random);
    o.logger?.warn(
      {
        gateway: o.gateway,
        link: this.index,
        code: info.code,
        cause: info.cause,
        attempt: this.#attempt,
        delay,
      },
      "gateway: connection lost; reconnecting",
    );
    this.#state = "backoff";
    this.#timer = o.clock.setTimer(delay, () => {
      this.#timer = undefined;
      if (this.#state === "backoff") this.#connect();
    });
  }
}
