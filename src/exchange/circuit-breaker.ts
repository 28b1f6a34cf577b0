import type { Clock, TimerId } from "../core/clock.js";
import { ExchangeError } from "./exchange-error.js";

export type BreakerState = "closed" | "open" | "half-open";

/** Spec defaults: more than 50% failures over 30 s pauses sending for 60 s. */
export interface BreakerSettings {
  windowMs: number;
  /** Opens when failures / requests in the window is strictly above this. */
  failureRatio: number;
  /** Below this many requests in the window the ratio is too noisy to act on. */
  minRequests: number;
  /** How long sending pauses once open, ms. */
  openMs: number;
  /** Requests let through together when the pause ends, to probe the exchange. */
  halfOpenProbes: number;
  /**
   * How long the breaker stays half-open with no probe before a call that never probes
   * (RunOptions.neverProbe) may take it, ms. At least the engine's reconcile period (the daemon
   * passes max(60 s, reconcile.intervalMs): breakerSettings, src/app/exchange.ts), whose reads take
   * the probe first on a bot with no other order traffic.
   */
  neverProbeAfterMs: number;
}

export const DEFAULT_BREAKER_SETTINGS: Readonly<BreakerSettings> = {
  windowMs: 30_000,
  failureRatio: 0.5,
  minRequests: 10,
  openMs: 60_000,
  halfOpenProbes: 1,
  neverProbeAfterMs: 60_000,
};

export interface BreakerSnapshot {
  state: BreakerState;
  /** Failures / requests over the current window (0 when empty). */
  failureRatio: number;
  requests: number;
  failures: number;
  /** While open: the clock time at which probing starts. */
  opensUntil: number | undefined;
}

/** The placement endpoint, as ExchangeError.endpoint names it. */
const PLACE_ENDPOINT = "POST /api/orders/place";

/** How CircuitBreaker.run treats one call. */
export interface RunOptions {
  /**
   * Never the half-open probe: while half-open the call fails fast (circuit_open, nothing sent),
   * as while open, and the one probe is left to another request. For a best-effort read made again
   * later (the engine's market status reads): the probe's answer decides for every request, cancels
   * included, and such a read of a failing public market service, taken as the probe, re-opened the
   * breaker for another pause while the orders worked. Counted as any call while closed. Once the
   * breaker has been half-open for `neverProbeAfterMs` with no probe, such a call may take it: no
   * request that matters more came in that long (a bot with no order traffic and a long reconcile
   * period, up to an hour), and until one did every such call failed fast, the exchange recovered
   * or not (a silent pause or a reopening seen that late, the status-reads-failing gauge up).
   */
  readonly neverProbe?: boolean;
}

/** How a finished request counts: a failure, a success, or not at all. */
export type BreakerVerdict = "failure" | "success" | "ignore";

/**
 * Default verdict: the breaker watches the exchange's health, so definite rejects (4xx, business codes)
 * are successes (the exchange answered sensibly) while 5xx, transport failures and malformed bodies are
 * failures. 429 is ignored: it is flow control with its own wait (Retry-After) and pacing from the rate
 * limit headers; counting it would turn a brief self-inflicted burst into a 60 s halt of all traffic,
 * cancels included. Its own fail-fast errors are ignored too. So is a placement answered 503
 * `exchange_unavailable`: the matcher is down or the platform frozen (a freeze refuses placements
 * only; cancels and reads work), and the engine stops placing itself (the platform_frozen gate,
 * the error-rate halt). Counted, a few such answers opened the breaker for 60 s and failed the very
 * cancels and status reads that handle a freeze: quotes from before it stayed live after a thaw.
 * The same code on any other endpoint still counts.
 */
export function defaultBreakerVerdict(err: unknown): BreakerVerdict {
  if (err === undefined) return "success";
  if (!(err instanceof ExchangeError)) return "ignore";
  if (err.code === "circuit_open" || err.httpStatus === 429) return "ignore";
  if (err.code === "exchange_unavailable" && err.endpoint === PLACE_ENDPOINT) return "ignore";
  return err.outcome === "rejected" ? "success" : "failure";
}

/**
 * Circuit breaker over a sliding time window, driven by the injected clock. While open, calls fail fast
 * with `circuit_open` (outcome retryable: nothing was sent); after `openMs` it lets `halfOpenProbes`
 * requests through; a successful probe closes it, a failed one reopens it for another `openMs`.
 * @example
 * const breaker = new CircuitBreaker(clock, {}, (s) => log.warn(s, "breaker"));
 * const body = await breaker.run("GET /api/markets", () => send(), defaultBreakerVerdict);
 */
export class CircuitBreaker {
  readonly #clock: Clock;
  readonly #settings: BreakerSettings;
  readonly #listeners = new Set<(snapshot: BreakerSnapshot, previous: BreakerState) => void>();
  #state: BreakerState = "closed";
  #opensUntil: number | undefined;
  #timer: TimerId | undefined;
  #probesInFlight = 0;
  /** While half-open: since when no probe was out (the pause's end, or the last probe's undecided answer). */
  #quietSince: number | undefined;
  // Window of finished requests, oldest first; #head skips pruned entries without shifting.
  #events: { at: number; failed: boolean }[] = [];
  #head = 0;
  #failures = 0;

