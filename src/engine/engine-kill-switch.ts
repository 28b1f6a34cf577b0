import type { EngineCore } from "./engine-core.js";

/**
 * The drawdown kill switch across runs: a trip and a re-arm are reported as `kill_switch` events
 * (the journal keeps them), and a trip an earlier run left un-re-armed (`restore.killSwitch`) is
 * where a new engine starts. Only the operator re-arms: neither a restart nor a recovery of PnL does.
 */

/** At construction: starts tripped when the restore carries an earlier run's trip. */
export function restoreKillSwitch(core: EngineCore): void {
  const trip = core.options.restore.killSwitch;
  if (trip !== undefined) core.risk.restoreKillSwitch(trip);
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
 * it, and requotes every token. False when it was not tripped.
 */
export function rearmKillSwitch(core: EngineCore): boolean {
  const { risk, log, positions, clock } = core;
  if (!risk.killSwitchActive()) return false;
  const pnlMicro = positions.pnlMicro;
  risk.resetKillSwitch(pnlMicro);
  log.warn({ pnlMicro: String(pnlMicro) }, "kill switch re-armed by the operator: quoting resumes");
  core.emit({
    type: "kill_switch",
    atMs: clock.now(),
    action: "rearm",
    peakMicro: pnlMicro,
    pnlMicro,
    drawdownMicro: 0n,
    limitMicro: risk.config.killSwitch.maxDrawdownMicro,
  });
  core.requoteAll();
  return true;
}
