import { payoutMicro } from "../../core/payout.js";
import { MARKET_STATUSES, type MarketStatus, SETTLED_MARKET_STATUSES } from "../../core/types.js";
import type { Engine } from "../../engine/engine-api.js";
import { lifecycleStatus } from "../../gateway/lifecycle-status.js";
import { type ChannelEvent, parseEventFrame } from "../../gateway/schema/events.js";
import { CARRIED_SID } from "../../recorded/format.js";
import type { SimVenue } from "../../venue/sim-venue.js";
import type { MarketSetup } from "./markets.js";

/**
 * A recorded condition_lifecycle or platform_status event at the simulated exchange: a market's
 * new status is set on the venue at once (placements on a market that is not OPEN are refused
 * there, as live) and reported to the engine through `toEngine` (a feed latency later);
 * platform_status goes to the engine only (the venue has no platform freeze). A resolution's
 * payouts go to `settled`, per token of the market (the report marks the tokens at them). Returns
 * false for any other event.
 */
export function applyLifecycle(
  e: ChannelEvent,
  venue: SimVenue,
  markets: MarketSetup,
  toEngine: (fn: (engine: Engine) => void) => void,
  settled: (tokenId: string, payoutMicro: number) => void = () => {},
): boolean {
  if (e.type === "platform_status") {
    const frozen = e.frozen;
    if (frozen !== undefined) toEngine((engine) => engine.onPlatformStatus(frozen));
    return true;
  }
  const status = lifecycleStatus(e);
  if (status === undefined) return false;
  const spec = markets.specs.find((m) => m.conditionId === status.conditionId);
  if (spec === undefined) return true;
  if ((MARKET_STATUSES as readonly string[]).includes(status.status)) {
    venue.setMarketStatus(spec.marketId, status.status as MarketStatus);
  }
  const payouts = status.payouts;
  if (payouts !== undefined && SETTLED_MARKET_STATUSES.has(status.status)) {
    for (const t of markets.tokens) {
      if (t.marketId !== spec.marketId) continue;
      const micro = payoutMicro(payouts, t.outcomeIndex);
      if (micro !== undefined) settled(t.tokenId, micro);
    }
  }
  toEngine((engine) => engine.onMarketStatus(spec.marketId, status.status, payouts));
  return true;
}

/** What the replay knows of one market. */
interface KnownMarket {
  /** The last status acted on. */
  status: string;
  /** Whether it was ever RESOLVED: a resolution acted on stays acted on, whatever followed it. */
  resolved: boolean;
  /** Whether a resolution's payouts were applied (the report never unmarks them). */
  paid: boolean;
}

/**
 * The lifecycle state the replay has acted on so far (each market's last status, whether it was
 * resolved and its payouts applied; the platform's last `frozen`), to tell whether a carried frame
 * (CARRIED_SID: `mm record` repeats the state at the head of each rotated file) says anything new.
 * Replaying the whole directory it never does (the frames it repeats were replayed from the earlier
 * file), and acting on it again would count it twice and mark the payouts twice; replaying that
 * file alone it is the only word the replay has of a pause, a status or a resolution before the file.
 */
export class LifecycleMemory {
  readonly #markets = new Map<string, KnownMarket>();
  #frozen: boolean | undefined;

  /**
   * Whether acting on `e` (a lifecycle or platform event) would change the state known. A
   * resolution is new only to a market never resolved, or with payouts to one never paid: the
   * carry heads a file with a market's resolution and then its last status, and that status may
   * have moved on (DISPUTED after the resolution), so comparing the resolution's RESOLVED with the
   * status known would re-resolve the market at every rotation of a whole directory.
   */
  adds(e: ChannelEvent): boolean {
    if (e.type === "platform_status") return e.frozen !== undefined && e.frozen !== this.#frozen;
    const s = lifecycleStatus(e);
    if (s === undefined) return true;
    const known = this.#markets.get(s.conditionId.toLowerCase());
    if (known === undefined) return true;
    if (e.type === "market_resolved") return !known.resolved || (s.payouts !== undefined && !known.paid);
    return known.status !== s.status || (s.payouts !== undefined && !known.paid);
  }

  /**
   * Whether `frame` is a carried frame (CARRIED_SID) that adds nothing to the state known: the
   * replay skips it, counted nowhere. One the parser refuses is not (counted as refused).
   */
  repeats(frame: Record<string, unknown>): boolean {
    if (frame.sid !== CARRIED_SID) return false;
    const parsed = parseEventFrame(frame, "market");
    return !("rejected" in parsed) && !this.adds(parsed.event);
  }

  /** `e` was acted on. */
  note(e: ChannelEvent): void {
    if (e.type === "platform_status") {
      if (e.frozen !== undefined) this.#frozen = e.frozen;
      return;
    }
    const s = lifecycleStatus(e);
    if (s === undefined) return;
    const key = s.conditionId.toLowerCase();
    const known = this.#markets.get(key);
    this.#markets.set(key, {
      status: s.status,
      resolved: s.status === "RESOLVED" || known?.resolved === true,
      paid: s.payouts !== undefined || known?.paid === true,
    });
  }
}