  constructor(
    clock: Clock,
    settings: Partial<BreakerSettings> = {},
    onStateChange?: (snapshot: BreakerSnapshot, previous: BreakerState) => void,
  ) {
    this.#clock = clock;
    this.#settings = { ...DEFAULT_BREAKER_SETTINGS, ...settings };
    if (onStateChange !== undefined) this.#listeners.add(onStateChange);
  }

  get state(): BreakerState {
    return this.#state;
  }

  snapshot(): BreakerSnapshot {
    this.#prune();
    const requests = this.#events.length - this.#head;
    return {
      state: this.#state,
      failureRatio: requests === 0 ? 0 : this.#failures / requests,
      requests,
      failures: this.#failures,
      opensUntil: this.#opensUntil,
    };
  }

  /** Subscribes to state changes; returns the unsubscribe function. */
  onStateChange(listener: (snapshot: BreakerSnapshot, previous: BreakerState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Runs `fn` unless the breaker is open, and records its result as `verdict` judges it.
   * @throws ExchangeError `circuit_open` without calling `fn` while open (or while half-open probes
   *   are busy, or half-open for a call that never probes, `opts.neverProbe`, until no probe went
   *   out for `neverProbeAfterMs`).
   */
  async run<T>(
    endpoint: string,
    fn: () => Promise<T>,
    verdict: (err: unknown) => BreakerVerdict,
    opts: RunOptions = {},
  ): Promise<T> {
    const probe = this.#admit(endpoint, opts.neverProbe === true);
    try {
      const value = await fn();
      this.#record(probe, "success");
      return value;
    } catch (err) {
      this.#record(probe, verdict(err));
      throw err;
    } finally {
      if (probe) {
        this.#probesInFlight--;
        // An answer that decided nothing (a 429, say): the quiet starts again from it.
        if (this.#state === "half-open") this.#quietSince = this.#clock.now();
      }
    }
  }

  /** Cancels the pending half-open timer (the breaker stays usable; it just will not leave `open` alone). */
  dispose(): void {
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
  }

  /** Returns whether the admitted call is a half-open probe; throws when it may not be sent. */
  #admit(endpoint: string, neverProbe: boolean): boolean {
    if (this.#state === "closed") return false;
    const probeFree = this.#probesInFlight < this.#settings.halfOpenProbes;
    if (this.#state === "half-open" && probeFree && (!neverProbe || this.#probeOverdue())) {
      this.#probesInFlight++;
      return true;
    }
    const snap = this.snapshot();
    const now = this.#clock.now();
    throw new ExchangeError({
      code: "circuit_open",
      message:
        this.#state === "open"
          ? `${endpoint}: circuit open after ${Math.round(snap.failureRatio * 100)}% failures; sending paused`
          : probeFree
            ? `${endpoint}: circuit half-open, the probe left to another request`
            : `${endpoint}: circuit half-open, probe in flight`,
      outcome: "retryable",
      endpoint,
      retryAfterMs: this.#opensUntil === undefined ? undefined : Math.max(0, this.#opensUntil - now),
      details: { state: snap.state, failureRatio: snap.failureRatio, opensUntil: snap.opensUntil },
    });
  }

  /**
   * Whether the breaker has been half-open with no probe out for `neverProbeAfterMs`: a call that
   * never probes may then take it (RunOptions.neverProbe).
   */
  #probeOverdue(): boolean {
    if (this.#quietSince === undefined) return false;
    return this.#clock.now() - this.#quietSince >= this.#settings.neverProbeAfterMs;
  }

  #record(probe: boolean, verdict: BreakerVerdict): void {
    if (verdict === "ignore") return;
    const failed = verdict === "failure";
    if (this.#state === "half-open") {
      // Only the probe's answer says something about the exchange now.
      if (!probe) return;
      if (failed) this.#open();
      else this.#close();
      return;
    }
    if (this.#state === "open") return;
    this.#events.push({ at: this.#clock.now(), failed });
    if (failed) this.#failures++;
    const { requests, failureRatio } = this.snapshot();
    if (requests >= this.#settings.minRequests && failureRatio > this.#settings.failureRatio) this.#open();
  }

  #open(): void {
    const previous = this.#state;
    this.#state = "open";
    this.#quietSince = undefined;
    this.#opensUntil = this.#clock.now() + this.#settings.openMs;
    this.dispose();
    this.#timer = this.#clock.setTimer(this.#settings.openMs, () => {
      this.#timer = undefined;
      const was = this.#state;
      this.#state = "half-open";
      this.#opensUntil = undefined;
      this.#quietSince = this.#clock.now();
      this.#emit(was);
    });
    this.#emit(previous);
  }

  #close(): void {
    const previous = this.#state;
    this.#state = "closed";
    this.#opensUntil = undefined;
    this.#quietSince = undefined;
    // A fresh start: the failures that opened the circuit belong to the outage that is over.
    this.#events = [];
    this.#head = 0;
    this.#failures = 0;
    this.#emit(previous);
  }

  #emit(previous: BreakerState): void {
    const snap = this.snapshot();
    for (const listener of this.#listeners) listener(snap, previous);
  }

  #prune(): void {
    const cutoff = this.#clock.now() - this.#settings.windowMs;
    while (this.#head < this.#events.length) {
      const e = this.#events[this.#head] as { at: number; failed: boolean };
      if (e.at > cutoff) break;
      if (e.failed) this.#failures--;
      this.#head++;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#events.length) {
      this.#events = this.#events.slice(this.#head);
      this.#head = 0;
    }
  }
}
