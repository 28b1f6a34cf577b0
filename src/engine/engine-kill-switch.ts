import type { EngineCore } from "./engine-core.js";

/**
 * The drawdown kill switch across runs: a trip and a re-arm are reported as `kill_switch` events
 * (the journal keeps them), and a trip an earlier run left un-re-armed (`restore.killSwitch`) is
 * where a new engine starts. Only the operator re-arms: neither a restart nor a recovery of PnL does.
 * An armed switch's drawdown (EngineStatus.drawdownMicro, journaled with the PnL snapshots) carries
 * over too (`restore.carriedDrawdown`): restarts do not renew the limit.
 */

/**
 * At construction: starts tripped when the restore carries an earlier run's trip, and otherwise
 * with the drawdown the earlier run had reached (restore.carriedDrawdown) already used.
 */
export function restoreKillSwitch(core: EngineCore): void {
  const { killSwitch: trip, carriedDrawdown } = core.options.restore;
  if (trip !== undefined) core.risk.restoreKillSwitch(trip);
  else if (carriedDrawdown !== undefined) core.risk.carryKillSwitchDrawdown(carriedDrawdown.drawdownMicro);
}

/** After a decision: a kill_switch trip is reported with its figures (for the journal). */
export function reportKillSwitchTrip(core: EngineCore): void {
  const trip = core.risk.killSwitchTrip;
  if (trip === undefined) return;
  core.emit({
    type: "kill_switch",
    atMs: trip.atMs,
    action: "trip",
    peakMicro: trip.peakMicro,
    pnlMicro: trip.pnlMicro,
    drawdownMicro: trip.drawdownMicro,
    limitMicro: core.risk.config.killSwitch.maxDrawdownMicro,
  });
}

/**
 * Operator action: re-arms a tripped switch, its peak restarting at the current total PnL (the
 * restored accounts' included: after a restored trip nothing may have been observed yet), reports
 * it, and requotes every token. On an armed switch with a drawdown (one carried over from an
 * earlier run included) it re-bases the peak the same way: the operator's acknowledgement of that
 * loss, the one way to start a run with the whole limit again. False when neither applies.
 */
export function rearmKillSwitch(core: EngineCore): boolean {
  const { risk, log, positions, clock } = core;
  const tripped = risk.killSwitchActive();
  if (!tripped && risk.killSwitchDrawdownMicro === 0n) return false;
  const pnlMicro = positions.pnlMicro;
  // An armed switch re-bases at the PnL it last observed (before any, the first one will be the
  // peak): the position book's total before the books' first marks could be a peak too high.
  if (tripped) risk.resetKillSwitch(pnlMicro);
  else risk.resetKillSwitch();
  if (tripped)
    log.warn({ pnlMicro: String(pnlMicro) }, "kill switch re-armed by the operator: quoting resumes");
  else
    log.warn(
      { pnlMicro: String(pnlMicro) },
      "kill switch's drawdown re-based by the operator: the whole limit is free again",
    );
  core.emit({
    type: "kill_switch",
    atMs: clock.now(),
    action: "rearm",
    peakMicro: pnlMicro,
    pnlMicro,
    drawdownMicro: 0n,
    limitMicro: risk.config.killSwitch.maxDrawdownMicro,
  });
  if (tripped) core.requoteAll();
  return true;
}

/**
 * Engine start, after the start-up reconcile: the kill switch observes the PnL, its starting peak
 * (a carried drawdown above it) unless marks before the start gave it one. Without this, a flat
 * start's first observation came with the first fill, and that fill's loss set the peak.
 */
export function observeStartPnl(core: EngineCore): void {
  core.enforce(core.risk.onPnl(core.positions.pnlMicro, core.clock.now()));
}

/**
 * A book's mid marks its token, and the kill switch sees the PnL it moved. A held position's first
 * mark moves the total by what the position was worth already (until then it counts at cost: an
 * earlier run's or the baseline's), which is no gain or loss of this run: the peak moves with it.
 * Before, with two restored positions, the first one's mark could set a peak that the second's
 * turned into a drawdown.
 */
export function markToken(core: EngineCore, tokenId: string, midMicro: number): void {
  const { positions, risk, clock } = core;
  const first = positions.markOf(tokenId) === undefined;
  // Read only for a first mark: this runs on every book event (a bigint division each).
  const before = first ? positions.pnlMicro : 0n;
  if (!positions.mark(tokenId, midMicro)) return;
  if (first) risk.shiftKillSwitchPeak(positions.pnlMicro - before);
  core.enforce(risk.onPnl(positions.pnlMicro, clock.now()));
}
