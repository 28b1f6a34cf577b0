import type { RejectCode } from "../ws/channels.js";

/**
 * Faults the mock has been asked to inject (through /__admin/* or the test API). Read by the HTTP
 * server, the WebSocket gateways and the flow simulator; everything is off by default.
 */
export interface FaultState {
  /**
   * Answer the next `count` HTTP requests (not /__admin) with this status and code; with `paths`,
   * only requests to those route templates (the others pass and consume nothing).
   */
  failNext:
    | {
        count: number;
        status: 429 | 500 | 502 | 503;
        code: string;
        retryAfterSeconds: number;
        paths?: readonly string[];
      }
    | undefined;
  /** Extra latency added before every HTTP answer, ms. */
  httpLatencyMs: number;
  /** Accept the next `count` placements into the venue but never answer them (ambiguous outcome). */
  hangPlacements: number;
  /** Market-feed faults per token id ("*" = every token). */
  feed: {
    /** Skip one seq number on the next book frame of these tokens (a gap). */
    skipSeq: Set<string>;
    /** Swap the order of the next two book frames of these tokens. */
    reorder: Set<string>;
    /** Send nothing at all on these tokens' feeds (including pongs? no: only channel events). */
    silenced: Set<string>;
    /**
     * token_book subscriptions of these tokens are refused with this spec rejection code: in a
     * subscribe, only these ids (the rest of the entry is accepted); in update_subscription, the
     * whole command. Subscriptions already held are untouched.
     */
    refusedBooks: Map<string, RejectCode>;
  };
  /** Extra latency before WebSocket frames are sent, ms. */
  wsLatencyMs: number;
  /** The platform_status frozen flag. */
  platformFrozen: boolean;
  /**
   * No condition_lifecycle push at all (market_paused / unpaused / resolved / status): the spec says
   * most lifecycle events are not yet emitted, so markets change status silently.
   */
  lifecycleSilenced: boolean;
}

/** A fresh fault state with nothing injected. */
export function noFaults(): FaultState {
  return {
    failNext: undefined,
    httpLatencyMs: 0,
    hangPlacements: 0,
    feed: { skipSeq: new Set(), reorder: new Set(), silenced: new Set(), refusedBooks: new Map() },
    wsLatencyMs: 0,
    platformFrozen: false,
    lifecycleSilenced: false,
  };
}
