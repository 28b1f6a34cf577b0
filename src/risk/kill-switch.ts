/** Why and when the kill switch tripped. */
export interface KillSwitchTrip {
  readonly atMs: number;
  readonly peakMicro: bigint;
  readonly pnlMicro: bigint;
  readonly drawdownMicro: bigint;
}

/**
 * A kill switch on the trailing drawdown of total PnL (USDC micro-units): the peak is the highest
 * PnL seen since start (or since the last reset), the start's raised by a drawdown an earlier run
 * carried over (`carry`); it trips when peak − current PnL exceeds the
 * limit. Tripped is sticky: a recovery of PnL does not un-trip it, only an explicit `reset` does —
 * an operator must look at what happened before the bot trades again.
 * @example
 * const ks = new DrawdownKillSwitch(100_000_000n); // 100 USDC
 * ks.observe(50_000_000n, t0); ks.observe(-60_000_000n, t1); // true: 110 USDC below the peak
 */
export class DrawdownKillSwitch {
  readonly maxDrawdownMicro: bigint;
  #peak: bigint | undefined;
  #last: bigint | undefined;
  #trip: KillSwitchTrip | undefined;
  #carried = 0n;
  /** The drawdown `risen` last returned (or the lower one since): rises are measured from it. */
  #told = 0n;

  constructor(maxDrawdownMicro: bigint) {
    this.maxDrawdownMicro = maxDrawdownMicro;
  }

  /** Feeds the current total PnL; true when this observation trips the switch. */
  observe(pnlMicro: bigint, now: number): boolean {
    this.#last = pnlMicro;
    // The first observation is the starting peak, raised by what an earlier run had already lost
    // from its own peak (`carry`): drawdown is measured from what the bot has seen.
    if (this.#peak === undefined) this.#peak = pnlMicro + this.#carried;
    else if (pnlMicro > this.#peak) this.#peak = pnlMicro;
    if (this.#trip !== undefined) return false;
    const drawdownMicro = this.#peak - pnlMicro;
    if (drawdownMicro <= this.maxDrawdownMicro) return false;
    this.#trip = { atMs: now, peakMicro: this.#peak, pnlMicro, drawdownMicro };
    return true;
  }

  /** True from the trip until `reset`. */
  get active(): boolean {
    return this.#trip !== undefined;
  }

  /** The trip, while active. */
  get trip(): KillSwitchTrip | undefined {
    return this.#trip;
  }

  /** Peak − last observed PnL (before any observation: the carried drawdown, else 0). */
  get drawdownMicro(): bigint {
    return this.#peak === undefined || this.#last === undefined ? this.#carried : this.#peak - this.#last;
  }

  /**
   * Starts tripped with an earlier run's trip (the journal's restore): a restart must not re-arm
   * what only the operator may. The trip's drawdown stands as the drawdown (the first observation's
   * peak lies that far above it), so `drawdownMicro` shows it until `reset`, not a fresh 0.
   */
  restore(trip: KillSwitchTrip): void {
    this.#trip = trip;
    this.#carried = trip.drawdownMicro;
  }

  /**
   * The drawdown, when it has risen by 1% of the limit (at least one micro-USDC) since the last one
   * this returned, else undefined; a fall of that step or more below it becomes the new base (a
   * smaller one leaves the journal's figure a little high, never low, and a PnL wobbling around one
   * level does not write a snapshot per wobble). While tripped,
   * undefined (the trip holds the figures). The journal writes what it returns at once, so that a
   * crash before the next PnL snapshot cannot hand the next run more of the limit than 1%.
   */
  risen(): bigint | undefined {
    if (this.#trip !== undefined) return undefined;
    const d = this.drawdownMicro;
    const step = this.maxDrawdownMicro / 100n > 0n ? this.maxDrawdownMicro / 100n : 1n;
    if (d + step <= this.#told) this.#told = d;
    if (d - this.#told < step) return undefined;
    this.#told = d;
    return d;
  }

  /**
   * Starts with `drawdownMicro` of the limit already used (an earlier run's drawdown, journaled):
   * the first observation's peak lies that far above it, so a restart, or a crash loop, does not
   * hand out the whole limit again. Carried as a drawdown rather than as the earlier peak itself:
   * the PnL a run sees depends on the markets it trades, which may differ from the earlier run's.
   * Ignored once PnL has been observed, and cleared by `reset`.
   */
  carry(drawdownMicro: bigint): void {
    if (drawdownMicro < 0n) throw new RangeError(`a carried drawdown cannot be negative: ${drawdownMicro}`);
    this.#carried = drawdownMicro;
  }

  /**
   * The PnL moved by `deltaMicro` for a reason that is no gain or loss of the run (a held position's
   * first mark: until then it counted at cost): the peak moves with it, before that PnL is observed.
   * Nothing to move before the first observation, which sets the peak from that PnL anyway.
   */
  shift(deltaMicro: bigint): void {
    if (this.#peak !== undefined) this.#peak += deltaMicro;
  }

  /**
   * Re-arms the switch. The peak restarts at `pnlMicro` (the current PnL; default the last observed
   * one): the loss that tripped it is acknowledged, and only a new fall of more than the limit trips
   * it again. After a restored trip nothing may have been observed yet, hence the argument.
   */
  reset(pnlMicro: bigint | undefined = this.#last): void {
    this.#trip = undefined;
    this.#carried = 0n;
    this.#told = 0n;
    this.#peak = pnlMicro;
    this.#last = pnlMicro;
  }
}
