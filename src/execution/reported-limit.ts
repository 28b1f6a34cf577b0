/**
 * How the exchange's X-RateLimit-* headers move the rate budget's buckets: which bucket a header
 * describes ({@link headerBucket}) and what limit that bucket is then paced at ({@link ReportedLimit}).
 * Both rules are guesses at what the spec leaves unsaid (README "Assumptions", "which bucket
 * X-RateLimit-* describe" and "a reported rate limit"): this file is the one place to correct them.
 */

/** X-RateLimit-Reset is whole delta seconds: a reset up to this long fits a one-second window. */
const ONE_SECOND_RESET_MS = 1_000;

/**
 * A reported limit above this many times a bucket's table limit is not taken as that bucket's: the
 * spec's figures "may shift by a small factor", and the header that looks like a one-second bucket's
 * but is not — a 60 s bucket's in its window's last second, its reset reading 1 s as the other's
 * does — is the IP's 1000 per 60 s beside the wallet's 50 per s (20 times). See headerBucket.
 */
export const PLAUSIBLE_FACTOR = 4;

/**
 * A lowered limit no header has repeated for this long goes back to the table. The headers name only
 * the tightest bucket: while mm paces an op's bucket at the lowered rate, an exchange that raised it
 * again may never show it (the mock, and likely the exchange, report the bucket with the fewest
 * requests left, which is then another of the op's buckets), so the bucket would stay lowered until
 * restart. Five minutes is five of the longest windows: a bucket still lowered on the exchange and
 * spent is the tightest near the end of each of its windows and is confirmed well within it; one not
 * spent does not matter, and shows its limit again once demand spends it.
 */
export const LOWERED_LIMIT_LAPSE_MS = 300_000;

/** What the exchange's X-RateLimit-* headers said, anchored to the local clock (see rate-limit-state.ts). */
export interface ServerRateView {
  limit: number;
  remaining: number;
  resetAt: number;
  observedAt: number;
}

/**
 * A bucket's burst when paced at `capacity` instead of its table's `limit`: in proportion, so a
 * whole-limit burst (a 1 s window) stays whole and a 60 s window keeps ten seconds' worth.
 * @example pacedBurst(1000, 167, 500) // 84
 */
export function pacedBurst(limit: number, burst: number, capacity: number): number {
  const scaled = burst === limit ? capacity : Math.ceil((burst * capacity) / limit);
  return Math.max(1, Math.min(capacity, scaled));
}

/** Where a change of pace is told (a pino Logger fits). */
export interface PaceLog {
  info(obj: Record<string, unknown>, msg: string): void;
}

/** The shape of a bucket that {@link headerBucket} needs. */
export interface HeaderCandidate {
  /** The table's limit per window (scaled for the partner). */
  readonly limit: number;
  readonly windowMs: number;
  /** The limit it is paced at now (ReportedLimit), when lower than the table's. */
  readonly capacity?: number;
}

/**
 * The bucket an answer's X-RateLimit-* headers describe, among the buckets of the op that was
 * answered. The headers name none. By the limit alone (nearest by ratio) a lifted rateLimitPerMin
 * misleads: at 12000 or 30000 the wallet's place bucket is 1000 or 2500 per second, as near to or
 * farther from the wallet's baseline header (limit 50) than the IP's 1000 per 60 s, and the header
 * lowered the IP bucket to 50 per 60 s until restart. So the reset decides first:
 * - a reset longer than a bucket's window rules that bucket out (its window refills sooner);
 * - a reset of at most one second is taken for a one-second window when the op has one: such a
 *   window always shows it, a 60 s window only in its last second — unless the requests it counted
 *   (limit − remaining) are more than PLAUSIBLE_FACTOR times every one-second bucket's limit and its
 *   limit within that factor of a longer one's: that
 *   is the longer window's last second (given to the wallet's 50 per s, the IP's 1000 per 60 s
 *   charged its ~980 counted requests as foreign use until the reset: no placement for ~1 s a minute).
 *   Still wrong (a lifted rateLimitPerMin brings the limits within the factor), the header can lower
 *   the 1 s bucket only to a limit the 60 s bucket spends in a minute: sixty times its own rate, so
 *   it never binds; it raises it only within PLAUSIBLE_FACTOR of its table (ReportedLimit).
 * Among what is left, nearest limit by ratio, ties to the shorter window. Should the reset rule every
 * bucket out (a server outside the spec), the limit alone decides.
 * @example headerBucket([{ limit: 1000, windowMs: 60_000 }, { limit: 50, windowMs: 1_000 }], view) // the 1 s one for a 1 s reset
 */
