import type { Clock } from "../core/clock.js";
import {
  type BookCounters,
  type BookState,
  type BookStateEvent,
  type BookStateReason,
  zeroCounters,
} from "./book-state.js";
import { type EntryRejection, parseBookInto, parseChangesInto } from "./entries.js";
import type { BookDeltaEvent, BookEvent, BookSnapshotEvent, BookUpdateEvent } from "./events.js";
import { LevelBuffer } from "./level-buffer.js";
import type { BookView } from "./order-book.js";
import { SnapshotRetry } from "./snapshot-retry.js";
import { StallWatch } from "./stall-watch.js";
import { StatePublisher } from "./state-publisher.js";
import { isSeq, sameBook, TokenBook } from "./token-book.js";
import {
  type BookTrackerOptions,
  type SnapshotPort,
  type TrackerConfig,
  trackerConfig,
} from "./tracker-config.js";

/**
 * Keeps one OrderBook per token in step with the token_book channel and says, per book, whether it
 * can be trusted (see BookStatus). Rules, from the spec's "Book rules":
 * - a book_snapshot (one follows every subscribe) replaces the book and makes it `synced`;
 * - book_update (full replacement) and book_delta (changes) must carry prevSeq = the last seq;
 *   otherwise it is a gap: `resyncing`, one get_book_snapshot, frames ignored until a snapshot;
 * - frames lacking seq or prevSeq are dropped; frames with seq ≤ the last one are dropped;
 * - a snapshot below a seq its stream already showed is dropped and asked again (it is behind);
 * - book_snapshot_failed and unanswered requests are retried with exponential back-off;
 * - a crossed book is not quotable and, under the "resync" policy, is resynced;
 * - stalls are judged per book against its own rate and the liveness of its link (linkOf).
 * Events for a token never tracked start tracking it, unless it was retired (its market settled).
 * Malformed input is counted, never thrown. Time comes from the injected Clock only, so a replay
 * reproduces every decision.
 */
export class BookTracker {
  readonly config: TrackerConfig;
  readonly #clock: Clock;
  readonly #port: SnapshotPort;
  readonly #books = new Map<string, TokenBook>();
  /** Tokens retired for good (retire): nothing of theirs is tracked again. */
  readonly #retired = new Set<string>();
  /** Tokens untracked because the server refused their subscription for good (refuse). */
  readonly #refused = new Set<string>();
  readonly #counters = zeroCounters();
  readonly #buf = new LevelBuffer();
  readonly #parsed: ((e: BookEvent) => LevelBuffer | undefined) | undefined;
  readonly #pub: StatePublisher;
  readonly #watch: StallWatch;
  #lastRejection: EntryRejection | undefined;

