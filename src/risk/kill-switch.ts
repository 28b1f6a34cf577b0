/** Why and when the kill switch tripped. */
export interface KillSwitchTrip {
  readonly atMs: number;
  readonly peakMicro: bigint;
  readonly pnlMicro: bigint;
  readonly drawdownMicro: bigint;
}

/**
 * A kill switch on the trailing drawdown of total PnL (USDC micro-units): the peak is the highest
 * PnL seen since start (or since the last reset); it trips when peak − current PnL exceeds the
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

  constructor(maxDrawdownMicro: bigint) {
    this.maxDrawdownMicro = maxDrawdownMicro;
  }

  /** Feeds the current total PnL; true when this observation trips the switch. */
  observe(pnlMicro: bigint, now: number): boolean {
    this.#last = pnlMicro;
    // The first observation is the starting peak: drawdown is measured from what the bot has seen.
    if (this.#peak === undefined || pnlMicro > this.#peak) this.#peak = pnlMicro;
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

  /** Peak − last observed PnL (0 before any observation). */
  get drawdownMicro(): bigint {
    return this.#peak === undefined || this.#last === undefined ? 0n : this.#peak - this.#last;
  }

  /**
   * Starts tripped with an earlier run's trip (the journal's restore): a restart must not re-arm
   * what only the operator may. The peak stays unknown until the next observation or `reset`.
   */
  restore(trip: KillSwitchTrip): void {
    this.#trip = trip;
  }

  /**
   * Re-arms the switch. The peak restarts at `pnlMicro` (the current PnL; default the last observed
   * one): the loss that tripped it is acknowledged, and only a new fall of more than the limit trips
   * it again. After a restored trip nothing may have been observed yet, hence the argument.
   */
  reset(pnlMicro: bigint | undefined = this.#last): void {
    this.#trip = undefined;
    this.#peak = pnlMicro;
    this.#last = pnlMicro;
  }
}
