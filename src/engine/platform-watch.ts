import type { Clock, TimerId } from "../core/clock.js";
import { ClockStepWatch } from "../core/clock-step.js";
import type { Logger } from "../observability/logger.js";

/** The 503 code by which the exchange says its service or matcher is unreachable (a frozen platform too). */
export const EXCHANGE_UNAVAILABLE = "exchange_unavailable";

/**
 * The HTTP client's fail-fast answer while its circuit breaker is open. A freeze's 503s open the
 * breaker (the spec's "more than 50% of requests fail over 30 s"), and the placements re-sent after
 * them are then answered this way: while the platform is frozen they are the freeze's answers too.
 */
export const CIRCUIT_OPEN = "circuit_open";

/** While the platform is held frozen, GET /api/platform/status is read this often (the thaw without a push). */
export const PLATFORM_POLL_MS = 5_000;

/**
 * How long a status read may take before the answers it holds are counted after all. The read goes
 * through the HTTP client's retries, which wait out a Retry-After of up to 60 s twice: a status
 * endpoint answering 503 itself would otherwise hold the 503s (and the error-rate halt they may call
 * for) for two minutes. Long enough for a prompt answer and the client's short back-off retries.
 */
export const PLATFORM_READ_DEADLINE_MS = 5_000;

/** Where a platform status came from. */
export type PlatformSource = "push" | "status";

/** What the watch acts through (the engine supplies them). */
export interface PlatformWatchDeps {
  readonly clock: Clock;
  readonly log: Logger;
  /**
   * GET /api/platform/status's `frozen` (undefined when the answer has none); undefined when the
   * exchange port cannot read it (the backtest's venue): then only pushes are heard.
   */
  readonly read: (() => Promise<boolean | undefined>) | undefined;
  /** Whether the platform is held frozen now (the risk guard's flag). */
  frozen(): boolean;
  /** Acts on a status that differs from the one held (push: every push, as before). */
  apply(frozen: boolean, source: PlatformSource): void;
  /** Counts a held answer towards the error-rate halt after all. */
  count(code: string): void;
  /** See PLATFORM_READ_DEADLINE_MS (the default). */
  readonly readDeadlineMs?: number;
}

/**
 * Platform freezes, from the platform_status push and from GET /api/platform/status. The push alone
 * misses a freeze that began before the bot subscribed (the spec does not say a status is pushed on
 * subscribe) and lags or loses others; meanwhile placements are answered 503 `exchange_unavailable`,
 * which would count towards the wallet's error-rate halt (a 60 s stop that can outlast the freeze).
 * - `check()` (start-up) reads the status once.
 * - `suspect()`: a placement was just answered `exchange_unavailable` (before the queue re-sends it):
 *   the status is read at once, so that a freeze is known before the re-sends go out.
 * - `unavailable(code)`: a request's final answer was `exchange_unavailable` or `circuit_open`. While
 *   the platform is held frozen it answers a request sent into the freeze: not an error. Otherwise it
 *   is held until the status is read (one read in flight at most; a read is sent only for answers that
 *   came after the last one was sent, so reads never outnumber such answers): frozen, the freeze is
 *   applied and the held answers dropped; not frozen or unreadable, they are counted (the matcher is
 *   unreachable on an open platform: an outage, which the error-rate halt backs off from).
 * - A read not answered within PLATFORM_READ_DEADLINE_MS is taken as unreadable for now: the answers
 *   held count, and so do those that come while it is still out (no second read is sent meanwhile);
 *   its late answer is still applied. `check()` waits for it no longer than that either.
 * - While frozen, the status is read every PLATFORM_POLL_MS: the thaw need not wait for a push that
 *   may never come (a freeze learned from the status has no push to end it).
 * The latest word wins: a read's answer is dropped if a push arrived while it was in flight.
 * @example
 * const watch = new PlatformWatch({ clock, log, read: () => exchange.platformFrozen(), frozen, apply, count });
 * await watch.check();
 */
export class PlatformWatch {
  readonly #d: PlatformWatchDeps;
  /** Pushes received so far (a read's answer is current only if none arrived while it was out). */
  #pushes = 0;
  /** Reads sent so far. */
  #reads = 0;
  #lastReadAt = Number.NEGATIVE_INFINITY;
  #lastPushAt = Number.NEGATIVE_INFINITY;
  readonly #steps = new ClockStepWatch();
  #inFlight: Promise<void> | undefined;
  /** The read in flight passed its deadline: its status is taken as unknown until it answers. */
  #overdue = false;
  #deadline: TimerId | undefined;
  /** Resolved when the read in flight answers or passes its deadline (check() waits for this). */
  #settled: { promise: Promise<void>; resolve: () => void } | undefined;
  #timer: TimerId | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  /** Answers awaiting a read; `reads` = reads sent when each arrived. */
  #held: { code: string; reads: number }[] = [];
  /** A suspect answer came after the last read was sent: read again. */
  #wanted = false;
  #stopped = false;

  constructor(deps: PlatformWatchDeps) {
    this.#d = deps;
  }

  /** A platform_status push. */
  pushed(frozen: boolean): void {
    this.#pushes++;
    this.#lastPushAt = this.#now();
    // A freeze pushed: the answers held so far were the freeze's, even if a thaw comes before the
    // read they wait for (that read's answer is dropped as overtaken, which would count them).
    if (frozen) this.#held = [];
    this.#d.apply(frozen, "push");
    this.#next();
  }

