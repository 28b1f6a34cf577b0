import type { EngineCore } from "./engine-core.js";

/**
 * How long a settled market's record is read for its payouts before it is no longer read: a day
 * from the first read, answered or not, by this run or an earlier one (restore.payoutReadsSince). A resolution's payouts are set with it (the spec: "per-outcome
 * payout vector, set on resolution"), so a record still without them a day later (a market the
 * exchange voided without a vector, say) is taken never to publish them, and is not worth a GET a
 * minute for the rest of the run: its tokens keep their last mark (logged once, warn).
 */
export const PAYOUT_READS_GIVE_UP_MS = 24 * 3_600_000;

/**
 * The closed-market watch's day of payout reads per settled market (PAYOUT_READS_GIVE_UP_MS): when
 * its first read was (reported as `payout_reads_started`, the journal keeps it; an earlier run's
 * restored, so restarts do not start it again), and the markets given up on.
 */
export class PayoutReads {
  readonly #core: EngineCore;
  /** Settled markets read for their payouts: when the first read (of this run or an earlier one) was. */
  readonly #unpaidSince: Map<string, number>;
  /** Settled markets no longer read for their payouts. */
  readonly #givenUp = new Set<string>();

  constructor(core: EngineCore) {
    this.#core = core;
    this.#unpaidSince = new Map(core.options.restore.payoutReadsSince);
  }

  /** Whether the market is no longer read for its payouts. */
  givenUp(marketId: string): boolean {
    return this.#givenUp.has(marketId);
  }

  /** The market's payouts are known (or it is not settled): its day is over. */
  paid(marketId: string): void {
    this.#unpaidSince.delete(marketId);
  }

  /**
   * Starts the market's day of payout reads at its first attempt (reported, for the journal), unless
   * an earlier run began it; true (and logged once) when the day is over: no more reads.
   */
  gaveUp(marketId: string, slug: string | undefined): boolean {
    const now = this.#core.clock.now();
    const since = this.#unpaidSince.get(marketId);
    if (since === undefined) {
      this.#unpaidSince.set(marketId, now);
      this.#core.emit({ type: "payout_reads_started", atMs: now, marketId });
      return false;
    }
    if (now - since < PAYOUT_READS_GIVE_UP_MS) return false;
    this.#unpaidSince.delete(marketId);
    this.#givenUp.add(marketId);
    this.#core.log.warn(
      { marketId, slug, readForMs: now - since },
      "settled market's payouts not read in a day (its record answered without them, or not at all): no longer read, its tokens keep their last mark",
    );
    return true;
  }
}
