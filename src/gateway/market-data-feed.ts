import { BOOK_EVENT_TYPES, type BookEvent } from "../book/events.js";
import { BookTracker } from "../book/tracker.js";
import type { TrackerOptions } from "../book/tracker-config.js";
import type { Clock } from "../core/clock.js";
import type { GatewayClient } from "./client.js";
import type { ConnectedInfo } from "./connection-types.js";
import {
  DEFAULT_RECHECK_BACKOFF,
  type RecheckBackoff,
  type RecheckScheduled,
  RefusedBookRecheck,
} from "./refused-books.js";
import type { ChannelEvent } from "./schema/events.js";
import type { SubscribeOutcome } from "./waiters.js";

export interface MarketDataFeedOptions {
  /** A client of the /ws/market gateway. */
  readonly client: GatewayClient;
  /** The tracker's clock (the client's, normally). */
  readonly clock: Clock;
  readonly tracker?: TrackerOptions;
  /** Back-off of the re-subscribes of books refused with a code that can change (refused-books.ts). */
  readonly recheck?: Partial<RecheckBackoff>;
  /** A refused book's re-subscribe was scheduled (for the log: the first refusal and each retry's). */
  readonly onRecheck?: (e: RecheckScheduled) => void;
  /** Books refused for good were subscribed again by a re-subscribe (for the log). */
  readonly onRecovered?: (tokenIds: readonly string[]) => void;
}

const BOOK_TYPES: ReadonlySet<string> = new Set(BOOK_EVENT_TYPES);

/** True for the token_book events. */
export function isBookEvent(e: ChannelEvent): e is BookEvent {
  return BOOK_TYPES.has(e.type);
}

/**
 * The /ws/market gateway wired to a BookTracker — the live and paper `MarketData` for books:
 * - token_book events go to the tracker;
 * - the tracker's snapshot requests (gaps, crossed books, stalls, book_snapshot_failed retries)
 *   become get_book_snapshot on the connection holding the token;
 * - pongs (and a link coming up) tell the tracker that link is alive (its stall detector needs
 *   that): each book is judged by the liveness of the link its subscription lives on, so a silent
 *   link makes only its own books stale and one link's pongs revive only its own;
 * - a dropped connection makes its books `resyncing` at once (frames were lost); nothing can be
 *   asked for them until it is back (a snapshot request the client could not send is not counted
 *   and not timed out), and the resubscribe after the reconnect brings the snapshot the tracker
 *   was told to expect;
 * - a token_book frame of a tracked token refused by validation (a seq or tsMs of the wrong
 *   type…) is a frame the book missed: the tracker counts it and resyncs the book (frameLost);
 * - a book is never quotable while its token_book subscription is refused: refused for good
 *   (a final code, refusal-policy.ts) it is untracked, its last state announced not quotable, and
 *   remembered as refused (tracker.refused(): the mm_book_refused gauge) until subscribed again;
 *   when its code can change (invalid_params: refusal-policy.ts) it is subscribed again after a
 *   back-off doubling from 5 s to 5 min (refused-books.ts), and tracked once accepted;
 *   refused with a retryable code it stays tracked and `resyncing` until the retried subscription's
 *   snapshot arrives;
 * - a subscription the server dropped while the socket lived (the client's list_subscriptions
 *   check after a refused get_book_snapshot: GatewayClient.onLost) makes its books `resyncing`
 *   until the client's resubscribe brings their snapshots;
 * - a fatal close leaves every book `resyncing`.
 * @example
 * const feed = new MarketDataFeed({ client, clock });
 * await feed.start();
 * await feed.subscribeBooks([yesTokenId, noTokenId]);
 * feed.tracker.onState((s) => …); feed.tracker.book(yesTokenId)?.mid();
 */
export class MarketDataFeed {
  readonly client: GatewayClient;
  readonly tracker: BookTracker;
  readonly #off: (() => void)[] = [];
  readonly #recheck: RefusedBookRecheck;

