import type { MarketStatus } from "../../core/types.js";
import type { MockContext } from "../context.js";
import type { FaultState } from "./state.js";

/** A JSON-safe view of every injected fault and the markets' live statuses (GET /__admin/state). */
export interface AdminState {
  readonly faults: {
    readonly failNext: FaultState["failNext"] | null;
    readonly httpLatencyMs: number;
    readonly hangPlacements: number;
    readonly wsLatencyMs: number;
    readonly platformFrozen: boolean;
    readonly lifecycleSilenced: boolean;
    readonly feed: {
      skipSeq: string[];
      reorder: string[];
      silenced: string[];
      /** tokenId → the code its token_book subscription is refused with. */
      refusedBooks: Record<string, string>;
    };
  };
  readonly openSockets: number;
  readonly markets: { id: string; symbol: string; status: MarketStatus }[];
}

/** Snapshot of the fault state and market statuses. */
export function adminState(ctx: MockContext, openSockets: number): AdminState {
  const f = ctx.faults;
  return {
    faults: {
      failNext: failNextView(f.failNext),
      httpLatencyMs: f.httpLatencyMs,
      hangPlacements: f.hangPlacements,
      wsLatencyMs: f.wsLatencyMs,
      platformFrozen: f.platformFrozen,
      lifecycleSilenced: f.lifecycleSilenced,
      feed: {
        skipSeq: [...f.feed.skipSeq],
        reorder: [...f.feed.reorder],
        silenced: [...f.feed.silenced],
        refusedBooks: Object.fromEntries(f.feed.refusedBooks),
      },
    },
    openSockets,
    markets: ctx.venue.markets().map((m) => ({
      id: m.marketId,
      symbol: ctx.markets.byId(m.marketId)?.symbol ?? m.marketId,
      status: m.status,
    })),
  };
}

/** A copy of the failNext fault for the state view (its path filter copied too), or null. */
function failNextView(f: FaultState["failNext"]): FaultState["failNext"] | null {
  if (f === undefined) return null;
  return f.paths === undefined ? { ...f } : { ...f, paths: [...f.paths] };
}

/**
 * Puts a fault state back to "nothing injected", in place (the HTTP server, gateways and flow hold
 * the same object). Returns whether the platform was frozen before.
 */
export function clearFaults(f: FaultState): boolean {
  const wasFrozen = f.platformFrozen;
  f.failNext = undefined;
  f.httpLatencyMs = 0;
  f.hangPlacements = 0;
  f.wsLatencyMs = 0;
  f.platformFrozen = false;
  f.lifecycleSilenced = false;
  f.feed.skipSeq.clear();
  f.feed.reorder.clear();
  f.feed.silenced.clear();
  f.feed.refusedBooks.clear();
  return wasFrozen;
}