  constructor(opts: BookTrackerOptions) {
    this.config = trackerConfig(opts.config);
    this.#clock = opts.clock;
    this.#port = opts.port;
    this.#parsed = opts.parsed;
    this.#pub = new StatePublisher(opts.clock);
    this.#watch = new StallWatch(
      opts.clock,
      this.config.stall,
      this.#books,
      {
        connectionSilent: (st) => this.#pub.set(st, "stale", "connection_silent"),
        connectionAlive: (st) => this.#pub.set(st, "synced", "connection_alive"),
        bookSilent: (st) => {
          this.#counters.stalls++;
          st.probe = true;
          st.awaiting = true;
          this.#pub.set(st, "stale", "book_silent");
          st.retry.requestNow();
        },
      },
      opts.linkOf,
    );
  }

  /** Starts tracking a token just subscribed: `resyncing` until its snapshot arrives. */
  track(tokenId: string): void {
    if (!this.#books.has(tokenId) && !this.#retired.has(tokenId)) this.#add(tokenId);
  }

  /** After a resubscribe (reconnect): the book waits for the snapshot that follows subscribe. */
  expectSnapshot(tokenId: string): void {
    const st = this.#books.get(tokenId);
    if (st !== undefined) this.#resync(st, "resubscribed", false);
    else if (!this.#retired.has(tokenId)) this.#add(tokenId);
  }

  /**
   * The token's subscription is gone for now (the connection carrying it dropped, the server
   * refused it, the client stopped): frames are being lost, so the book is `resyncing`
   * ("resubscribed"), and nothing can be asked meanwhile, so nothing is asked or timed out until
   * expectSnapshot or resume says the subscription is back (its snapshot follows).
   */
  subscriptionLost(tokenId: string): void {
    const st = this.#books.get(tokenId);
    if (st === undefined) return;
    st.awaiting = true;
    st.probe = false;
    st.resubscribing(); // a subscribe is sent again
    this.#pub.set(st, "resyncing", "resubscribed");
    st.retry.park();
  }

  /**
   * The token's subscription is live again (accepted): a book waiting without a timer
   * (subscriptionLost, or a request it could not send) waits for the snapshot every subscribe
   * brings, asking if it does not come; one that could not ask and whose subscribe's snapshot came
   * already (a slow ack: it synced the book, which then lost frames, or failed: `spent`) asks now.
   */
  resume(tokenId: string): void {
    const st = this.#books.get(tokenId);
    if (st?.retry.parked !== true) return;
    if (st.retry.unsent && (st.lastSeq !== undefined || st.spent)) st.retry.requestNow();
    else st.retry.expect();
  }

  /** Stops tracking a token (after unsubscribe): it is not wanted, so not refused either. */
  untrack(tokenId: string): void {
    this.#refused.delete(tokenId);
    this.#drop(tokenId);
  }

  /**
   * The server refused the token's subscription for good (a final code: the key's scope, a
   * malformed id…), so nothing of it will come: untracked like after an unsubscribe, but remembered
   * as refused until it is tracked again (a new subscribe, a frame) or retired. A token that was
   * wanted and is not quoted has no book state left to show it: `refused()` does (the
   * mm_book_refused gauge and its MmBookRefused alert).
   * @example client.onRejected((r) => { if (r.retryInMs === undefined) for (const t of r.ids) tracker.refuse(t); });
   */
  refuse(tokenId: string): void {
    this.#drop(tokenId);
    if (!this.#retired.has(tokenId)) this.#refused.add(tokenId);
  }

  /** Tokens whose subscription was refused for good and that are not tracked again since (refuse). */
  refused(): string[] {
    return [...this.#refused];
  }

  /**
   * Stops watching a token's book for good: its market settled, and the exchange sends a resolved
   * market's book no more, so a live watch would only judge it stale and ask for snapshots. Untracked
   * at once without a state event (the engine holds the market gated for good; a last `stale` would
   * only be noise): no stall verdict, snapshot request or retry; its frames still on their way, and
   * any track, expectSnapshot or frameLost of it, are ignored from now on.
   * @example engine listener: if (e.type === "market_settled") for (const t of e.tokenIds) tracker.retire(t);
   */
  retire(tokenId: string): void {
    this.#retired.add(tokenId);
    this.untrack(tokenId);
  }

  /** Whether `retire` retired the token. */
  retired(tokenId: string): boolean {
    return this.#retired.has(tokenId);
  }

  /** Tracked token ids. */
  tokens(): string[] {
    return [...this.#books.keys()];
  }

  /** The book of a token (read-only view), whatever its state; check state() before quoting. */
  book(tokenId: string): BookView | undefined {
    return this.#books.get(tokenId)?.book;
  }

  /** The state of a token's book. */
  state(tokenId: string): BookState | undefined {
    return this.#books.get(tokenId)?.view();
  }

  /** Counters over all books (a live object: read, do not write). */
  get counters(): Readonly<BookCounters> {
    return this.#counters;
  }

  /** The most recent malformed-entry rejection, for diagnostics. */
  get lastRejection(): EntryRejection | undefined {
    return this.#lastRejection;
  }

  /** Calls `fn` on every status or quotability change; returns an unsubscribe function. */
  onState(fn: (e: BookStateEvent) => void): () => void {
    return this.#pub.onState(fn);
  }

  /** Calls `fn` after every applied snapshot, update or delta; returns an unsubscribe function. */
  onBook(fn: (book: BookView) => void): () => void {
    return this.#pub.onBook(fn);
  }

  /** The connection proved alive (e.g. a pong) at `ts`: a tracker given no linkOf, one connection. */
  onConnectionAlive(ts: number = this.#clock.now()): void {
    this.#watch.alive(ts);
  }

  /**
   * Link `link` proved alive (a pong, a reconnect) at `ts`: it counts for the books on that link
   * only (linkOf), and brings back only theirs if stale for connection silence.
   */
  onLinkAlive(link: number, ts: number = this.#clock.now()): void {
    this.#watch.alive(ts, link);
  }

  /** Consumes one token_book event (none of a retired token). */
  onEvent(e: BookEvent): void {
    if (this.#retired.has(e.tokenId)) return;
    const st = this.#books.get(e.tokenId) ?? this.#add(e.tokenId);
    if (e.type === "book_delta" || e.type === "book_update") this.#sequenced(st, e);
    else if (e.type === "book_snapshot") this.#snapshot(st, e);
    else {
      this.#counters.snapshotFailures++;
      st.spent = true;
      if (st.retry.pending || st.status === "resyncing") st.retry.failed();
    }
  }

  /**
   * A token_book frame of a tracked token was refused before it could reach onEvent (the gateway's
   * boundary parser: a seq or tsMs of the wrong type…): counted as malformed. A book following the
   * exchange (synced or stale) can only be resynced; a resyncing book ignored updates and deltas
   * anyway, but a lost book_snapshot(_failed) may have been the answer it waits for: that attempt
   * counts as failed (asked again after back-off). Untracked tokens are ignored.
   * @example client.onRefused((r) => { if (r.channel === "token_book") for (const t of r.ids) tracker.frameLost(t, r.type); });
   */
  frameLost(tokenId: string, type?: string): void {
    const st = this.#books.get(tokenId);
    if (st === undefined) return;
    this.#counters.malformed++;
    if (st.status !== "resyncing") this.#resync(st, "malformed", true);
    else if (type === "book_snapshot" || type === "book_snapshot_failed") {
      st.spent = true; // the answer it waited for, lost: none is coming
      st.retry.failed();
    }
  }

  /** Cancels every timer; the tracker must not be used afterwards. */
  close(): void {
    for (const st of this.#books.values()) st.retry.cancel();
    this.#watch.stop();
  }

  #sequenced(st: TokenBook, e: BookDeltaEvent | BookUpdateEvent): void {
    const c = this.#counters;
    const { seq, prevSeq } = e;
    if (seq !== undefined && isSeq(seq)) st.saw(seq);
    if (seq === undefined || prevSeq === undefined) c.droppedMissingSeq++;
    else if (!isSeq(seq) || !isSeq(prevSeq)) c.malformed++;
    else if (st.status === "resyncing") c.droppedWhileResyncing++;
    else if (seq <= (st.lastSeq as number)) c.droppedStale++;
    else if (prevSeq !== st.lastSeq) {
      c.gaps++;
      this.#resync(st, "gap", true);
    } else {
      const buf = this.#entries(st, e);
      if (buf === undefined) return;
      if (e.type === "book_delta") {
        st.book.applyChanges(buf);
        c.deltas++;
      } else {
        st.book.replace(buf);
        c.updates++;
      }
      const now = this.#clock.now();
      st.lastSeq = seq;
      st.lastUpdateTs = now;
      st.rate.arrive(now);
      if (st.probe) {
        // The stream is alive after all: stop probing (a late answer is handled like any snapshot).
        st.probe = false;
        st.awaiting = false;
        st.retry.settle();
      }
      this.#settle(st, "update_received");
    }
  }

  #snapshot(st: TokenBook, e: BookSnapshotEvent): void {
    const c = this.#counters;
    const seq = e.seq;
    if (seq === undefined) return void c.droppedMissingSeq++;
    if (!isSeq(seq)) return void c.malformed++;
    const taken = st.snapshotAt(seq);
    if (taken === "behind") st.retry.failed(); // a book known to be behind: asked again
    if (taken !== "take") return void c.droppedStale++;
    const buf = this.#entries(st, e);
    if (buf === undefined) return;
    const now = this.#clock.now();
    if (st.probe && st.lastUpdateTs !== undefined && sameBook(st.book, buf)) {
      st.rate.absorb(now - st.lastUpdateTs); // a genuinely quiet spell: widen this book's yardstick
    }
    st.book.replace(buf);
    st.lastSeq = seq;
    st.seen = seq;
    st.lastUpdateTs = now;
    st.rate.restart(now);
    st.awaiting = false;
    st.probe = false;
    c.snapshots++;
    this.#settle(st, "snapshot");
  }

  /** After a frame was applied: crossed detection, then `synced` unless the policy resyncs. */
  #settle(st: TokenBook, why: BookStateReason): void {
    const wasCrossed = st.crossed;
    st.crossed = st.book.isCrossed();
    const resync = st.crossed && this.config.crossed === "resync";
    if (why === "snapshot" && !resync) st.retry.settle();
    if (st.crossed && !wasCrossed) this.#counters.crossed++;
    if (resync) {
      st.awaiting = true;
      this.#pub.set(st, "resyncing", "crossed");
      // A crossed snapshot is asked again after back-off, so repeated ones slow the requests down.
      if (why === "snapshot") st.retry.failed();
      else st.retry.requestNow();
    } else if (st.crossed) {
      if (!wasCrossed) {
        st.awaiting = true; // "flag": ask once, accept an answer, keep applying meanwhile
        this.#send(st);
      }
      this.#pub.set(st, "synced", wasCrossed ? why : "crossed");
    } else {
      this.#pub.set(st, "synced", wasCrossed ? "uncrossed" : why);
    }
    this.#pub.bookChanged(st);
  }

  /**
   * The frame's entries: those handed over already parsed (BookTrackerOptions.parsed), else parsed
   * here; undefined when they are malformed (the book is then handled as such).
   */
  #entries(st: TokenBook, e: BookDeltaEvent | BookUpdateEvent | BookSnapshotEvent): LevelBuffer | undefined {
    const given = this.#parsed?.(e);
    if (given !== undefined) return given;
    const buf = this.#buf;
    const bad =
      e.type === "book_delta" ? parseChangesInto(e.changes, buf) : parseBookInto(e.bids, e.asks, buf);
    if (bad === undefined) return buf;
    this.#malformed(st, bad);
    return undefined;
  }

  #malformed(st: TokenBook, bad: EntryRejection): void {
    this.#counters.malformed++;
    this.#lastRejection = bad;
    // The exchange's book moved on by a frame we could not apply: ours can only be resynced.
    if (st.status === "resyncing") st.retry.failed();
    else this.#resync(st, "malformed", true);
  }

  #resync(st: TokenBook, reason: BookStateReason, requestNow: boolean): void {
    if (reason === "resubscribed") st.resubscribing();
    st.awaiting = true;
    st.probe = false;
    this.#pub.set(st, "resyncing", reason);
    if (requestNow) st.retry.requestNow();
    else st.retry.expect();
  }

  /** Asks the port; false when it sent nothing (then no request is counted: see SnapshotPort). */
  #send(st: TokenBook): boolean {
    try {
      if (this.#port.requestSnapshot(st.tokenId) === false) return false;
    } catch {
      // Counted as a request that failed; the pending timeout turns it into a retry with back-off.
      this.#counters.portErrors++;
    }
    this.#counters.resyncs++;
    return true;
  }

  #drop(tokenId: string): void {
    this.#books.get(tokenId)?.retry.cancel();
    this.#books.delete(tokenId);
    if (this.#books.size === 0) this.#watch.stop();
  }

  #add(tokenId: string): TokenBook {
    this.#refused.delete(tokenId); // tracked again: a subscribe went out, or its frames come
    const st = new TokenBook(tokenId, this.config.stall.alpha, this.#clock.now(), (t) => {
      return new SnapshotRetry(this.#clock, this.config.backoff, this.config.snapshotTimeoutMs, {
        send: () => this.#send(t),
        timedOut: () => void this.#counters.snapshotTimeouts++,
      });
    });
    this.#books.set(tokenId, st);
    st.retry.expect();
    this.#pub.announce(st, undefined);
    this.#watch.arm();
    return st;
  }
}
