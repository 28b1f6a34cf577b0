import { ClockStepWatch } from "../core/clock-step.js";
import { MmError } from "../core/errors.js";
import { pacedBurst, ReportedLimit, type ServerRateView } from "./reported-limit.js";
import { insertSorted, lowerBound, upperBound } from "./token-bucket-sorted.js";

/** X-RateLimit-Reset is whole seconds: the server's window may have begun up to this much earlier. */
const RESET_RESOLUTION_MS = 1_000;

/** Shape of one bucket: the server's fixed window plus our safety margin and smoothing burst. */
export interface TokenBucketOptions {
  /** Requests the server allows per fixed window. */
  limit: number;
  windowMs: number;
  /**
   * How long past the window a spent token stays out. It must cover the spread of the delay between
   * our send and the server's count (latency jitter, signing), because the server counts arrivals.
   */
  marginMs?: number;
  /**
   * Smoothing: at most this many sends back to back, refilled at limit / (window + margin). Paced at a
   * lower reported limit, the burst shrinks in proportion (a whole-limit burst stays whole).
   */
  burst?: number;
}

/** Thrown when code tries to take a token the bucket does not have: a bug, never a runtime condition. */
export class BucketEmptyError extends MmError {
  constructor(details: Record<string, unknown>) {
    super("rate_bucket_empty", "tried to send with an empty rate bucket", details);
  }
}

/**
 * A token bucket in which every spent token comes back exactly `window + margin` after the request
 * that spent it was sent. Invariant: at any instant at most `limit` tokens are out (reserved,
 * sent within the last window + margin, or charged to foreign use the server reported). Hence any
 * interval of length window + margin holds at most `limit` sends, whatever the alignment of the
 * server's fixed windows and however late within `margin` each request reaches the server.
 *
 * A reservation (taken when a send is decided, committed when it actually leaves) keeps a token out
 * from decision to send, so asynchronous signing in between cannot break the invariant.
 *
 * After a hold ({@link block}: a 429's Retry-After) the bucket does not hand out what refilled during
 * it all at once: it restarts at the hold's end with what it had when the hold began, but no more
 * than its burst less what its rate refills in a hold as long, and at least one token; then one more
 * per holdMs / limit until its burst is whole again. After a long hold (as long as the burst takes to
 * refill) that is one token, then the bucket's rate: every request that waited out the hold would
 * otherwise leave in the same instant, into a server that had just said "too many". A short hold
 * costs at most the tokens it lasted: a one-second 429 leaves a full IP placement bucket (burst 167,
 * 1000 per 60 s) 150 tokens, where restarting every bucket from one token held placements at the
 * IP's 16.7/s for ten seconds.
 *
 * While our own sends fill the log the pacer keeps at most one token. Tokens it refilled while the
 * log held a send back could only leave the instant old sends left the log: under steady demand the
 * IP's placement bucket (burst 167, 1000 per 60 s) filled its log ~50 s after a start-up burst, held
 * everything ~10 s until that burst left it, refilled its whole burst meanwhile and spent it in that
 * instant — the same burst and the same 10 s without a placement every minute, for good.
 * The pacer refills at the capacity (the table's limit, or a lower one the exchange reports:
 * ReportedLimit): at the table's rate, a 60 s bucket capped lower sent it all in half a window.
 * Time is always passed in (ms on the injected Clock); the bucket never reads time itself.
 * @example
 * const b = new TokenBucket({ limit: 50, windowMs: 1000, marginMs: 50 });
 * if (b.available(now) > 0) b.take(now);
 */
export class TokenBucket {
  readonly limit: number;
  readonly windowMs: number;
  readonly marginMs: number;
  readonly burst: number;
  /** window + margin: how long one token stays out after its send. */
  readonly holdMs: number;
  /** The limit the bucket is paced at (see capacity); #burst is its burst at that limit. */
  #capacity: number;
  #burst: number;
  readonly #reported: ReportedLimit;
  /** Release times (send + holdMs) of committed sends, ascending. */
  readonly #held: number[] = [];
  #reserved = 0;
  #foreign = { count: 0, until: 0 };
  #blockedUntil = 0;
  // Pacer in integer units: one token = holdMs units, refilled at `limit` units per ms.
  #units: number;
  #unitsAt = 0;
  /** Since a hold: the pacer applies even to a bucket whose burst is its whole limit, until it refills. */
  #ramping = false;
  /** The hold under way or last: when it began and the pacer's units then (see block). */
  #hold = { from: 0, units: 0 };
  /** Release times up to this one may have left #held (see prune). */
  #forgottenUpTo = Number.NEGATIVE_INFINITY;
  readonly #steps = new ClockStepWatch();

