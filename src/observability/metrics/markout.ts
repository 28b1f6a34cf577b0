import type { Clock, TimerId } from "../../core/clock.js";
import type { Side } from "../../core/types.js";

/** The part of a fill a markout needs. */
export interface MarkoutFill {
  readonly tokenId: string;
  readonly side: Side;
  /** Integer micro-units (0.53 → 530_000). */
  readonly priceMicro: number;
  readonly sizeMicro: bigint;
}

/** One markout: the mid `horizonMs` after the fill against the fill's price. */
export interface MarkoutSample {
  readonly fill: MarkoutFill;
  readonly horizonMs: number;
  /** Mid at the horizon, micro-units (a half micro-unit is possible). */
  readonly midMicro: number;
  /**
   * Signed edge per share, micro-units: mid − price for a buy, price − mid for a sell. Positive means
   * the market moved our way after the fill; persistently negative means we are being picked off.
   */
  readonly markoutMicro: number;
}

export interface MarkoutTrackerOptions {
  readonly clock: Clock;
  /** The token's mid now, micro-units; undefined when the book has no two sides (no sample then). */
  readonly mid: (tokenId: string) => number | undefined;
  readonly onSample: (sample: MarkoutSample) => void;
  /**
   * A horizon with no sample: reached with no mid to compare with, or already past when the fill was
   * recorded (a fill heard of late, see `record`).
   */
  readonly onMissing?: (fill: MarkoutFill, horizonMs: number) => void;
  /** Default 1 s, 10 s, 60 s. */
  readonly horizonsMs?: readonly number[];
  /** Fills followed at once at most; beyond it new fills are refused (memory stays bounded). */
  readonly maxPending?: number;
}

/** The standard horizons: 1 s, 10 s, 60 s. */
export const MARKOUT_HORIZONS_MS: readonly number[] = [1_000, 10_000, 60_000];

/**
 * Follows each recorded fill for a few horizons and reports the signed markout at each: one timer
 * per fill on the injected Clock, re-armed for the next horizon when it fires, so a SimClock replay
 * gives the same samples as the live run.
 * @example
 * const t = new MarkoutTracker({ clock, mid: (tok) => midOf(tok), onSample: (s) => hist.observe(s.markoutMicro / 1e6) });
 * t.record({ tokenId, side: "buy", priceMicro: 530_000, sizeMicro: 10_000_000n });
 * t.record(backfilled, backfilled.tsMs); // heard of late: horizons timed from the fill, past ones missing
 */
export class MarkoutTracker {
  readonly horizonsMs: readonly number[];
  readonly #o: MarkoutTrackerOptions;
  readonly #maxPending: number;
  readonly #timers = new Set<TimerId>();
  #closed = false;

  constructor(opts: MarkoutTrackerOptions) {
    const horizons = [...(opts.horizonsMs ?? MARKOUT_HORIZONS_MS)].sort((a, b) => a - b);
    if (horizons.length === 0 || horizons.some((h) => !(Number.isFinite(h) && h > 0))) {
      throw new RangeError("markout horizons must be positive numbers of ms");
    }
    this.horizonsMs = horizons;
    this.#o = opts;
    this.#maxPending = opts.maxPending ?? 10_000;
  }

  /** Fills still awaiting at least one horizon. */
  get pending(): number {
    return this.#timers.size;
  }

  /**
   * Starts following a fill; false when refused (closed, or maxPending fills already followed).
   * `fromMs` is the instant the horizons are timed from (default and upper bound: now). A fill heard
   * of late passes its own time: each horizon is then read at fill + horizon, and a horizon already
   * past is reported missing at once rather than read now under a label that would misdescribe it.
   */
  record(fill: MarkoutFill, fromMs?: number): boolean {
    if (this.#closed || this.#timers.size >= this.#maxPending) return false;
    const now = this.#o.clock.now();
    const from = fromMs !== undefined && Number.isFinite(fromMs) ? Math.min(now, fromMs) : now;
    let index = 0;
    for (const horizon of this.horizonsMs) {
      // A deadline of exactly now is still readable: the mid now is the mid at the horizon.
      if (from + horizon >= now) break;
      this.#o.onMissing?.(fill, horizon);
      index++;
    }
    this.#arm(fill, index, from);
    return true;
  }

  /** Cancels every pending horizon; later records are refused. */
  close(): void {
    this.#closed = true;
    for (const id of this.#timers) this.#o.clock.cancelTimer(id);
    this.#timers.clear();
  }

  #arm(fill: MarkoutFill, index: number, recordedAt: number): void {
    const horizon = this.horizonsMs[index];
    if (horizon === undefined) return;
    const delay = recordedAt + horizon - this.#o.clock.now();
    const id = this.#o.clock.setTimer(delay, () => {
      this.#timers.delete(id);
      this.#sample(fill, horizon);
      if (!this.#closed) this.#arm(fill, index + 1, recordedAt);
    });
    this.#timers.add(id);
  }

  #sample(fill: MarkoutFill, horizonMs: number): void {
    const midMicro = this.#o.mid(fill.tokenId);
    if (midMicro === undefined || !Number.isFinite(midMicro)) {
      this.#o.onMissing?.(fill, horizonMs);
      return;
    }
    const edge = fill.side === "buy" ? midMicro - fill.priceMicro : fill.priceMicro - midMicro;
    this.#o.onSample({ fill, horizonMs, midMicro, markoutMicro: edge });
  }
}

/** A horizon as a label value: 1000 → "1s", 60000 → "60s", 500 → "500ms". */
export function horizonLabel(ms: number): string {
  return ms % 1_000 === 0 ? `${ms / 1_000}s` : `${ms}ms`;
}
