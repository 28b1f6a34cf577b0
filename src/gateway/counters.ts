/**
 * Monotonic counters of a gateway client (and two gauges, `connectionsOpen` and
 * `subscriptionChecksActive`), for metrics. Keys of
 * the per-type and per-reason maps are small closed sets (frame types of the spec, the reasons of
 * schema/events.ts and connection.ts), safe as metric labels.
 */
export interface GatewayCounters {
  /** Frames received, by `type` (events, replies, `connected`; `other`: an unknown reply type). */
  readonly framesByType: Record<string, number>;
  /** Frames dropped as malformed, by reason (not_json, not_object, unknown_type, bad_field, book_bad_seq…). */
  readonly malformed: Record<string, number>;
  /**
   * Well-formed frames dropped: `unsolicited` (an id not subscribed), `late_reply` (after its
   * timeout), `stray_sid` (a sid we unsubscribed and the server never answered: orphans.ts).
   */
  readonly dropped: Record<string, number>;
  /**
   * Subscription entries refused by the server (or unreadable, not_accepted), by `channel:code`,
   * at subscribe time and on the resubscribe after a reconnect; each retry that is refused again
   * counts again. A code outside the known set (refusal-policy.ts) counts as `channel:other`.
   */
  readonly subscriptionRefusals: Record<string, number>;
  /** Socket opens attempted. */
  connectAttempts: number;
  /** Connections that reached the `connected` frame. */
  connectionsOpened: number;
  /** Connections open now (gauge). */
  connectionsOpen: number;
  /**
   * 1 while the periodic subscriptions checks run, 0 when off (setting 0), paused (a wrong list:
   * periodic-audit.ts) or stopped with the client (gauge).
   */
  subscriptionChecksActive: number;
  /** Connections re-established after a drop. */
  reconnects: number;
  /** Connections lost (any cause but close()). */
  disconnects: number;
  /** Connections declared dead by the silence watchdog. */
  watchdogTrips: number;
  commandsSent: number;
  commandTimeouts: number;
  /** Error replies and rejected subscription entries. */
  commandRejections: number;
  /** Pings sent (the keepalive's and GatewayClient.ping's). */
  pings: number;
  /**
   * Pings answered: replies echoing an awaited ping's correlation id, of any type or shape but
   * `error` (a refused ping is a commandRejection). A `pong` frame echoing no ping of ours is not
   * one (it counts as framesByType.pong and dropped.late_reply).
   */
  pongs: number;
  /** get_book_snapshot commands sent on a tracker's request. */
  snapshotRequests: number;
  /** Snapshot requests not sent: the token's subscription was not live (a resubscribe brings one). */
  snapshotRequestsUnsent: number;
  /**
   * Subscriptions (or ids of one) we had confirmed that the server was found no longer to hold
   * (list_subscriptions: a sid gone, or ids missing from it), each subscribed again, by channel.
   */
  readonly subscriptionsLost: Record<string, number>;
  /** Fatal closes (at most 1: the client stops). */
  fatal: number;
}

/** All counters at zero. */
export function zeroGatewayCounters(): GatewayCounters {
  return {
    framesByType: {},
    malformed: {},
    dropped: {},
    subscriptionRefusals: {},
    connectAttempts: 0,
    connectionsOpened: 0,
    connectionsOpen: 0,
    subscriptionChecksActive: 0,
    reconnects: 0,
    disconnects: 0,
    watchdogTrips: 0,
    commandsSent: 0,
    commandTimeouts: 0,
    commandRejections: 0,
    pings: 0,
    pongs: 0,
    snapshotRequests: 0,
    snapshotRequestsUnsent: 0,
    subscriptionsLost: {},
    fatal: 0,
  };
}

/** Adds one to `map[key]`. */
export function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** Sum of a per-key map. */
export function total(map: Readonly<Record<string, number>>): number {
  let n = 0;
  for (const v of Object.values(map)) n += v;
  return n;
}
