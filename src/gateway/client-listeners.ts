import type { ClosedInfo } from "./connection-types.js";
import type { GatewayFatalError } from "./errors.js";
import { Listeners } from "./listeners.js";
import type { RefusedEvent } from "./refused.js";
import type { ChannelEvent } from "./schema/events.js";
import type { Channel } from "./types.js";
import type { RejectedIds, RestoredIds } from "./waiters.js";

/** Why a valid push was dropped as not ours (onFrame; the counters.dropped reason). */
export type DroppedPush = "stray_sid" | "unsolicited";

/** Where and when an event arrived. */
export interface EventMeta {
  readonly link: number;
  readonly sid: number | string;
  readonly channel: Channel;
  /** Local receive time on the client's Clock. */
  readonly recvTs: number;
}

/**
 * The listener side of GatewayClient: what can be listened to, and the sets the client emits on.
 * Listeners run synchronously; one that throws is isolated and reported to `onListenerError`.
 */
export class ClientListeners {
  protected readonly events: Listeners<[ChannelEvent, EventMeta]>;
  protected readonly frames: Listeners<[Record<string, unknown>, number, number, DroppedPush | undefined]>;
  protected readonly fatals: Listeners<[GatewayFatalError]>;
  protected readonly ups: Listeners<[number, boolean]>;
  protected readonly downs: Listeners<[number, ClosedInfo]>;
  protected readonly pongs: Listeners<[number, number, number | undefined]>;
  protected readonly rejections: Listeners<[RejectedIds]>;
  protected readonly restorations: Listeners<[RestoredIds]>;
  protected readonly acceptances: Listeners<[Channel, readonly string[]]>;
  protected readonly refusals: Listeners<[RefusedEvent]>;
  protected readonly losses: Listeners<[Channel, readonly string[]]>;
  protected readonly holdings: Listeners<[Channel, readonly string[]]>;

  constructor(onListenerError: (err: unknown) => void) {
    this.events = new Listeners(onListenerError);
    this.frames = new Listeners(onListenerError);
    this.fatals = new Listeners(onListenerError);
    this.ups = new Listeners(onListenerError);
    this.downs = new Listeners(onListenerError);
    this.pongs = new Listeners(onListenerError);
    this.rejections = new Listeners(onListenerError);
    this.restorations = new Listeners(onListenerError);
    this.acceptances = new Listeners(onListenerError);
    this.refusals = new Listeners(onListenerError);
    this.losses = new Listeners(onListenerError);
    this.holdings = new Listeners(onListenerError);
  }

  /** Typed, validated events of subscribed ids. Returns the removal. */
  onEvent(fn: (e: ChannelEvent, meta: EventMeta) => void): () => void {
    return this.events.add(fn);
  }

  /**
   * Every push frame as received, with receive time and link: for recorders. `dropped` is set on a
   * valid event the client drops as not ours (counted in counters.dropped under that reason, never
   * an onEvent): a push of a sid whose unsubscribe went unanswered (`stray_sid`; not while a
   * subscribe or update_subscription is in flight on the link, whose reply may give us that very
   * sid: orphans.ts) or of an id no longer wanted (`unsolicited`); undefined on every other frame,
   * malformed ones included.
   */
  onFrame(
    fn: (
      frame: Record<string, unknown>,
      recvTs: number,
      link: number,
      dropped: DroppedPush | undefined,
    ) => void,
  ): () => void {
    return this.frames.add(fn);
  }

  /** The client stopped for good (4401 …, a handshake 1008): called once. */
  onFatal(fn: (err: GatewayFatalError) => void): () => void {
    return this.fatals.add(fn);
  }

  /** A link connected (`reconnect` after a drop); its subscriptions are being restored. */
  onLinkUp(fn: (link: number, reconnect: boolean) => void): () => void {
    return this.ups.add(fn);
  }

  /** A link's connection dropped; what it carried is lost until the reconnect. */
  onLinkDown(fn: (link: number, info: ClosedInfo) => void): () => void {
    return this.downs.add(fn);
  }

  /** A keepalive pong arrived on a link. */
  onPong(fn: (link: number, rttMs: number, serverTs: number | undefined) => void): () => void {
    return this.pongs.add(fn);
  }

  /**
   * The server refused ids (at subscribe, on a resubscribe after a reconnect, or on a retry). A
   * final refusal un-wants them; one with `retryInMs` keeps them wanted and tries again after it.
   */
  onRejected(fn: (r: RejectedIds) => void): () => void {
    return this.rejections.add(fn);
  }

  /** Ids refused earlier with a retryable code were accepted by a later attempt. */
  onRestored(fn: (r: RestoredIds) => void): () => void {
    return this.restorations.add(fn);
  }

  /**
   * The server now holds ids of a channel (a subscribe, the resubscribe after a reconnect, a
   * retry): their events flow again, and for token_book each one's snapshot follows.
   */
  onAccepted(fn: (channel: Channel, ids: readonly string[]) => void): () => void {
    return this.acceptances.add(fn);
  }

  /**
   * An event of a subscribed id (or wallet-scoped channel) arrived unusable and was dropped
   * (counted as malformed): its followers lost an event and must recover (a book resyncs).
   */
  onRefused(fn: (r: RefusedEvent) => void): () => void {
    return this.refusals.add(fn);
  }

  /**
   * Ids whose subscription the server was found no longer to hold while the socket lived ([""] on a
   * wallet-scoped channel): what they carried since was lost; they are being subscribed again
   * (onAccepted follows). Returns the removal.
   */
  onLost(fn: (channel: Channel, ids: readonly string[]) => void): () => void {
    return this.losses.add(fn);
  }

  /**
   * A subscriptions check (list_subscriptions) showed the server holding these confirmed ids ([""]
   * on a wallet-scoped channel): their pushes were flowing up to now. Returns the removal.
   */
  onHeld(fn: (channel: Channel, ids: readonly string[]) => void): () => void {
    return this.holdings.add(fn);
  }
}
