import { ClientListeners, type DroppedPush } from "./client-listeners.js";
import type { ClosedInfo, ConnectedInfo } from "./connection-types.js";
import { bump, type GatewayCounters, zeroGatewayCounters } from "./counters.js";
import { GatewayError, type GatewayFatalError } from "./errors.js";
import { ConnectionLink, type LinkState } from "./link.js";
import { type GatewayClientOptions, type GatewaySettings, gatewaySettings, gatewayUrl } from "./options.js";
import { ReadyWaiters } from "./ready.js";
import { mayMeanDropped } from "./refusal-policy.js";
import { refusedIds } from "./refused.js";
import {
  type BookSnapshotRequested,
  type Pong,
  parsePong,
  parseSnapshotRequested,
  parseSubscriptionList,
  type SubscriptionInfo,
} from "./replies.js";
import { type EventFrameRejection, eventKey, parseEventFrame } from "./schema/events.js";
import { SubscriptionManager } from "./subscriptions.js";
import { type Channel, gatewayOf } from "./types.js";
import type { SubscribeOutcome } from "./waiters.js";

/**
 * Client of one gateway (/ws/market or /ws/user): as many connections ("links") as the
 * subscription caps need (layout.ts), each reconnecting with back-off and resubscribing
 * everything it held (sync.ts); every push validated (schema/) into a typed event; fatal closes
 * (4401, a handshake 1008) stop everything and are reported once through onFatal. A push refused by
 * validation is counted and dropped; when it was an event of something subscribed, onRefused
 * says what was lost (so a book can resync rather than silently miss a frame). Listeners must
 * not throw (a throwing listener is logged and isolated).
 * @example
 * const client = new GatewayClient({ url: cfg.exchange.wsUrl, gateway: "market", apiKey, clock });
 * client.onEvent((e) => { if (e.type === "trade_matched") … });
 * client.onFatal((err) => log.error({ code: err.code }, "market data stopped"));
 * await client.start();
 * await client.subscribe("token_book", tokenIds);
 */
export class GatewayClient extends ClientListeners {
  readonly settings: GatewaySettings;
  readonly counters: GatewayCounters = zeroGatewayCounters();
  /** The most recent malformed frame's rejection, for diagnostics. */
  lastMalformed: EventFrameRejection | undefined;
  readonly #o: GatewayClientOptions;
  readonly #links: ConnectionLink[] = [];
  readonly #connected = new Map<number, ConnectedInfo>();
  readonly #subs: SubscriptionManager;
  readonly #ready = new ReadyWaiters();
  #fatal: GatewayFatalError | undefined;
  #closed = false;

