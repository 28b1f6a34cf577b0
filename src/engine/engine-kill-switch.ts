import type { BookView } from "../book/order-book.js";
import { markAfterBook2 } from "../core/mark.js";
import { PICO_PER_MICRO, unrealisedPico } from "../execution/inventory-math.js";
import { fmtSize } from "../risk/decision.js";
import type { EngineCore } from "./engine-core.js";

/**
 * The drawdown kill switch across runs: a trip and a re-arm are reported as `kill_switch` events
 * (the journal keeps them), and a trip an earlier run left un-re-armed (`restore.killSwitch`) is
 * where a new engine starts. Only the operator re-arms: neither a restart nor a recovery of PnL does.
 * An armed switch's drawdown (EngineStatus.drawdownMicro, journaled with the PnL snapshots and at
 * once when it rises: `drawdown` events) carries over too (`restore.carriedDrawdown`): restarts do
 * not renew the limit.
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
 * restored accounts' included), reports it, and requotes every token. On an armed switch with a
 * drawdown (one carried over from an earlier run included) it re-bases the peak the same way: the
 * operator's acknowledgement of that loss (logged with how much), the one way to start a run with
 * the whole limit again. Before the books' first marks the PnL counts restored positions at cost;
 * their first marks move the peak with it (markToken). False when neither applies.
 */
export function rearmKillSwitch(core: EngineCore): boolean {
  const { risk, log, positions, clock } = core;
  const tripped = risk.killSwitchActive();
  const acknowledged = risk.killSwitchDrawdownMicro;
  if (!tripped && acknowledged === 0n) return false;
  const pnlMicro = positions.pnlMicro;
  risk.resetKillSwitch(pnlMicro);
  if (tripped)
    log.warn({ pnlMicro: String(pnlMicro) }, "kill switch re-armed by the operator: quoting resumes");
  else
    log.warn(
      { pnlMicro: String(pnlMicro), acknowledged: fmtSize(acknowledged) },
      `kill switch's drawdown of ${fmtSize(acknowledged)} USDC re-based by the operator: the whole limit is free again`,
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
 * Feeds the total PnL to the kill switch (a trip is enforced), and reports a rise of its drawdown
 * by 1% of the limit (`drawdown`: the journal writes it at once, so a crash does not lose it).
 */
export function observePnl(core: EngineCore): void {
  const { risk, positions, clock } = core;
  core.enforce(risk.onPnl(positions.pnlMicro, clock.now()));
  const risen = risk.killSwitchDrawdownRisen();
  if (risen === undefined) return;
  core.emit({
    type: "drawdown",
    atMs: clock.now(),
    drawdownMicro: risen,
    limitMicro: risk.config.killSwitch.maxDrawdownMicro,
  });
}

/**
 * Engine start, after the start-up reconcile: the kill switch observes the PnL, its starting peak
 * (a carried drawdown above it) unless marks before the start gave it one. Without this, a flat
 * start's first observation came with the first fill, and that fill's loss set the peak.
 */
export function observeStartPnl(core: EngineCore): void {
  observePnl(core);
}

/**
 * A token's first mark of this run (a book's mid, or a settled market's payout) values what the run
 * started with: the position restored from an earlier run counted at cost until then, or at the
 * earlier run's last journaled mark (`fromMicro`: a market listed settled at start without its
 * payouts, whose book is never watched), and what it was worth already is no gain or loss of this
 * run, so the kill switch's peak moves by the change. Only that: a fill of this run before the first
 * mark (an adopted order's, say) is this run's, and counts.
 * Call after the mark is set, before the PnL is observed. Before, with two restored positions, the
 * first one's mark could set a peak that the second's turned into a drawdown.
 */
export function shiftForFirstMark(core: EngineCore, tokenId: string, fromMicro?: number): void {
  const held = core.options.restore.accounts.get(tokenId);
  const mark = core.positions.markOf(tokenId);
  if (held === undefined || held.sizeMicro === 0n || mark === undefined) return;
  const before = fromMicro === undefined ? 0n : unrealisedPico(held, fromMicro);
  core.risk.shiftKillSwitchPeak((unrealisedPico(held, mark) - before) / PICO_PER_MICRO);
}

/**
 * A book marks its token by the one rule (core/mark.ts markAfterBook2): its mid when two-sided, else
 * its last mark bounded by the side that is left (a long is worth no more than the best ask). A token
 * with no mark yet gets none from one side: a restored position's first mark is not this run's PnL
 * (shiftForFirstMark), so a one-sided first mark made the step to the first mid read as if it were.
 * `market` is the book without our own orders (engine-quote.ts marketBook). A crossed or empty book
 * marks nothing.
 */
export function markFromBook(core: EngineCore, tokenId: string, market: BookView): void {
  const last = core.positions.markOf(tokenId);
  const mark2 = markAfterBook2(
    last === undefined ? undefined : 2 * last,
    market.bids.bestPrice(),
    market.asks.bestPrice(),
  );
  if (mark2 !== undefined) markToken(core, tokenId, mark2 / 2);
}

/**
 * A book's mark (markFromBook) marks its token; the kill switch sees the PnL it moved (a first mark of this run,
 * the journal's restored one replaced included: shiftForFirstMark).
 */
export function markToken(core: EngineCore, tokenId: string, midMicro: number): void {
  const { positions } = core;
  const restored = positions.restoredMarkOf(tokenId);
  const first = restored !== undefined || positions.markOf(tokenId) === undefined;
  if (!positions.mark(tokenId, midMicro)) return;
  if (first) shiftForFirstMark(core, tokenId, restored);
  observePnl(core);
}