  constructor(opts: TokenBucketOptions) {
    if (!(opts.limit >= 1 && Number.isInteger(opts.limit)))
      throw new RangeError("limit must be an integer ≥ 1");
    if (!(opts.windowMs > 0)) throw new RangeError("windowMs must be positive");
    this.limit = opts.limit;
    this.windowMs = opts.windowMs;
    this.marginMs = Math.max(0, Math.round(opts.marginMs ?? 0));
    this.holdMs = this.windowMs + this.marginMs;
    this.burst = Math.min(this.limit, Math.max(1, Math.floor(opts.burst ?? this.limit)));
    this.#capacity = this.limit;
    this.#burst = this.burst;
    this.#reported = new ReportedLimit(this.limit);
    this.#units = this.burst * this.holdMs;
  }

  /** The limit per window the bucket is paced at: the table's, or lower while the server reports lower. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Time before which nothing may be sent (Retry-After). */
  get blockedUntil(): number {
    return this.#blockedUntil;
  }

  /** Tokens that may be spent at `now` (0 while blocked). */
  available(now: number): number {
    this.#follow(now);
    if (now < this.#blockedUntil) return 0;
    const free = this.#capacity - this.#reserved - this.#aliveHeld(now) - this.#aliveForeign(now);
    return Math.max(0, Math.min(free, this.#pacerTokens(now)));
  }

  /** Earliest time ≥ now at which one token is available; Infinity while only a commit can free one. */
  nextAvailableAt(now: number): number {
    this.#follow(now);
    const over = this.#reserved + this.#aliveHeld(now) + this.#aliveForeign(now) - this.#capacity + 1;
    let at = Math.max(now, this.#blockedUntil);
    if (over > 0) at = Math.max(at, this.#releaseOfNth(now, over));
    if (this.#paced(now)) {
      // The pacer refills from the end of a hold still running (unitsAt), else from now.
      const from = Math.max(now, this.#unitsAt);
      const units = this.#unitsNow(from);
      if (units < this.holdMs) at = Math.max(at, from + Math.ceil((this.holdMs - units) / this.#capacity));
    }
    return at;
  }

  /**
   * Estimate of how many sends the bucket can grant during the next `horizonMs` (used to decide what to
   * shed). Exact for horizons up to window + margin.
   */
  capacityWithin(now: number, horizonMs: number): number {
    this.#follow(now);
    const end = now + horizonMs;
    if (this.#blockedUntil > end) return 0;
    const logTokens = this.#capacity - this.#reserved - this.#aliveHeld(end) - this.#aliveForeign(end);
    // The pacer grants what it holds once the log has room again, plus its rate from then on.
    const from = Math.min(end, Math.max(now, this.#unitsAt, this.#logFreeAt(this.#unitsAt)));
    const pacer = this.#paced(now)
      ? Math.floor((this.#unitsNow(from) + this.#capacity * Math.max(0, end - from)) / this.holdMs)
      : Number.POSITIVE_INFINITY;
    return Math.max(0, Math.min(logTokens, pacer));
  }

  /** Holds a token from now until {@link commit} or {@link release}. Throws BucketEmptyError when none is free. */
  reserve(now: number): void {
    if (this.available(now) < 1) {
      throw new BucketEmptyError({
        limit: this.limit,
        windowMs: this.windowMs,
        now,
        blockedUntil: this.#blockedUntil,
      });
    }
    // A reading a little behind the pacer's last (a stale `now`, wall-clock jitter) must not move its
    // refill time back: the span between would be refilled twice.
    const at = Math.max(now, this.#unitsAt);
    this.#units = this.#unitsNow(at) - this.holdMs;
    this.#unitsAt = at;
    this.#reserved++;
    this.prune(now);
  }

  /** The reserved request left at `sentAt`: its token comes back at sentAt + window + margin. */
  commit(sentAt: number): void {
    if (this.#reserved < 1) throw new RangeError("commit without a reservation");
    this.#reserved--;
    insertSorted(this.#held, sentAt + this.holdMs);
  }

  /** The reserved request was not sent after all: the token comes back at once. */
  release(now: number): void {
    if (this.#reserved < 1) throw new RangeError("release without a reservation");
    this.#follow(now);
    this.#reserved--;
    // Within a hold the token goes back to what the bucket had when the hold began (see block). A hold
    // is told by blockedUntil, not by `now < unitsAt`: unitsAt is also the last reserve's time, and a
    // release read a little behind it (wall-clock jitter while the placement was signed) rebuilt a
    // bucket never held from an empty hold record, one token (the IP's placement bucket: 166 → 1).
    if (now < this.#blockedUntil) {
      this.#hold.units += this.holdMs;
      this.#restart();
      return;
    }
    const at = Math.max(now, this.#unitsAt);
    this.#units = Math.min(this.#burst * this.holdMs, this.#unitsNow(at) + this.holdMs);
    this.#unitsAt = at;
  }

  /** Reserve and send at once. */
  take(now: number): void {
    this.reserve(now);
    this.commit(now);
  }

  /**
   * Retry-After, asked at `now`: nothing leaves before `until`; then the bucket restarts with what it
   * had at the hold's start, at most its burst less what its rate refills over the hold, at least one
   * token, and refills at its rate until its burst is whole (see the class). Never shortens an
   * existing block; one that extends it keeps its start (the whole hold is what it costs).
   */
  block(until: number, now: number): void {
    this.#follow(now);
    if (until <= this.#blockedUntil) return;
    if (now >= this.#blockedUntil) this.#hold = { from: now, units: this.#unitsNow(now) };
    this.#blockedUntil = until;
    this.#unitsAt = until;
    this.#ramping = true;
    this.#restart();
  }

  /** The pacer's units at the hold's end (unitsAt = blockedUntil): see block. */
  #restart(): void {
    const refilled = this.#capacity * Math.max(0, this.#blockedUntil - this.#hold.from);
    const left = Math.min(this.#hold.units, this.#burst * this.holdMs - refilled);
    this.#units = Math.max(this.holdMs, left);
  }

  /**
   * Brings the local view in step with the server's headers. X-RateLimit-Limit sets the pace
   * (ReportedLimit: lower, or back up to the table, never above). Requests the server counted beyond ours (another
   * process on the same wallet or IP) are charged as foreign use until the server's reset. Our own
   * sends that the server may have counted are those within window + margin before the answered
   * request and everything sent since, less those sent before the server's window began (as its
   * reset tells, to the second, dated from the request's send): a generous count, so only use we
   * cannot explain is charged. Nothing is charged when the log may already have forgotten some of
   * those sends: it keeps two holds (prune), so an answer slower than about one hold (1.05 s for the
   * 1 s buckets; the transport waits up to 10 s) is not compared with it. Compared, our own burst
   * was charged as another process's use until the server's reset.
   * @returns tokens charged as foreign use (0 when the server agrees with us)
   */
  observe(view: ServerRateView, sentAt: number, now: number): number {
    this.#follow(now);
    this.#repace(this.#reported.heard(view.limit, now), now);
    const until = Math.min(view.resetAt, view.observedAt + this.holdMs);
    if (until <= now) return 0;
    const serverUsed = Math.max(0, view.limit - view.remaining);
    // Ours: sent at most one hold before the answered request, or after it — but not before the
    // server's window began: those it counted in the window before, and they leave our log while its
    // count stands. The server computed its reset when it counted the request, at the earliest when
    // we sent it, so the reset is dated from the send (the answer's latency earlier than its arrival);
    // less the window, the reset's one-second resolution and the margin (a send reaches the server up
    // to a margin late). Dated from the arrival, a slow answer put the window's start too late and
    // charged our own first sends of it as foreign. Never later than the answered request itself.
    // Release = send + hold.
    const latency = Math.max(0, view.observedAt - sentAt);
    const windowFrom = view.resetAt - latency - this.windowMs - RESET_RESOLUTION_MS - this.marginMs;
    const from = Math.min(sentAt, Math.max(sentAt - this.holdMs, windowFrom));
    if (from + this.holdMs <= this.#forgottenUpTo) return 0;
    const ours = this.#held.length - lowerBound(this.#held, from + this.holdMs);
    const foreign = Math.max(0, serverUsed - ours);
    if (foreign === 0) return 0;
    if (this.#foreign.until <= now) this.#foreign = { count: foreign, until };
    else
      this.#foreign = {
        count: Math.max(this.#foreign.count, foreign),
        until: Math.max(this.#foreign.until, until),
      };
    return foreign;
  }

  /** A lowered pace no header has repeated for long goes back to the table (ReportedLimit.lapse). */
  lapse(now: number): void {
    this.#follow(now);
    this.#repace(this.#reported.lapse(now), now);
  }

  /** Paces at `capacity` from `now`: the units brought to `now` at the old pace, then capped at the new burst. */
  #repace(capacity: number, now: number): void {
    if (capacity === this.#capacity) return;
    if (now > this.#unitsAt) [this.#units, this.#unitsAt] = [this.#unitsNow(now), now];
    this.#capacity = capacity;
    this.#burst = pacedBurst(this.limit, this.burst, capacity);
    this.#units = Math.min(this.#units, this.#burst * this.holdMs);
  }

  /** Sends and charges still out at `now` (for metrics and tests). */
  outstanding(now: number): number {
    return this.#reserved + this.#aliveHeld(now) + this.#aliveForeign(now);
  }

  /**
   * Keeps the bucket's instants on the clock's time scale when the clock steps back by more than
   * CLOCK_STEP_BACK_MS: release times, the pacer's refill time, a Retry-After block and the foreign
   * charge all move back by the step, so tokens come back after the same elapsed time. Left as they
   * were, nothing would refill until the clock caught up with them again: minutes without a send.
   */
  #follow(now: number): void {
    const step = this.#steps.follow(now);
    if (step === 0) return;
    const held = this.#held;
    for (let i = 0; i < held.length; i++) held[i] = (held[i] as number) - step;
    this.#unitsAt -= step;
    this.#hold = { from: this.#hold.from - step, units: this.#hold.units };
    this.#forgottenUpTo -= step;
    this.#reported.shift(step);
    if (this.#blockedUntil > now) this.#blockedUntil -= step;
    if (this.#foreign.until > now)
      this.#foreign = { count: this.#foreign.count, until: this.#foreign.until - step };
  }

  #aliveHeld(at: number): number {
    return this.#held.length - upperBound(this.#held, at);
  }

  #aliveForeign(at: number): number {
    return at < this.#foreign.until ? this.#foreign.count : 0;
  }

  /** Release time of the n-th token to come back after `now` (1-based), over sends and foreign use. */
  #releaseOfNth(now: number, n: number): number {
    const held = this.#held;
    const foreign = this.#aliveForeign(now);
    let i = upperBound(held, now);
    let k = n;
    let foreignPending = foreign > 0;
    for (;;) {
      const h = held[i];
      // The foreign charge comes back all at once, at its `until`.
      if (foreignPending && (h === undefined || this.#foreign.until <= h)) {
        if (k <= foreign) return this.#foreign.until;
        k -= foreign;
        foreignPending = false;
        continue;
      }
      if (h === undefined) return Number.POSITIVE_INFINITY;
      if (k === 1) return h;
      k--;
      i++;
    }
  }

  /**
   * Forgets sends older than two holds (bounded memory). One hold of history is kept past the release
   * so that {@link observe} can still tell our own sends from foreign ones in a late answer; a later
   * one charges nothing.
   */
  prune(now: number): void {
    const cut = now - this.holdMs;
    this.#forgottenUpTo = Math.max(this.#forgottenUpTo, cut);
    const n = upperBound(this.#held, cut);
    if (n > 0) this.#held.splice(0, n);
  }

  /**
   * The pacer's units at `now`. While the log is full it keeps at most one token (see the class):
   * from the last update (unitsAt) until the log next has room it refills only up to one token,
   * then on to its burst.
   */
  #unitsNow(now: number): number {
    const cap = this.#burst * this.holdMs;
    const rate = this.#capacity;
    const from = this.#unitsAt;
    if (now <= from) return Math.min(cap, this.#units);
    const free = this.#logFreeAt(from);
    if (free <= from) return Math.min(cap, this.#units + rate * (now - from));
    const whileFull = Math.min(this.holdMs, this.#units + rate * (Math.min(now, free) - from));
    return Math.min(cap, whileFull + rate * Math.max(0, now - free));
  }

  /**
   * When our own sends, filling the log at `at`, next leave room (Infinity while only a commit can
   * free a token); `at` when they do not fill it. Read from the log as it is now: a reservation
   * committed since `at` was out at `at` as well. Foreign use is left out: it leaves at the server's
   * reset, all at once, as the server's own window frees it — no echo of ours.
   */
  #logFreeAt(at: number): number {
    const over = this.#reserved + this.#aliveHeld(at) - this.#capacity + 1;
    if (over <= 0) return at;
    return this.#held[upperBound(this.#held, at) + over - 1] ?? Number.POSITIVE_INFINITY;
  }

  #pacerTokens(now: number): number {
    return this.#paced(now) ? Math.floor(this.#unitsNow(now) / this.holdMs) : Number.POSITIVE_INFINITY;
  }

  /** Whether the pacer limits sends at `now`: always below a whole-limit burst, else while ramping. */
  #paced(now: number): boolean {
    if (this.#burst < this.#capacity) return true;
    if (this.#ramping && now >= this.#unitsAt && this.#unitsNow(now) >= this.#burst * this.holdMs) {
      this.#ramping = false;
    }
    return this.#ramping;
  }
}
