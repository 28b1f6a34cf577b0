import { toWei } from "../core/wei.js";
import type { Inventory } from "./inventory.js";

/** One token where the local position and the exchange's disagree. */
export interface PositionDrift {
  readonly tokenId: string;
  readonly localMicro: bigint;
  readonly remoteMicro: bigint;
  /** remote − local. */
  readonly driftMicro: bigint;
  /**
   * When this disagreement, with these very figures, was first seen (the caller's `nowMs` scale): a
   * check inherits it from the prior check's identical drift, else it is that check's `nowMs`.
   */
  readonly sinceMs: number;
  /**
   * The first check of the unbroken run of checks in which this token drifted, whatever the figures
   * (a fill settling, then another, then a lasting drift): inherited from the prior check's drift of
   * the token, else this check's `nowMs`. A check that finds the token agreeing ends the run, and
   * so does a correction (the reconcile then forgets the token's prior drift).
   */
  readonly runSinceMs: number;
  /**
   * How long the token has drifted at every check, as of this one: `nowMs − runSinceMs` (ms). A
   * settling fill's drift ends at the first check after its settlement; only a token that never
   * agrees keeps growing it (mm_reconcile_position_drift_seconds).
   */
  readonly runMs: number;
}

/** The exchange's position rows (GET /api/me/positions, assumed `{tokenId, quantity}`). */
export interface RemotePosition {
  readonly tokenId: string;
  readonly quantity: string;
}

/** When a check is made, and how old a drift must be to be corrected. */
export interface PositionCheckTiming {
  /** This check's instant, on a clock that does not step (monotonicNow), in ms. */
  readonly nowMs: number;
  /**
   * How long a drift must have been seen, unchanged, before it is corrected (ms): longer than a
   * fill's on-chain settlement takes (the `reconcile.driftSettleMs` setting).
   */
  readonly settleMs: number;
  /** Limits the check to these tokens (the ones mm trades: the wallet may hold others). */
  readonly tokens?: ReadonlySet<string>;
  /**
   * The fills' side of the window: the positions read's own instant (`asOfMs`, on the exchange's
   * clock, the scale of a fill's tsMs) and each token's latest applied fill (Inventory.lastFillMs).
   * A token with a fill matched less than `settleMs` before `asOfMs` is not corrected, however old
   * its drift: the same figures can come back for a different fill (a fixed-size round trip).
   */
  readonly fills?: {
    readonly asOfMs: number;
    readonly lastFillMs: (tokenId: string) => number | undefined;
  };
}

/**
 * How much earlier than `settleMs` a drift's age may fall and still count as settled (ms). The
 * default window equals the default reconcile period, and a timer can fire about a millisecond early
 * against the monotonic clock: without this margin the correction could slip by a whole period.
 */
export const DRIFT_AGE_SLACK_MS = 10;

export interface PositionCheck {
  /** Every token that disagrees now. */
  readonly drifts: readonly PositionDrift[];
  /**
   * The drifts seen identically in the previous check too, first seen at least `settleMs` ago (less
   * DRIFT_AGE_SLACK_MS), on tokens with no fill younger than `settleMs` (`timing.fills`): settled
   * disagreements, to correct.
   */
  readonly corrections: readonly PositionDrift[];
  /** Rows with an unreadable quantity (skipped). */
  readonly invalid: readonly RemotePosition[];
}

