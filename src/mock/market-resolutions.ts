/**
 * How each market resolved: its payout per share by outcome index (decimal strings, outcomeLabels
 * order), recorded by the admin's resolve-market and read by the Market record's payoutNumerators
 * (the spec: "per-outcome payout vector, set on resolution"). A market resolved in the scenario
 * itself has no entry: the scenario names no winner.
 * @example resolutions.set(m.id, ["1", "0"]); resolutions.payoutsOf(m.id); // ["1", "0"]
 */
export class MarketResolutions {
  readonly #payouts = new Map<string, readonly string[]>();

  /** Records the payouts of a market just resolved (final: the admin refuses a second resolution). */
  set(marketId: string, payouts: readonly string[]): void {
    this.#payouts.set(marketId, [...payouts]);
  }

  /** The payout vector of a resolved market, undefined until it is resolved. */
  payoutsOf(marketId: string): readonly string[] | undefined {
    return this.#payouts.get(marketId);
  }
}
