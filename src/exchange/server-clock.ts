import type { Clock } from "../core/clock.js";

export interface ServerClockSnapshot {
  /** Estimated server time minus local clock time, ms; undefined before the first sample. */
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
 * @example
 * const sc = new ServerClock(clock);
 * sc.observe(sentAt, receivedAt, Number(res.headers["x-server-time"]));
 * sc.serverNow(); // clock.now() + offset
 */
export class ServerClock {
  readonly #clock: Clock;
  readonly #alpha: number;
  #offset: number | undefined;
  #lastRtt: number | undefined;
  #minRtt = Number.POSITIVE_INFINITY;
  #samples = 0;

  /** @param alpha weight of a new low-latency sample in the moving average (0 < alpha ≤ 1). */
  constructor(clock: Clock, alpha = 0.2) {
    if (!(alpha > 0 && alpha <= 1)) throw new RangeError(`alpha must be in (0, 1], got ${alpha}`);
    this.#clock = clock;
    this.#alpha = alpha;
  }

  /** Feeds one sample; `sentAt`/`receivedAt` are local clock readings around the request. */
  observe(sentAt: number, receivedAt: number, serverTimeMs: number): void {
    if (!Number.isFinite(serverTimeMs) || receivedAt < sentAt) return;
    const rtt = receivedAt - sentAt;
    const sample = serverTimeMs - (sentAt + rtt / 2);
    this.#lastRtt = rtt;
    this.#minRtt = Math.min(this.#minRtt, rtt);
    this.#samples++;
    if (this.#offset === undefined) {
      this.#offset = sample;
      return;
    }
    // A sample with a much larger RTT than the best one has a wider uncertainty band (±rtt/2).
    const weight = rtt > 2 * this.#minRtt + 10 ? this.#alpha / 4 : this.#alpha;
    this.#offset += weight * (sample - this.#offset);
  }

  /** Estimated offset (server − local), ms; undefined until a response carried X-Server-Time. */
  get offsetMs(): number | undefined {
    return this.#offset;
  }

  /** Best estimate of the server's current time; the local clock when nothing was observed yet. */
  serverNow(): number {
    return this.serverTimeAt(this.#clock.now());
  }

  /** The server's time at local clock reading `localMs` (that reading itself until a sample came). */
  serverTimeAt(localMs: number): number {
    return localMs + Math.round(this.#offset ?? 0);
  }

  snapshot(): ServerClockSnapshot {
    return { offsetMs: this.#offset, lastRttMs: this.#lastRtt, samples: this.#samples };
  }
}