/**
 * Compares local positions with the exchange's.
 *
 * user_fill is a match-time notice and positions move at on-chain settlement, so a fresh fill shows as a
 * transient drift. A drift is reported for correction only when the previous check (pass its `drifts`
 * as `prior`) saw it with the same figures AND it was first seen at least `settleMs` ago. Counting
 * checks alone is not enough: reconciles can run 250 ms apart (a reconnect, an ambiguous answer, the
 * follow-up of an unresolved order), well inside a settlement, and correcting a fill away there
 * loses its edge (its shares come back at the mark once settled). A transient drift changes between
 * checks or vanishes; a changed one starts its age again. Same figures need not be the same drift,
 * though: with a fixed quote size the position goes 0 → 4 → 0 → 4 between two checks, and the second
 * +4 is a fresh fill. So a token is also not corrected while a fill of it matched less than
 * `settleMs` before the positions read (`timing.fills`); on a token that fills more often than that,
 * a lasting drift waits for a quiet spell (it is still reported in `drifts`).
 *
 * INVARIANTS
 * - Pure: the caller gives the time. A token missing on either side counts as 0 there.
 * - Every drift is reported (for the log and metrics); a correction is always also a drift.
 * - Each drift carries its token's run (`runSinceMs`, `runMs`): how long the token has disagreed at
 *   every check, whatever the figures. Only drifting tokens carry one, so memory follows the drifts.
 * @example
 * const c = checkPositions(inv.sizes(), await port.positions(), lastDrifts, { nowMs, settleMs: 30_000 });
 * applyPositionCorrections(inv, c.corrections, clock.now());
 */
export function checkPositions(
  local: ReadonlyMap<string, bigint>,
  remote: readonly RemotePosition[],
  prior: readonly PositionDrift[],
  timing: PositionCheckTiming,
): PositionCheck {
  const { nowMs, settleMs, tokens, fills } = timing;
  // settleMs 0 turns the window off (the old rule: two identical checks in a row).
  const fillSettling = (tokenId: string): boolean => {
    const last = fills?.lastFillMs(tokenId);
    return settleMs > 0 && fills !== undefined && last !== undefined && fills.asOfMs - last < settleMs;
  };
  const remoteSizes = new Map<string, bigint>();
  const invalid: RemotePosition[] = [];
  for (const p of remote) {
    if (tokens !== undefined && !tokens.has(p.tokenId)) continue;
    try {
      remoteSizes.set(p.tokenId, (remoteSizes.get(p.tokenId) ?? 0n) + toWei(p.quantity, "quantity"));
    } catch {
      invalid.push(p);
    }
  }
  const ids = new Set([...local.keys(), ...remoteSizes.keys()]);
  const before = new Map(prior.map((d) => [d.tokenId, d]));
  const drifts: PositionDrift[] = [];
  const corrections: PositionDrift[] = [];
  for (const tokenId of [...ids].sort()) {
    if (tokens !== undefined && !tokens.has(tokenId)) continue;
    const localMicro = local.get(tokenId) ?? 0n;
    const remoteMicro = remoteSizes.get(tokenId) ?? 0n;
    if (localMicro === remoteMicro) continue;
    const p = before.get(tokenId);
    const same = p !== undefined && p.localMicro === localMicro && p.remoteMicro === remoteMicro;
    const sinceMs = same ? p.sinceMs : nowMs;
    // Any drift of the token at the prior check continues the run, changed figures included: the
    // run is per token, so another token's settling fills never extend it.
    const runSinceMs = p?.runSinceMs ?? nowMs;
    const d: PositionDrift = {
      tokenId,
      localMicro,
      remoteMicro,
      driftMicro: remoteMicro - localMicro,
      sinceMs,
      runSinceMs,
      runMs: Math.max(0, nowMs - runSinceMs),
    };
    drifts.push(d);
    if (same && nowMs - sinceMs >= settleMs - DRIFT_AGE_SLACK_MS && !fillSettling(tokenId))
      corrections.push(d);
  }
  return { drifts, corrections, invalid };
}

/**
 * Corrects inventory to the exchange's view for each drift, as of `now` (Inventory.correct: vanished
 * shares leave at average cost, new ones enter at `markOf(token)` or the average cost).
 */
export function applyPositionCorrections(
  inventory: Inventory,
  corrections: readonly PositionDrift[],
  now: number,
  markOf: (tokenId: string) => number | undefined = () => undefined,
): void {
  for (const d of corrections) inventory.correct(d.tokenId, d.remoteMicro, now, markOf(d.tokenId));
}
