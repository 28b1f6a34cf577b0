/**
 * What fault injection and admin actions need from the WebSocket gateways. Implemented by the
 * gateways (src/mock/ws); used by the admin API (src/mock/faults) so that revoking a key or
 * suspending a partner closes live sockets as the spec says, and status changes are pushed.
 */
export interface GatewayControl {
  /**
   * Terminates every open socket abruptly (no close frame), as a network drop would; only those of
   * one gateway when `gateway` is given.
   */
  dropAll(gateway?: "market" | "user"): void;
  /**
   * Drops, silently and with the socket left open, every /ws/market token_book subscription that
   * covers one of `tokenIds`: its sid is gone (commands naming it are refused `invalid_params`,
   * `unknown sid`), none of its ids is published to that socket any more, and no notice is sent.
   * Returns how many subscriptions were dropped.
   */
  dropSubscriptions(tokenIds: readonly string[]): number;
  /** Closes every socket authenticated with this keyId with `4401 <reason>`. */
  closeKey(keyId: string, reason: string): void;
  /** Closes every socket of this partner's keys with `4401 <reason>`. */
  closePartner(partnerId: string, reason: string): void;
  /** Pushes the current platform status to `system` subscribers. */
  publishPlatformStatus(): void;
  /** Pushes a market lifecycle event to `condition_lifecycle` subscribers. */
  publishMarketLifecycle(
    conditionId: string,
    event:
      | { type: "market_paused" | "market_unpaused" }
      | { type: "market_resolved"; resolution: string; payouts?: Record<string, string> }
      | { type: "market_status"; status: string; reason?: string },
  ): void;
  /** Number of open sockets, of one gateway when `gateway` is given (for tests and the admin listing). */
  openSockets(gateway?: "market" | "user"): number;
}
