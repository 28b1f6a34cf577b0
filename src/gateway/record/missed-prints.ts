import type { Clock } from "../../core/clock.js";
import { type MarketFrame, PRINTS_MISSED_SID } from "../../recorded/format.js";
import type { GatewayClient } from "../client.js";
import type { Channel } from "../types.js";
import type { RejectedIds } from "../waiters.js";

/** What MissedPrints reads of the gateway client: the ids a link held. */
export interface LinkIds {
  idsOn(link: number, channel: Channel): readonly string[];
}

/**
 * Why a stretch's prints were lost (the mark's `via`): its connection went down (`reconnect`), the
 * server was found no longer to hold its subscription while the socket lived (`dropped`: the
 * client's list_subscriptions check), or the server refused its subscribe for a while (`refused`:
 * a retryable code, accepted by a later attempt).
 */
export type MissedVia = "reconnect" | "dropped" | "refused";

const CHANNEL = "token_trade_matches";

/**
 * Marks in the recording the stretches in which a token's trade prints cannot have been recorded:
 * the exchange does not replay token_trade_matches, so the prints made while the token's
 * subscription was not held are lost, and a replay's fill model would take that stretch for a
 * market without trades. A stretch opens
 * - when a link goes down (`reconnect`), for each token of its token_trade_matches subscription,
 *   from the last frame received on that link (the socket was alive then), or later when the token
 *   was seen held later;
 * - when the client's subscriptions check finds the server no longer holding the token's
 *   subscription (`dropped`), from the last time it was known held: the previous check that
 *   listed it, its subscribe's reply, or the last print received for it;
 * - when the server refuses the token's subscribe with a retryable code (`refused`), from the
 *   refusal;
 * and once its subscription is accepted again, one frame `{"type": "prints_missed", "sid":
 * PRINTS_MISSED_SID, "channel": "token_trade_matches", "id": tokenId, "via", "data": {tokenId,
 * fromMs, toMs}}` is written. A token's stretch opens once: a second cause while it is open (a
 * reconnect while a refused subscribe waits) keeps its start and its `via`. A stretch still open
 * when the recording stops (stopped during the outage, or the token not accepted again yet) is
 * written by stop(), its toMs the stop's time: the prints up to there are missing from the
 * recording as surely, and a replay that did not list them would take the end of the recording
 * for a quiet market.
 * @example
 * const missed = new MissedPrints({ client, clock, write });
 * followMissedPrints(client, missed);
 */
export class MissedPrints {
  readonly #client: LinkIds;
  readonly #clock: Clock;
  /** Queues a mark; false when the writer refused it (it failed or closed). */
  readonly #write: (frame: MarketFrame) => boolean;
  /** The receive time of the last frame of each link. */
  readonly #last = new Map<number, number>();
  /** The last time each token's subscription was known held (accepted, listed, a print). */
  readonly #held = new Map<string, number>();
  /** Tokens whose prints are not being received: since when, and why. */
  readonly #open = new Map<string, { fromMs: number; via: MissedVia }>();
  #written = 0;
  #stopped = false;

  constructor(deps: { client: LinkIds; clock: Clock; write: (frame: MarketFrame) => boolean }) {
    this.#client = deps.client;
    this.#clock = deps.clock;
    this.#write = deps.write;
  }

  /**
   * Stretches the writer took (the summary's printsMissed). A mark it refused, having failed (a
   * stop for write_stalled or a disk error during an outage hands stop()'s marks to a failed
   * writer), is not in the files: counting it would tell the operator the lost prints are marked
   * while the replay lists none and takes the outage for a quiet market.
   */
  get written(): number {
    return this.#written;
  }

  /** A frame arrived on `link`. */
  frame(link: number, recvTs: number): void {
    this.#last.set(link, recvTs);
  }

