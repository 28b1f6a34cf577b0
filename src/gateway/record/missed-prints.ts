import type { Clock } from "../../core/clock.js";
import { type MarketFrame, PRINTS_MISSED_SID } from "../../recorded/format.js";
import type { Channel } from "../types.js";

/** What MissedPrints reads of the gateway client: the ids a link held. */
export interface LinkIds {
  idsOn(link: number, channel: Channel): readonly string[];
}

/**
 * Marks in the recording the stretches in which a token's trade prints cannot have been recorded:
 * the exchange does not replay token_trade_matches after a reconnect, so the prints made while a
 * connection was down (or already dead, before its silence was noticed) are lost, and a replay's
 * fill model would take that stretch for a market without trades. When a link goes down, each
 * token of its token_trade_matches subscription is open from the last frame received on that link
 * (the socket was alive then); once its subscription is accepted again, one frame
 * `{"type": "prints_missed", "sid": PRINTS_MISSED_SID, "channel": "token_trade_matches", "id":
 * tokenId, "via": "reconnect", "data": {tokenId, fromMs, toMs}}` is written. A stretch still open
 * when the recording stops (stopped during the outage, or reconnected but the token not accepted
 * again yet) is written by stop(), its toMs the stop's time: the prints up to there are missing
 * from the recording as surely, and a replay that did not list them would take the end of the
 * recording for a quiet market.
 * @example
 * const missed = new MissedPrints({ client, clock, write });
 * client.onFrame((_f, recvTs, link) => missed.frame(link, recvTs));
 * client.onLinkDown((link) => missed.down(link));
 * client.onAccepted((channel, ids) => missed.accepted(channel, ids));
 */
export class MissedPrints {
  readonly #client: LinkIds;
  readonly #clock: Clock;
  /** Queues a mark; false when the writer refused it (it failed or closed). */
  readonly #write: (frame: MarketFrame) => boolean;
  /** The receive time of the last frame of each link. */
  readonly #last = new Map<number, number>();
  /** Tokens whose prints are not being received, since when. */
  readonly #open = new Map<string, number>();
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

  /** `link` went down: its tokens' prints are missed from its last frame on. */
  down(link: number): void {
    if (this.#stopped) return;
    const from = this.#last.get(link) ?? this.#clock.now();
    for (const id of this.#client.idsOn(link, "token_trade_matches"))
      if (!this.#open.has(id)) this.#open.set(id, from);
  }

  /** Ids of a channel were (re)accepted: the prints of those tokens flow again. */
  accepted(channel: Channel, ids: readonly string[]): void {
    if (channel !== "token_trade_matches" || this.#stopped) return;
    for (const tokenId of ids) this.#close(tokenId);
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

  #close(tokenId: string): void {
    const fromMs = this.#open.get(tokenId);
    if (fromMs === undefined) return;
    this.#open.delete(tokenId);
    const taken = this.#write({
      type: "prints_missed",
      sid: PRINTS_MISSED_SID,
      channel: "token_trade_matches",
      id: tokenId,
      via: "reconnect",
      data: { tokenId, fromMs, toMs: this.#clock.now() },
    });
    if (taken) this.#written++;
  }
}
