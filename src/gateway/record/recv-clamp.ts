/** What clamping did over a recording. */
export interface ClockStepBacks {
  /** Frames whose recvTs was raised to the last one written (the wall clock was behind it). */
  readonly frames: number;
  /** The largest distance a frame's recvTs was raised by, ms (0: the clock never went back). */
  readonly maxStepMs: number;
}

/**
 * Keeps a recording's receive times non-decreasing. They come from the wall clock, which NTP or a
 * VM resume can step backwards; the recorded format promises receive order and the replay merges
 * rotated files by recvTs. A time before the last one returned is raised to it (the frames of a
 * step back keep their arrival order and share the last stamp until the wall clock catches up),
 * and counted; the intervals between those frames are lost, their order is not. Clamping rather
 * than a monotonic clock anchored at start, so that recvTs stays wall time: a stepped clock is
 * usually a corrected one.
 * @example const c = new RecvClamp((step) => log.warn({ step }, "clock stepped back")); c.next(Date.now());
 */
export class RecvClamp {
  #last = Number.NEGATIVE_INFINITY;
  #frames = 0;
  #maxStepMs = 0;
  #stepping = false;
  readonly #onStepBack: ((stepMs: number) => void) | undefined;

  /** `onStepBack` is called once per step back (its first clamped frame), with how far back it was. */
  constructor(onStepBack?: (stepMs: number) => void) {
    this.#onStepBack = onStepBack;
  }

  /** `ts`, or the last time returned when `ts` is before it. */
  next(ts: number): number {
    if (ts >= this.#last) {
      this.#last = ts;
      this.#stepping = false;
      return ts;
    }
    const step = this.#last - ts;
    this.#frames++;
    if (step > this.#maxStepMs) this.#maxStepMs = step;
    if (!this.#stepping) {
      this.#stepping = true;
      this.#onStepBack?.(step);
    }
    return this.#last;
  }

  /** Counts so far. */
  get stepBacks(): ClockStepBacks {
    return { frames: this.#frames, maxStepMs: this.#maxStepMs };
  }
}
