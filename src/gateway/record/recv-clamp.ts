import { CLOCK_STEP_BACK_MS } from "../../core/clock-step.js";

/** What clamping did over a recording. */
export interface ClockStepBacks {
  /** Frames whose recvTs is not their wall time: held at, or continued from, the last one. */
  readonly frames: number;
  /** The largest distance a frame's recvTs was raised above its wall time, ms (0: never). */
  readonly maxStepMs: number;
}

/** One step back of the wall clock, as RecvClamp reports it. */
export interface ClockStepBack {
  /** How far the first frame of the step was raised above its wall time, ms. */
  readonly stepMs: number;
  /** True: recvTs continues on the monotonic clock; false: held at the last stamp. */
  readonly continued: boolean;
}

/** Options of RecvClamp. */
export interface RecvClampOptions {
  /** Milliseconds from a clock that never steps (performance.now()); default performance.now. */
  readonly monotonic?: () => number;
  /** The largest step back held at the last stamp; larger ones continue; default DEFAULT_HOLD_MAX_MS. */
  readonly holdMaxMs?: number;
  /** Called once per step back (its first frame), and once more if a held step turns continued. */
  readonly onStepBack?: (step: ClockStepBack) => void;
}

/**
 * The engine's rule (CLOCK_STEP_BACK_MS, 1 s): NTP's ordinary corrections are well under it (ntpd
 * steps past 128 ms), and holding frames at one stamp for up to a second costs a replay little; a
 * bigger step is a clock that was wrong.
 */
export const DEFAULT_HOLD_MAX_MS = CLOCK_STEP_BACK_MS;

type Mode = "wall" | "held" | "continued";

/**
 * Keeps a recording's receive times non-decreasing. They come from the wall clock, which NTP or a
 * VM resume can step backwards; the recorded format promises receive order and the replay merges
 * rotated files by recvTs. The rule, frame by frame:
 * - wall time, as long as it is not before the last recvTs;
 * - a step back of at most `holdMaxMs`: the frames take the last recvTs until the wall clock
 *   catches up (within `holdMaxMs`): their order is kept, their intervals (under a second) lost;
 * - a larger step back (the clock ran ahead, for hours maybe, and was corrected): holding would
 *   put all of those hours at one instant, so recvTs continues from the last one by the monotonic
 *   time elapsed, frame by frame, and keeps the intervals; it stays ahead of the wall clock by
 *   about the step, and returns to wall time once the wall clock is ahead of it again.
 * Wall time rather than a monotonic clock anchored at start, so that recvTs is wall time whenever
 * the clock allows: a small step is usually a correction.
 * @example const c = new RecvClamp({ onStepBack: (s) => log.warn(s, "clock stepped back") }); c.next(Date.now());
 */
export class RecvClamp {
  readonly #monotonic: () => number;
  readonly #holdMaxMs: number;
  readonly #onStepBack: ((step: ClockStepBack) => void) | undefined;
  #last = Number.NEGATIVE_INFINITY;
  /**
   * The continued stamp before rounding: recvTs are whole ms (the replay's clock and report take
   * them as integers) while the monotonic clock has sub-ms resolution; continuing from the exact
   * value keeps rounding from adding up frame after frame.
   */
  #lastExact = Number.NEGATIVE_INFINITY;
  #lastMono = 0;
  #mode: Mode = "wall";
  #frames = 0;
  #maxStepMs = 0;

  constructor(opts: RecvClampOptions = {}) {
    this.#monotonic = opts.monotonic ?? (() => performance.now());
    this.#holdMaxMs = opts.holdMaxMs ?? DEFAULT_HOLD_MAX_MS;
    this.#onStepBack = opts.onStepBack;
  }

  /** The receive time to record for a frame whose wall-clock time is `ts` (see the class doc). */
  next(ts: number): number {
    const mono = this.#monotonic();
    // A monotonic source never goes back; if a fake one did, recvTs still must not.
    const exact = this.#lastExact + Math.max(0, mono - this.#lastMono);
    const continued = Math.max(this.#last, Math.floor(exact));
    this.#lastMono = mono;
    const floor = this.#mode === "continued" ? continued : this.#last;
    if (ts >= floor) {
      this.#mode = "wall";
      this.#last = ts;
      this.#lastExact = ts;
      return ts;
    }
    const mode: Mode = this.#mode === "continued" || this.#last - ts > this.#holdMaxMs ? "continued" : "held";
    const recvTs = mode === "continued" ? continued : this.#last;
    const step = recvTs - ts;
    this.#frames++;
    if (step > this.#maxStepMs) this.#maxStepMs = step;
    if (mode !== this.#mode) this.#onStepBack?.({ stepMs: step, continued: mode === "continued" });
    this.#mode = mode;
    this.#last = recvTs;
    this.#lastExact = mode === "continued" ? Math.max(exact, recvTs) : recvTs;
    return recvTs;
  }

  /** Counts so far. */
  get stepBacks(): ClockStepBacks {
    return { frames: this.#frames, maxStepMs: this.#maxStepMs };
  }
}
