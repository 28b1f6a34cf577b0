import { ClockStepWatch } from "../core/clock-step.js";

/** Settings of the error-rate halt (RiskConfig.errorRate). */
export interface ErrorRateSettings {
  readonly maxErrors: number;
  readonly windowMs: number;
  readonly coolDownMs: number;
  readonly ignoreCodes: readonly string[];
}

/**
 * Halts quoting when orders keep failing: more than `maxErrors` counted errors whose times fall in
 * the sliding window (now − windowMs, now] trip a halt that lasts `coolDownMs` from the error that
 * tripped it. The window is emptied when it trips, and errors arriving during the halt are not
 * counted (they answer orders sent before it), so quoting resumes with a clean slate and a second
 * halt needs a fresh burst. Codes in `ignoreCodes` never count.
 * @example
 * const h = new ErrorRateHalt({ maxErrors: 2, windowMs: 10_000, coolDownMs: 60_000, ignoreCodes: [] });
 * h.record("insufficient_funds", 0); h.record("bad_signature", 1); h.record("expired", 2); // true
 * h.halted(59_999); // true — h.halted(60_002) // false
 */
export class ErrorRateHalt {
  readonly settings: ErrorRateSettings;
  /** Times of counted errors still in the window, oldest first. */
  readonly #times: number[] = [];
  #haltedUntil = Number.NEGATIVE_INFINITY;
  readonly #steps = new ClockStepWatch();

  constructor(settings: ErrorRateSettings) {
    this.settings = settings;
  }

  /** Records one order error; true when it trips the halt. */
  record(code: string, now: number): boolean {
    if (this.settings.ignoreCodes.includes(code) || this.halted(now)) return false;
    this.#prune(now);
    this.#times.push(now);
    if (this.#times.length <= this.settings.maxErrors) return false;
    this.#times.length = 0;
    this.#haltedUntil = now + this.settings.coolDownMs;
    return true;
  }

  /** True while the cool-down runs: from the tripping error until coolDownMs later (exclusive). */
  halted(now: number): boolean {
    this.#follow(now);
    return now < this.#haltedUntil;
  }

  /** Clock time the current or last halt ends; -Infinity when it never tripped. */
  get haltedUntil(): number {
    return this.#haltedUntil;
  }

  /** Counted errors in the window ending at `now`. */
  count(now: number): number {
    this.#prune(now);
    return this.#times.length;
  }

  /**
   * Keeps the halt's instants on the clock's time scale when the clock steps back by more than
   * CLOCK_STEP_BACK_MS: the halt's end and the window's error times move back by the step, so the
   * cool-down and the window last the same elapsed time. Left as they were, a halt running at a
   * 10-minute step back would hold quoting for 10 minutes more (the engine's requote at its end
   * finds it still on, and nothing requotes later).
   */
  #follow(now: number): void {
    const step = this.#steps.follow(now);
    if (step === 0) return;
    if (this.#haltedUntil > now) this.#haltedUntil -= step;
    const times = this.#times;
    for (let i = 0; i < times.length; i++) times[i] = (times[i] as number) - step;
  }

  #prune(now: number): void {
    this.#follow(now);
    const from = now - this.settings.windowMs;
    let drop = 0;
    while (drop < this.#times.length && (this.#times[drop] as number) <= from) drop++;
    if (drop > 0) this.#times.splice(0, drop);
  }
}