export function headerBucket<T>(
  buckets: readonly T[],
  shape: (b: T) => HeaderCandidate,
  view: { limit: number; remaining: number; resetAt: number; observedAt: number },
): T | undefined {
  const resetMs = Math.max(0, view.resetAt - view.observedAt);
  let fits = buckets.filter((b) => resetMs <= shape(b).windowMs);
  const short = fits.filter((b) => shape(b).windowMs <= ONE_SECOND_RESET_MS);
  if (resetMs <= ONE_SECOND_RESET_MS && short.length > 0) {
    // Near the table's limit or the pace a report already set: an IP whitelisted in mm's config
    // (ipLimitFactor 10: 10000) but not on the exchange reports 1000, paced at since; judged by the
    // table alone its last second went to the wallet's 50 per s, again ~1 s without a placement a minute.
    const near = (limit: number) =>
      view.limit <= PLAUSIBLE_FACTOR * limit && view.limit * PLAUSIBLE_FACTOR >= limit;
    const plausible = (b: T) => near(shape(b).limit) || near(shape(b).capacity ?? shape(b).limit);
    const long = fits.filter((b) => shape(b).windowMs > ONE_SECOND_RESET_MS && plausible(b));
    // By what the server counted, not its limit: a wallet whose partner limit is above mm's
    // rateLimitPerMin (250 per s against the default's 50) reports a limit beyond the factor too, and
    // read as the IP's it paced placements at 250 per 60 s, a quarter of the IP's, for good (its
    // header is the tightest most of each minute). That header counts at most what mm sent in a
    // second plus another process's use; the IP's last second, the tightest, counts nearly its 1000.
    const counted = Math.max(0, view.limit - view.remaining);
    // At the pace a report set, if lower: with rateLimitPerMin 3000 (250 per s) against a grant of
    // 600 (50), the IP's ~980 read against 250 went to the wallet's bucket, raised it back to 250
    // and charged it as foreign use: a 1 s gap and two pace changes a minute.
    const beyondShort = short.every(
      (b) => counted > PLAUSIBLE_FACTOR * Math.min(shape(b).limit, shape(b).capacity ?? shape(b).limit),
    );
    fits = beyondShort && long.length > 0 ? long : short;
  }
  let best: T | undefined;
  let bestDist = Number.POSITIVE_INFINITY;
  for (const b of fits.length > 0 ? fits : buckets) {
    const s = shape(b);
    const dist = Math.abs(Math.log(Math.max(1, view.limit) / s.limit));
    if (dist < bestDist || (dist === bestDist && best !== undefined && s.windowMs < shape(best).windowMs)) {
      best = b;
      bestDist = dist;
    }
  }
  return best;
}

/**
 * The limit one bucket is paced at: its table's, or lower while the exchange reports lower. A header
 * the bucket was given (headerBucket) lowers it to the reported limit; a higher one raises it again,
 * never above the table (the header names only the tightest bucket, so a figure above the table may
 * be another bucket's, and the table is the spec's ceiling) and only when it is within
 * PLAUSIBLE_FACTOR of the table. A lowered limit that no header has repeated for
 * LOWERED_LIMIT_LAPSE_MS goes back to the table. A limit below 1 or not an integer (a malformed
 * header) is ignored: the bucket is never paced at 0.
 * @example
 * const r = new ReportedLimit(1000);
 * r.heard(500, 0); // 500
 * r.heard(1200, 1_000); // 1000: back to the table, not above it
 */
export class ReportedLimit {
  /** The table's limit: the ceiling. */
  readonly table: number;
  #limit: number;
  /** When a header last said the lowered limit (or a lower one). */
  #confirmedAt = Number.NEGATIVE_INFINITY;

  constructor(table: number) {
    this.table = table;
    this.#limit = table;
  }

  /** The limit the bucket is paced at now. */
  get limit(): number {
    return this.#limit;
  }

  /** A header given to this bucket said `limit` at `now`: returns the limit to pace at from now. */
  heard(limit: number, now: number): number {
    if (!(Number.isInteger(limit) && limit >= 1)) return this.#limit;
    if (limit <= this.#limit) {
      this.#limit = limit;
      this.#confirmedAt = now;
    } else if (limit <= this.table * PLAUSIBLE_FACTOR) {
      this.#limit = Math.min(limit, this.table);
      this.#confirmedAt = now;
    }
    return this.#limit;
  }

  /** The clock stepped back by `step` ms (TokenBucket's #follow): the confirmation moves with it. */
  shift(step: number): void {
    this.#confirmedAt -= step;
  }

  /** Returns the limit to pace at from `now`: the table once a lowered limit has gone unconfirmed too long. */
  lapse(now: number): number {
    if (this.#limit < this.table && now - this.#confirmedAt >= LOWERED_LIMIT_LAPSE_MS)
      this.#limit = this.table;
    return this.#limit;
  }
}