  constructor(opts: MarketDataFeedOptions) {
    const client = opts.client;
    this.client = client;
    const tracker = new BookTracker({
      clock: opts.clock,
      port: { requestSnapshot: (tokenId) => client.requestBookSnapshot(tokenId) },
      ...(opts.tracker === undefined ? {} : { config: opts.tracker }),
      linkOf: (tokenId) => client.linkOf("token_book", tokenId),
    });
    this.tracker = tracker;
    this.#recheck = new RefusedBookRecheck({
      clock: opts.clock,
      backoff: { ...DEFAULT_RECHECK_BACKOFF, ...opts.recheck },
      stillRefused: (t) => tracker.refused().includes(t),
      resubscribe: async (ids) => {
        const { accepted } = await client.subscribe("token_book", ids);
        const back = accepted.filter((t) => !tracker.retired(t));
        for (const t of back) {
          this.#recheck.accepted(t);
          tracker.track(t); // its snapshot follows the subscribe (or came already and tracked it)
        }
        if (back.length > 0) opts.onRecovered?.(back);
      },
    });
    const expectOn = (link: number) => {
      for (const t of client.idsOn(link, "token_book")) tracker.expectSnapshot(t);
    };
    this.#off.push(
      client.onEvent((e) => {
        if (isBookEvent(e)) tracker.onEvent(e);
      }),
      client.onPong((link) => tracker.onLinkAlive(link)),
      // Nothing of that link can be asked until it is back: its books wait for the resubscribe.
      client.onLinkDown((link) => {
        for (const t of client.idsOn(link, "token_book")) tracker.subscriptionLost(t);
      }),
      client.onLinkUp((link, reconnect) => {
        tracker.onLinkAlive(link);
        if (reconnect) expectOn(link);
      }),
      client.onRefused((r) => {
        if (r.channel === "token_book") for (const t of r.ids) tracker.frameLost(t, r.type);
      }),
      client.onRejected((r) => {
        if (r.channel !== "token_book") return;
        for (const t of r.ids) {
          // Whatever it was before, the book is not following the exchange now: say so first.
          tracker.subscriptionLost(t);
          if (r.retryInMs === undefined) tracker.refuse(t);
        }
        if (r.retryInMs !== undefined) return;
        const scheduled = this.#recheck.refused(r.ids, r.code);
        if (scheduled !== undefined) opts.onRecheck?.(scheduled);
      }),
      // The server dropped the subscription while the socket lived (found by the client's check
      // after a refused get_book_snapshot): frames were lost; the resubscribe's snapshot resyncs.
      client.onLost((channel, ids) => {
        if (channel === "token_book") for (const t of ids) tracker.subscriptionLost(t);
      }),
      client.onAccepted((channel, ids) => {
        if (channel !== "token_book") return;
        for (const t of ids) {
          // Held by the server, by whatever path (the recheck, or the gateway's retry after a
          // retryable refusal of it): its refusals in a row end, so a later refusal starts afresh.
          this.#recheck.accepted(t);
          // Live again: a book left waiting while nothing could be asked waits for this snapshot.
          tracker.resume(t);
        }
      }),
      client.onRestored((r) => {
        // The retried subscribe was accepted: its snapshot follows, as after any subscribe. It can
        // also be here already (reply and snapshot in one socket read, the reply's continuation
        // running after both): only a book still waiting is re-armed, a synced one is left synced.
        if (r.channel === "token_book")
          for (const t of r.ids) if (tracker.state(t)?.status === "resyncing") tracker.expectSnapshot(t);
      }),
      client.onFatal(() => {
        for (const t of tracker.tokens()) tracker.subscriptionLost(t);
      }),
    );
  }

  /** Opens the first connection. */
  start(): Promise<ConnectedInfo> {
    return this.client.start();
  }

  /**
   * Tracks and subscribes token_book for `tokenIds`: each book is `resyncing` until the snapshot
   * that follows the subscription (tracked while its link is down, it waits for the link first).
   * Resolves with the server's verdict per id; ids refused for good are untracked and remembered
   * as refused (tracker.refused()), ids refused with `retryInMs` stay tracked (resyncing) while
   * they are retried.
   */
  async subscribeBooks(tokenIds: readonly string[]): Promise<SubscribeOutcome> {
    for (const t of tokenIds) this.tracker.track(t);
    // subscribe() places the ids on their links before it awaits anything.
    const subscribed = this.client.subscribe("token_book", tokenIds);
    // A book on a link that is not open (dropped, or a new link still connecting) has no subscribe
    // out, so no snapshot is coming: it is parked like the books of a dropped link, not timed out;
    // the link's reconnect (expectSnapshot) or the accepted subscribe (resume) re-arms it.
    for (const t of tokenIds) {
      if (!this.client.linkOpenFor("token_book", t)) this.tracker.subscriptionLost(t);
    }
    const outcome = await subscribed;
    for (const r of outcome.rejected) {
      if (r.retryInMs === undefined) for (const t of r.ids) this.tracker.refuse(t);
    }
    return outcome;
  }

  /**
   * The re-subscribe a book refused for good waits for (its refusals in a row, the delay it was
   * scheduled with), or undefined when
   * it is not retried (a code that cannot change, subscribed again, or never refused).
   */
  recheckOf(tokenId: string): { attempt: number; inMs: number } | undefined {
    return this.#recheck.pending(tokenId);
  }

  /** Unsubscribes and stops tracking. */
  async unsubscribeBooks(tokenIds: readonly string[]): Promise<void> {
    await this.client.unsubscribe("token_book", tokenIds);
    for (const t of tokenIds) this.tracker.untrack(t);
  }

  /**
   * Retires the books of a settled market: the tracker stops watching them for good at once
   * (BookTracker.retire: no stall verdict, snapshot request or state), then their token_book
   * subscription is dropped. Resolves once the links were synced.
   */
  async retireBooks(tokenIds: readonly string[]): Promise<void> {
    for (const t of tokenIds) this.tracker.retire(t);
    await this.client.unsubscribe("token_book", tokenIds);
  }

  /** Closes the client and the tracker's timers. */
  async close(): Promise<void> {
    for (const off of this.#off.splice(0)) off();
    this.#recheck.stop();
    this.tracker.close();
    await this.client.close();
  }
}