  /** Reads the status now (start-up); resolves once answered or overdue. Never rejects. */
  async check(): Promise<void> {
    if (this.#d.read === undefined || this.#stopped) return;
    if (this.#inFlight === undefined) this.#send();
    await this.#settled?.promise;
  }

  /** A placement was answered `exchange_unavailable`, and may be re-sent: reads the status now. */
  suspect(): void {
    if (this.#stopped || this.#d.read === undefined || this.#d.frozen()) return;
    this.#wanted = true;
    this.#next();
  }

  /** A request's final answer was `exchange_unavailable` or `circuit_open` (`code`). */
  unavailable(code: string): void {
    if (this.#stopped || this.#d.frozen()) return;
    if (this.#d.read === undefined || this.#overdue) {
      this.#d.count(code);
      return;
    }
    this.#held.push({ code, reads: this.#reads });
    this.#next();
  }

  /** Stops reading (engine stop); held answers are dropped. */
  stop(): void {
    this.#stopped = true;
    this.#held = [];
    this.#wanted = false;
    this.#cancelTimer();
    this.#endDeadline();
  }

  /** Sends or schedules the next read the state calls for: suspect answers now, a frozen platform at the poll. */
  #next(): void {
    if (this.#stopped || this.#d.read === undefined || this.#inFlight !== undefined) return;
    const now = this.#now(); // first: it may move the instants below
    let at: number;
    if (this.#wanted || this.#held.some((h) => h.reads === this.#reads)) at = Number.NEGATIVE_INFINITY;
    // Polled a full interval after the latest word on it (a read, or the push that froze it).
    else if (this.#d.frozen()) at = Math.max(this.#lastReadAt, this.#lastPushAt) + PLATFORM_POLL_MS;
    else {
      this.#cancelTimer();
      return;
    }
    if (at <= now) {
      this.#send();
      return;
    }
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    this.#cancelTimer();
    this.#timerAt = at;
    this.#timer = this.#d.clock.setTimer(at - now, () => {
      this.#timer = undefined;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#next();
    });
  }

  #send(): void {
    this.#cancelTimer();
    this.#wanted = false;
    const read = ++this.#reads;
    const pushes = this.#pushes;
    this.#lastReadAt = this.#now();
    let resolve = () => {};
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    this.#settled = { promise, resolve };
    this.#deadline = this.#d.clock.setTimer(this.#d.readDeadlineMs ?? PLATFORM_READ_DEADLINE_MS, () => {
      this.#deadline = undefined;
      this.#overran();
    });
    this.#inFlight = this.#read(read, pushes).then(() => {
      this.#inFlight = undefined;
      this.#overdue = false;
      this.#endDeadline();
      this.#next();
    });
  }

  /**
   * The clock's time, keeping the last read and push instants on its scale when it steps back by
   * more than a second (NTP, a VM resumed): they move back by the step, so a frozen platform is
   * still polled an interval after them in elapsed time. Left as they were, the poll would wait for
   * the clock to catch up with them — the step's length with quoting stopped if the thaw push is lost.
   */
  #now(): number {
    const now = this.#d.clock.now();
    const step = this.#steps.follow(now);
    if (step > 0) {
      this.#lastReadAt -= step;
      this.#lastPushAt -= step;
      this.#timerAt -= step;
    }
    return now;
  }

  /** The read in flight is overdue: what it holds counts now, as for an unreadable status. */
  #overran(): void {
    if (this.#stopped || this.#inFlight === undefined) return;
    this.#overdue = true;
    const held = this.#held;
    this.#held = [];
    this.#d.log.warn(
      { held: held.length, deadlineMs: this.#d.readDeadlineMs ?? PLATFORM_READ_DEADLINE_MS },
      "platform status read overdue (GET /api/platform/status): its 503s count as errors",
    );
    this.#settled?.resolve();
    for (const h of held) this.#d.count(h.code);
  }

  /** The read in flight answered (or the watch stopped): its deadline is void, check() resumes. */
  #endDeadline(): void {
    if (this.#deadline !== undefined) this.#d.clock.cancelTimer(this.#deadline);
    this.#deadline = undefined;
    this.#settled?.resolve();
    this.#settled = undefined;
  }

  async #read(read: number, pushes: number): Promise<void> {
    const { log } = this.#d;
    let frozen: boolean | undefined;
    try {
      frozen = await (this.#d.read as () => Promise<boolean | undefined>)();
    } catch (err) {
      log.warn({ err }, "platform status unreadable (GET /api/platform/status)");
    }
    if (this.#stopped) return;
    if (frozen !== undefined && pushes === this.#pushes && frozen !== this.#d.frozen()) {
      log.warn({ frozen }, `platform ${frozen ? "frozen" : "unfrozen"} (GET /api/platform/status)`);
      this.#d.apply(frozen, "status");
    }
    if (this.#d.frozen()) {
      // Every held answer belongs to the freeze.
      this.#held = [];
      return;
    }
    const settled = this.#held.filter((h) => h.reads < read);
    this.#held = this.#held.filter((h) => h.reads >= read);
    for (const h of settled) this.#d.count(h.code);
  }

  #cancelTimer(): void {
    if (this.#timer === undefined) return;
    this.#d.clock.cancelTimer(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
  }
}
