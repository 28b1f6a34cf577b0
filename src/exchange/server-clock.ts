import { type Clock, monotonicNow } from "../core/clock.js";

export interface ServerClockSnapshot {
  /** Estimated server time minus our wall clock's (now), ms; undefined before the first sample. */
  offsetMs: number | undefined;
  /** Round-trip time of the last sample, ms. */
  lastRttMs: number | undefined;
  samples: number;
}

/**
 * Estimates the exchange's clock from `X-Server-Time` (ms since epoch at emission). Each response gives
 * one sample, corrected by half the round trip on the assumption that the server stamped it midway:
 * `sample = serverTime − (sentAt + rtt/2)`. Samples are smoothed with an exponential moving average so
 * one slow response does not yank the estimate; samples whose RTT is far above the best seen carry the
 * most asymmetry error and get a smaller weight.
 *
 * The estimate is kept against the clock's monotonic reading (monotonicNow), not its wall time: a
 * step of our wall clock (NTP correcting a host that ran minutes ahead, a VM resumed) does not move
 * the exchange's. Kept against the wall, the moving average carried the old offset past the step
 * and took several answers to unlearn it: a host stepped back by more than signing.orderExpirySeconds
 * signed its next placements already expired (400 `expired`), and by less, orders that lived that
 * much shorter than their renewal assumed.
 * @example
 * const sc = new ServerClock(clock);
 * sc.observe(sentMono, receivedMono, Number(res.headers["x-server-time"])); // monotonicNow readings
 * sc.serverNow(); // monotonicNow(clock) + the estimated offset
 */
export class ServerClock {
  readonly #clock: Clock;
  readonly #alpha: number;
  /** Server time minus the monotonic reading, ms (the wall clock's offset when it has none). */
  #offset: number | undefined;
  #lastRtt: number | undefined;
  #minRtt = Number.POSITIVE_INFINITY;
  #samples = 0;
  readonly #listeners = new Set<(offsetMs: number) => void>();

  /** @param alpha weight of a new low-latency sample in the moving average (0 < alpha ≤ 1). */
  constructor(clock: Clock, alpha = 0.2) {
    if (!(alpha > 0 && alpha <= 1)) throw new RangeError(`alpha must be in (0, 1], got ${alpha}`);
    this.#clock = clock;
    this.#alpha = alpha;
  }

  /**
   * Feeds one sample; `sentAt`/`receivedAt` are readings of monotonicNow(clock) around the request
   * (the wall clock's on a clock without a monotonic one: a SimClock never steps).
   */
  observe(sentAt: number, receivedAt: number, serverTimeMs: number): void {
    if (!Number.isFinite(serverTimeMs) || receivedAt < sentAt) return;
    const rtt = receivedAt - sentAt;
    const sample = serverTimeMs - (sentAt + rtt / 2);
    this.#lastRtt = rtt;
    this.#minRtt = Math.min(this.#minRtt, rtt);
    this.#samples++;
    if (this.#offset === undefined) {
      this.#offset = sample;
    } else {
      // A sample with a much larger RTT than the best one has a wider uncertainty band (±rtt/2).
      const weight = rtt > 2 * this.#minRtt + 10 ? this.#alpha / 4 : this.#alpha;
      this.#offset += weight * (sample - this.#offset);
    }
    const offsetMs = this.offsetMs as number;
    for (const fn of this.#listeners) fn(offsetMs);
  }

  /**
   * Calls `fn` with the new estimate (offsetMs) after every accepted sample, in the response's
   * handling: it must be cheap and must not throw. Returns the unsubscribe.
   * @example const off = sc.onSample((offsetMs) => skew.check(offsetMs));
   */
  onSample(fn: (offsetMs: number) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /**
   * Estimated offset (server − our wall clock now), ms; undefined until a response carried
   * X-Server-Time. After a step of the wall clock it shows the new offset at once.
   */
  get offsetMs(): number | undefined {
    if (this.#offset === undefined) return undefined;
    return this.#offset - (this.#clock.now() - monotonicNow(this.#clock));
  }

  /** Best estimate of the server's current time; the local wall clock when nothing was observed yet. */
  serverNow(): number {
    if (this.#offset === undefined) return this.#clock.now();
    return this.serverTimeAt(monotonicNow(this.#clock));
  }

  /**
   * The server's time at monotonicNow reading `monoMs`: `monoMs` plus the estimated offset. Until a
   * sample came, the wall clock's time at that reading.
   */
  serverTimeAt(monoMs: number): number {
    const offset = this.#offset ?? this.#clock.now() - monotonicNow(this.#clock);
    return monoMs + Math.round(offset);
  }

  snapshot(): ServerClockSnapshot {
    return { offsetMs: this.offsetMs, lastRttMs: this.#lastRtt, samples: this.#samples };
  }
}