  /**
   * A print of `tokenId` was received (a delivered trade event): its subscription was held then.
   * Not while a stretch is open: the resubscribe's first prints can come in the socket read of its
   * reply, before accepted() closes the stretch, and would shrink it to nothing. (So a check's list
   * that left out a sid the server still held marks up to the resubscribe though its prints flowed
   * until our unsubscribe: a mark says prints may be missing there, and the replay only lists it.)
   */
  printed(tokenId: string, recvTs: number): void {
    if (!this.#open.has(tokenId)) this.#seen(tokenId, recvTs);
  }

  /** A subscriptions check listed these ids as held by the server: held up to now. */
  held(channel: Channel, ids: readonly string[]): void {
    if (channel !== CHANNEL) return;
    const now = this.#clock.now();
    for (const id of ids) if (!this.#open.has(id)) this.#seen(id, now);
  }

  /** `link` went down: its tokens' prints are missed from its last frame on. */
  down(link: number): void {
    if (this.#stopped) return;
    const last = this.#last.get(link) ?? this.#clock.now();
    for (const id of this.#client.idsOn(link, CHANNEL))
      this.#begin(id, Math.max(last, this.#held.get(id) ?? last), "reconnect");
  }

  /**
   * The server was found no longer to hold these ids while the socket lived (onLost): their prints
   * are missed from the last time they were known held.
   */
  lost(channel: Channel, ids: readonly string[]): void {
    if (channel !== CHANNEL || this.#stopped) return;
    for (const id of ids) this.#begin(id, this.#held.get(id) ?? this.#clock.now(), "dropped");
  }

  /**
   * The server refused ids: refused with a retryable code (retried until accepted), their prints
   * are missed from now. A final refusal opens nothing (the token is no longer wanted at all); one
   * already open stays open, written at stop().
   */
  refused(r: RejectedIds): void {
    if (r.channel !== CHANNEL || r.retryInMs === undefined || this.#stopped) return;
    const now = this.#clock.now();
    for (const id of r.ids) this.#begin(id, now, "refused");
  }

  /** Ids of a channel were (re)accepted: the prints of those tokens flow again. */
  accepted(channel: Channel, ids: readonly string[]): void {
    if (channel !== CHANNEL || this.#stopped) return;
    const now = this.#clock.now();
    for (const tokenId of ids) {
      this.#close(tokenId);
      this.#seen(tokenId, now);
    }
  }

  /**
   * The recording stops: every stretch still open is written, ending now, and nothing is marked
   * from then on (closing the connections is no outage). Call it before the writer closes.
   */
  stop(): void {
    if (this.#stopped) return;
    for (const tokenId of [...this.#open.keys()]) this.#close(tokenId);
    this.#stopped = true;
  }

  #seen(tokenId: string, ms: number): void {
    this.#held.set(tokenId, Math.max(ms, this.#held.get(tokenId) ?? ms));
  }

  #begin(tokenId: string, fromMs: number, via: MissedVia): void {
    if (!this.#open.has(tokenId)) this.#open.set(tokenId, { fromMs, via });
  }

  #close(tokenId: string): void {
    const open = this.#open.get(tokenId);
    if (open === undefined) return;
    this.#open.delete(tokenId);
    const taken = this.#write({
      type: "prints_missed",
      sid: PRINTS_MISSED_SID,
      channel: CHANNEL,
      id: tokenId,
      via: open.via,
      data: { tokenId, fromMs: open.fromMs, toMs: this.#clock.now() },
    });
    if (taken) this.#written++;
  }
}

/**
 * Feeds `missed` from `client`: every frame's link and time (before any is dropped: a stray push
 * still shows the socket alive), the prints delivered, links going down, subscriptions lost,
 * listed as held, refused and accepted.
 */
export function followMissedPrints(client: GatewayClient, missed: MissedPrints): void {
  client.onFrame((_frame, recvTs, link) => missed.frame(link, recvTs));
  client.onEvent((e, meta) => {
    if (e.type === "trade_matched") missed.printed(e.tokenId, meta.recvTs);
  });
  client.onLinkDown((link) => missed.down(link));
  client.onLost((channel, ids) => missed.lost(channel, ids));
  client.onHeld((channel, ids) => missed.held(channel, ids));
  client.onRejected((r) => missed.refused(r));
  client.onAccepted((channel, ids) => missed.accepted(channel, ids));
}
