import { toWei } from "../core/wei.js";
import type { Inventory } from "./inventory.js";

/** One token where the local position and the exchange's disagree. */
export interface PositionDrift {
  readonly tokenId: string;
  readonly localMicro: bigint;
  readonly remoteMicro: bigint;
  /** remote − local. */
  readonly driftMicro: bigint;
}

/** The exchange's position rows (GET /api/me/positions, assumed `{tokenId, quantity}`). */
export interface RemotePosition {
  readonly tokenId: string;
  readonly quantity: string;
}

export interface PositionCheck {
  /** Every token that disagrees now. */
  readonly drifts: readonly PositionDrift[];
  /** The drifts seen identically in the previous check too: settled disagreements, to correct. */
  readonly corrections: readonly PositionDrift[];
  /** Rows with an unreadable quantity (skipped). */
  readonly invalid: readonly RemotePosition[];
}

/**
 * Compares local positions with the exchange's.
 *
 * user_fill is a match-time notice and positions move at on-chain settlement, so a fresh fill shows as a
 * transient drift. Only a drift seen twice in a row with the same figures (pass the previous check's
 * `drifts` as `prior`) is reported for correction; a transient one changes between checks or vanishes.
 *
 * INVARIANTS
 * - Pure. A token missing on either side counts as 0 there. `tokens`, when given, limits the check to
 *   the tokens mm trades (the wallet may hold others).
 * - Every drift is reported (for the log and metrics); a correction is always also a drift.
 * @example
 * const c = checkPositions(inv.sizes(), await port.positions(), lastDrifts);
 * applyPositionCorrections(inv, c.corrections, clock.now());
 */
export function checkPositions(
  local: ReadonlyMap<string, bigint>,
  remote: readonly RemotePosition[],
  prior: readonly PositionDrift[] = [],
  tokens?: ReadonlySet<string>,
): PositionCheck {
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
    const d: PositionDrift = { tokenId, localMicro, remoteMicro, driftMicro: remoteMicro - localMicro };
    drifts.push(d);
    const p = before.get(tokenId);
    if (p !== undefined && p.localMicro === localMicro && p.remoteMicro === remoteMicro) corrections.push(d);
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