  constructor(opts: GatewayClientOptions) {
    super((err) => {
      bump(this.counters.dropped, "listener_error");
      opts.logger?.error({ err, gateway: opts.gateway }, "gateway: listener threw");
    });
    this.#o = opts;
    this.settings = gatewaySettings(opts);
    this.#subs = new SubscriptionManager({
      limits: this.settings.limits,
      counters: this.counters,
      clock: opts.clock,
      backoff: this.settings.timing.backoff,
      random: opts.random ?? Math.random,
      auditIntervalMs: this.settings.timing.subscriptionCheckMs,
      isOpen: (link) => this.#links[link]?.state === "open",
      ensureLink: (link) => void this.#link(link),
      send: (link, cmd, params, sendOpts) => this.#link(link).send(cmd, params, sendOpts),
      onRejected: (r) => this.rejections.emit(r),
      onRestored: (r) => this.restorations.emit(r),
      onAccepted: (channel, ids) => this.acceptances.emit(channel, ids),
      onLost: (channel, ids) => {
        opts.logger?.warn(
          { gateway: opts.gateway, channel, ids: ids.slice(0, 20), idCount: ids.length },
          `gateway: the server no longer holds this ${channel} subscription: subscribing again`,
        );
        this.losses.emit(channel, ids);
      },
      onHeld: (channel, ids) => this.holdings.emit(channel, ids),
      onListWrong: (link, pausedMs) =>
        opts.logger?.warn(
          { gateway: opts.gateway, link, pausedMs },
          "gateway: the server held a subscription its list_subscriptions did not show: periodic subscription checks paused (a refused probe or update still starts one)",
        ),
    });
  }

  /** The fatal error that stopped the client, if any. */
  get fatal(): GatewayFatalError | undefined {
    return this.#fatal;
  }

  /** State of each link, by index. */
  linkStates(): LinkState[] {
    return this.#links.map((l) => l.state);
  }

  /** The `connected` frame of a link's current connection. */
  connectedInfo(link = 0): ConnectedInfo | undefined {
    return this.#connected.get(link);
  }

  /** Wanted ids of a channel on one link (e.g. the books to resnapshot after that link dropped). */
  idsOn(link: number, channel: Channel): string[] {
    return this.#subs.idsOn(link, channel);
  }

  /** The link an id of a channel is placed on (undefined: not placed, or never subscribed). */
  linkOf(channel: Channel, id: string): number | undefined {
    return this.#subs.linkOf(channel, id);
  }

  /**
   * Whether the link an id of a channel is placed on is open now, so that its subscribe (and then
   * its requests) can go out; false for an id not placed (never subscribed, or after a stop).
   */
  linkOpenFor(channel: Channel, id: string): boolean {
    return this.#links[this.linkOf(channel, id) ?? -1]?.state === "open";
  }

  /** Opens the first connection; resolves with its `connected` data (rejects if fatal). */
  start(): Promise<ConnectedInfo> {
    return this.ready(0);
  }

  /** Resolves when link `index` is open (opening it if needed); rejects on fatal or close(). */
  ready(index = 0): Promise<ConnectedInfo> {
    const stop = this.#stopped();
    if (stop !== undefined) return Promise.reject(stop);
    const link = this.#link(index);
    const info = this.#connected.get(index);
    if (link.state === "open" && info !== undefined) return Promise.resolve(info);
    return this.#ready.wait(index);
  }

  /**
   * Subscribes ids of a channel of this gateway (wallet-scoped channels: no ids), spreading them
   * over subscriptions and connections within the caps. Resolves once the server has accepted or
   * refused each id — across a reconnect if one happens meanwhile. Ids refused locally (malformed)
   * come back rejected with `invalid_params` without being sent; ids unsubscribed before their
   * verdict came back `withdrawn` (they may never be sent: nothing is left to wait for).
   */
  async subscribe(channel: Channel, ids: readonly string[] = []): Promise<SubscribeOutcome> {
    const stop = this.#stopped();
    if (stop !== undefined) throw stop;
    if (gatewayOf(channel) !== this.#o.gateway) {
      throw new GatewayError("wrong_gateway", `${channel} is not a /ws/${this.#o.gateway} channel`, {
        channel,
      });
    }
    return this.#subs.subscribe(channel, ids);
  }

  /** Stops wanting ids (wallet-scoped: none); resolves when the servers were told. */
  unsubscribe(channel: Channel, ids: readonly string[] = []): Promise<void> {
    return this.#subs.unsubscribe(channel, ids);
  }

  /**
   * Sends get_book_snapshot for a token on the connection holding its token_book subscription,
   * without awaiting a reply: the spec shows none, the book_snapshot event is the answer, and the
   * caller (the BookTracker) times that itself; so a server that never replies cannot get the
   * connection, and every book on it, dropped as silent. Returns false (and sends nothing) when the
   * subscription is not live: the resubscribe that follows every reconnect brings a snapshot
   * anyway. For a SnapshotPort: never throws.
   */
  requestBookSnapshot(tokenId: string): boolean {
    const link = this.#links[this.#subs.linkOf("token_book", tokenId) ?? -1];
    if (
      link === undefined ||
      !this.#subs.isLive("token_book", tokenId) ||
      !link.post("get_book_snapshot", { tokenId })
    ) {
      this.counters.snapshotRequestsUnsent++;
      return false;
    }
    this.counters.snapshotRequests++;
    return true;
  }

  /**
   * get_book_snapshot as a command: the acknowledgement (the snapshot follows as an event). For
   * servers that acknowledge it (the mock does); unanswered, it rejects `command_timeout` without
   * dropping the connection.
   */
  async getBookSnapshot(tokenId: string): Promise<BookSnapshotRequested> {
    const link = this.#subs.linkOf("token_book", tokenId);
    if (link === undefined) throw new GatewayError("not_subscribed", `token ${tokenId} is not subscribed`);
    return parseSnapshotRequested(await this.#link(link).send("get_book_snapshot", { tokenId }));
  }

  /**
   * list_subscriptions on every open link. Unanswered, it rejects `command_timeout` without
   * dropping the connection (the spec shows no payload for it).
   */
  async listSubscriptions(): Promise<{ link: number; subscriptions: SubscriptionInfo[] }[]> {
    const open = this.#links.filter((l) => l.state === "open");
    return Promise.all(
      open.map(async (l) => ({
        link: l.index,
        subscriptions: parseSubscriptionList(await l.send("list_subscriptions")),
      })),
    );
  }

  /**
   * Checks every open link's subscriptions against the server's list_subscriptions and subscribes
   * again what it dropped (done by itself when a get_book_snapshot is refused invalid_params, and
   * every timing.subscriptionCheckMs: periodic-audit.ts); resolves when done.
   */
  async auditSubscriptions(): Promise<void> {
    const open = this.#links.filter((l) => l.state === "open");
    await Promise.all(open.map((l) => this.#subs.audit(l.index)));
  }

  /** A ping round trip on one link. */
  async ping(link = 0): Promise<Pong & { rttMs: number }> {
    const sent = this.#o.clock.now();
    const pong = parsePong(await this.#link(link).send("ping"));
    return { ...pong, rttMs: this.#o.clock.now() - sent };
  }

  /** Drops a link's socket as a network failure would (for tests and operators); it reconnects. */
  dropLink(link: number): void {
    this.#links[link]?.drop();
  }

  /** Closes every connection; pending subscribe calls reject with `client_closed`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const err = new GatewayError("client_closed", "the gateway client was closed");
    this.#failWaiters(err);
    await Promise.all(this.#links.map((l) => l.close()));
  }

  #stopped(): Error | undefined {
    if (this.#fatal !== undefined) return this.#fatal;
    if (this.#closed) return new GatewayError("client_closed", "the gateway client was closed");
    return undefined;
  }

  /** Link `index`, opened (with those below it) when it does not exist yet — never after a stop. */
  #link(index: number): ConnectionLink {
    if (this.#links.length <= index) {
      const stop = this.#stopped();
      if (stop !== undefined) throw stop;
    }
    while (this.#links.length <= index) {
      const o = this.#o;
      this.#links.push(
        new ConnectionLink({
          index: this.#links.length,
          url: gatewayUrl(o.url, o.gateway),
          gateway: o.gateway,
          headers: this.#headers(),
          origin: o.origin,
          clock: o.clock,
          random: o.random ?? Math.random,
          timing: this.settings.timing,
          counters: this.counters,
          logger: o.logger,
          hooks: {
            onUp: (l, info, reconnect) => this.#onUp(l, info, reconnect),
            onDown: (l, info) => this.#onDown(l, info),
            onFatal: (_l, err) => this.#onFatal(err),
            onPush: (l, frame, recvTs) => this.#onPush(l, frame, recvTs),
            onPong: (l, rtt, serverTs) => this.pongs.emit(l.index, rtt, serverTs),
            // The spec's answer to a lost book is get_book_snapshot; refused invalid_params, the
            // server may have dropped the token's subscription while the socket lived: check, and
            // repair (a refusal for load or failure says nothing of that: refusal-policy.ts).
            onPostRefused: (l, cmd, code) => {
              if (cmd === "get_book_snapshot" && mayMeanDropped(code)) void this.#subs.audit(l.index);
            },
          },
        }),
      );
    }
    return this.#links[index] as ConnectionLink;
  }

  #headers(): Record<string, string> {
    const key = this.#o.apiKey;
    const h: Record<string, string> = { "X-Api-Key": typeof key === "string" ? key : key.reveal() };
    if (this.#o.userWallet !== undefined && this.#o.userWallet !== "")
      h["X-User-Wallet"] = this.#o.userWallet;
    return h;
  }

  #onUp(link: ConnectionLink, info: ConnectedInfo, reconnect: boolean): void {
    this.#connected.set(link.index, info);
    this.ups.emit(link.index, reconnect); // before the resubscribe: the feed expects the snapshots
    this.#subs.linkUp(link.index);
    this.#ready.opened(link.index, info);
  }

  #onDown(link: ConnectionLink, info: ClosedInfo): void {
    this.#connected.delete(link.index);
    this.downs.emit(link.index, info);
  }

  #onFatal(err: GatewayFatalError): void {
    if (this.#fatal !== undefined || this.#closed) return;
    this.#fatal = err;
    for (const l of this.#links) l.halt();
    this.#failWaiters(err);
    this.fatals.emit(err);
  }

  #failWaiters(err: Error): void {
    this.#subs.failAll(err);
    this.#ready.failAll(err);
  }

  #onPush(link: ConnectionLink, frame: Record<string, unknown>, recvTs: number): void {
    const r = parseEventFrame(frame, this.#o.gateway);
    if ("rejected" in r) {
      if (this.frames.size > 0) this.frames.emit(frame, recvTs, link.index, undefined);
      bump(this.counters.malformed, r.rejected);
      this.lastMalformed = r;
      this.#refused(r, frame, link.index, recvTs);
      return;
    }
    bump(this.counters.framesByType, r.event.type);
    // Judged before the frame listeners hear it, so that a recorder can leave out what we drop. A
    // push under a sid we unsubscribed unanswered is ours when it runs ahead of the subscribe reply
    // that gives us that sid again: stray() keeps it while a subscribe is in flight (orphans.ts).
    const dropped: DroppedPush | undefined = this.#subs.stray(link.index, r.sid)
      ? "stray_sid"
      : this.#subs.wants(r.channel, eventKey(r.event) ?? "")
        ? undefined
        : "unsolicited";
    if (this.frames.size > 0) this.frames.emit(frame, recvTs, link.index, dropped);
    if (dropped !== undefined) return void bump(this.counters.dropped, dropped);
    this.events.emit(r.event, { link: link.index, sid: r.sid, channel: r.channel, recvTs });
  }

  /** A refused event of something subscribed: tell onRefused listeners what was lost. */
  #refused(r: EventFrameRejection, frame: Record<string, unknown>, link: number, recvTs: number): void {
    const { channel, type } = r;
    if (channel === undefined || type === undefined || this.refusals.size === 0) return;
    const ids = refusedIds(channel, frame, (c, id) => this.#subs.wants(c, id));
    if (ids === undefined) return;
    this.refusals.emit({ type, channel, rejected: r.rejected, field: r.field, ids, link, recvTs });
  }
}
