import type { MarketStatus } from "../../core/types.js";
import type { MockContext } from "../context.js";
import { REJECT_CODES, type RejectCode } from "../ws/channels.js";
import { AdminError, intIn, nonEmpty } from "./admin-error.js";
import { type AdminState, adminState, clearFaults } from "./admin-state.js";
import type { GatewayControl } from "./gateway-control.js";
import {
  changeStatus,
  findMarket,
  type MarketChange,
  parseStatus,
  type Resolution,
  resolve,
} from "./market-admin.js";
import { type FailStatus, failNextFault, MAX_FAULT_COUNT, MAX_LATENCY_MS } from "./request-faults.js";

export type { AdminState } from "./admin-state.js";
export type { MarketChange, Redemption, Resolution } from "./market-admin.js";
export type { FailStatus } from "./request-faults.js";

/**
 * Fault injection and market control of a mock exchange, in process (tests call it directly;
 * adminRoutes exposes it as /__admin/*). It writes the shared FaultState that the HTTP server,
 * the WebSocket gateways and the flow simulator read, mutates the directory and the venue, and
 * tells the gateways (when attached) to close sockets and push lifecycle frames.
 * @example
 * const admin = new MockAdmin(ctx, gateways);
 * admin.failNextRequests(3, 503);
 * admin.pauseMarket("ARG-WIN");
 */
export class MockAdmin {
  readonly #ctx: MockContext;
  #gateway: GatewayControl | undefined;
  /** Route templates of the mock's HTTP API, once known (attachRoutes): what failNext may filter on. */
  #served: ReadonlySet<string> | undefined;

  constructor(ctx: MockContext, gateway?: GatewayControl) {
    this.#ctx = ctx;
    this.#gateway = gateway;
  }

  /** Binds (or replaces) the gateways once they exist. */
  attachGateway(gateway: GatewayControl): void {
    this.#gateway = gateway;
  }

  /**
   * Tells the admin which route templates the HTTP API serves, so that a failNext `paths` filter
   * naming any other is refused (it would never match). Without it only their shape is checked.
   */
  attachRoutes(patterns: readonly string[]): void {
    this.#served = new Set(patterns);
  }

  // ── sockets and feeds ───────────────────────────────────────────────────────────────────────

  /**
   * Terminates every WebSocket abruptly, as a network drop would; with `gateway`, only the sockets of
   * /ws/market or /ws/user (one feed lost while the other stays up).
   */
  dropAllSockets(gateway?: "market" | "user"): { dropped: number } {
    if (gateway !== undefined && gateway !== "market" && gateway !== "user") {
      throw new AdminError(400, "invalid_argument", 'gateway must be "market" or "user"', {
        field: "gateway",
      });
    }
    const dropped = this.#gateway?.openSockets(gateway) ?? 0;
    this.#gateway?.dropAll(gateway);
    return { dropped };
  }

  /** The next book frame of `tokenId` ("*" = every token) skips one seq number (a gap). */
  skipSeq(tokenId: string): { skipSeq: string[] } {
    this.#ctx.faults.feed.skipSeq.add(this.#feedTarget(tokenId));
    return { skipSeq: [...this.#ctx.faults.feed.skipSeq] };
  }

  /** The next two book frames of `tokenId` ("*" = every token) go out swapped. */
  reorder(tokenId: string): { reorder: string[] } {
    this.#ctx.faults.feed.reorder.add(this.#feedTarget(tokenId));
    return { reorder: [...this.#ctx.faults.feed.reorder] };
  }

  /** Silences (on) or restores (off) every channel event of `tokenId` ("*" = every token). */
  silenceFeed(tokenId: string, on = true): { silenced: string[] } {
    const set = this.#ctx.faults.feed.silenced;
    const target = this.#feedTarget(tokenId);
    if (on) set.add(target);
    else set.delete(target);
    return { silenced: [...set] };
  }

  /**
   * Refuses (on) the token_book subscription of `tokenIds` with `code`, one of the spec's
   * subscription rejection codes (default `invalid_params`, what the spec answers for an id it
   * cannot take; `forbidden` is for a private channel on /ws/market), or lets them be subscribed
   * again (off). A subscribe lists them in `rejected` with the code and accepts the rest of its
   * entry; an update_subscription adding one fails with the code. Subscriptions already held keep
   * their feed: drop the sockets to make a client subscribe again.
   */
  refuseBooks(
    tokenIds: readonly string[],
    code: string = "invalid_params",
    on = true,
  ): { refusedBooks: Record<string, string> } {
    if (!Array.isArray(tokenIds) || tokenIds.length === 0) {
      throw new AdminError(400, "invalid_argument", "tokenIds must be a non-empty array of token ids", {
        field: "tokenIds",
      });
    }
    const ids = tokenIds.map((t) => this.#token(t));
    const map = this.#ctx.faults.feed.refusedBooks;
    if (on) {
      const c = rejectCode(code);
      for (const t of ids) map.set(t, c);
    } else for (const t of ids) map.delete(t);
    return { refusedBooks: Object.fromEntries(map) };
  }

  /**
   * Drops the /ws/market token_book subscriptions covering `tokenIds` on the server side, the
   * sockets staying open and nothing sent (GatewayControl.dropSubscriptions): what a client sees of
   * a server losing a subscription. The client's commands naming the sid are refused from then on.
   */
  dropSubscriptions(tokenIds: readonly string[]): { droppedSubscriptions: number } {
    if (!Array.isArray(tokenIds) || tokenIds.length === 0) {
      throw new AdminError(400, "invalid_argument", "tokenIds must be a non-empty array of token ids", {
        field: "tokenIds",
      });
    }
    const ids = tokenIds.map((t) => this.#token(t));
    return { droppedSubscriptions: this.#gateway?.dropSubscriptions(ids) ?? 0 };
  }

  /** Stops (on) or restores (off) every condition_lifecycle push: markets change status silently. */
  silenceLifecycle(on = true): { lifecycleSilenced: boolean } {
    this.#ctx.faults.lifecycleSilenced = on;
    return { lifecycleSilenced: on };
  }

  // ── HTTP and WebSocket faults ───────────────────────────────────────────────────────────────

  /** Extra delay before every HTTP answer (not /__admin), ms; 0 turns it off. */
  setHttpLatency(ms: number): { httpLatencyMs: number } {
    this.#ctx.faults.httpLatencyMs = intIn("ms", ms, 0, MAX_LATENCY_MS);
    return { httpLatencyMs: this.#ctx.faults.httpLatencyMs };
  }

  /** Extra delay before every WebSocket frame, ms; 0 turns it off. */
  setWsLatency(ms: number): { wsLatencyMs: number } {
    this.#ctx.faults.wsLatencyMs = intIn("ms", ms, 0, MAX_LATENCY_MS);
    return { wsLatencyMs: this.#ctx.faults.wsLatencyMs };
  }

  /**
   * Answers the next `count` HTTP requests (any route but /__admin, before auth) with `status` and
   * `code` (default per status: see DEFAULT_FAIL_CODES) in the nested envelope; a 429 carries
   * `Retry-After: retryAfterSeconds`. With `paths` (route templates as the spec writes them, e.g.
   * `/api/orders/cancel`), only requests to those routes fail and consume the count, whatever their
   * method; the rest are served. `count` 0 cancels a pending failure.
   * @example admin.failNextRequests(40, 500, undefined, 1, ["/api/orders/cancel", "/api/orders/cancel-all"])
   */
  failNextRequests(
    count: number,
    status: FailStatus,
    code?: string,
    retryAfterSeconds = 1,
    paths?: readonly string[],
  ): { failNext: MockContext["faults"]["failNext"] | null } {
    this.#ctx.faults.failNext = failNextFault(count, status, code, retryAfterSeconds, paths, this.#served);
    return { failNext: this.#ctx.faults.failNext ?? null };
  }

  /** The next `count` placements go into the venue but are never answered (see placement-gate.ts). */
  hangNextPlacements(count: number): { hangPlacements: number } {
    this.#ctx.faults.hangPlacements = intIn("count", count, 0, MAX_FAULT_COUNT);
    return { hangPlacements: this.#ctx.faults.hangPlacements };
  }

  // ── keys and partners ───────────────────────────────────────────────────────────────────────

  /** Revokes a key (final: the spec has no re-enable) and closes its sockets with 4401 api_key_revoked. */
  revokeKey(keyId: string): { keyId: string; revoked: true } {
    this.#key(keyId).revoked = true;
    this.#gateway?.closeKey(keyId, "api_key_revoked");
    return { keyId, revoked: true };
  }

  /** Makes a key expire now and closes its sockets with 4401 api_key_expired. */
  expireKey(keyId: string): { keyId: string; expiresAt: string } {
    const now = this.#ctx.clock.now();
    this.#key(keyId).expiresAtMs = now;
    this.#gateway?.closeKey(keyId, "api_key_expired");
    return { keyId, expiresAt: new Date(now).toISOString() };
  }

  /** Suspends a partner: all its keys answer 401 api_key_suspended; its sockets close with that reason. */
  suspendPartner(partnerId: string): { partnerId: string; status: "suspended"; keys: number } {
    this.#partner(partnerId).status = "suspended";
    this.#gateway?.closePartner(partnerId, "api_key_suspended");
    return { partnerId, status: "suspended", keys: this.#keysOf(partnerId) };
  }

  /** Lifts a suspension: the partner's keys work again (new connections; closed sockets stay closed). */
  reactivatePartner(partnerId: string): { partnerId: string; status: "active"; keys: number } {
    this.#partner(partnerId).status = "active";
    return { partnerId, status: "active", keys: this.#keysOf(partnerId) };
  }

  // ── markets and platform ────────────────────────────────────────────────────────────────────

  // Status changes reach WebSocket subscribers through the venue's market_status event, which
  // the gateways turn into market_paused / market_unpaused / market_status; publishing them here
  // too would send each twice. Only market_resolved (the venue does not know the winner) is pushed.

  /** PAUSED: placements get 409 market_not_open; resting orders stay and stay cancellable. */
  pauseMarket(market: string): MarketChange {
    return changeStatus(this.#ctx, findMarket(this.#ctx, market), "PAUSED", false);
  }

  /** Back to OPEN. */
  resumeMarket(market: string): MarketChange {
    return changeStatus(this.#ctx, findMarket(this.#ctx, market), "OPEN", false);
  }

  /**
   * Any status but RESOLVED (use resolveMarket, which pays out); resting orders are cancelled
   * when `cancelOpenOrders`. Placements need OPEN.
   */
  setMarketStatus(
    market: string,
    status: MarketStatus,
    opts: { cancelOpenOrders?: boolean } = {},
  ): MarketChange {
    const s = parseStatus(status);
    if (s === "RESOLVED") {
      throw new AdminError(400, "invalid_argument", "use resolveMarket to resolve (it pays out)", {
        field: "status",
      });
    }
    return changeStatus(this.#ctx, findMarket(this.#ctx, market), s, opts.cancelOpenOrders === true);
  }

  /**
   * Resolves a market: every resting order cancelled, status RESOLVED, every known holder's shares
   * redeemed (1 USDC per winning share, losing shares burnt; see redeemMarket), then
   * market_resolved pushed with `resolution` (the winning label) and `payouts` (outcome index →
   * payout per share) after the venue's market_status RESOLVED.
   */
  resolveMarket(market: string, winningOutcome: "YES" | "NO" | 0 | 1): Resolution {
    const resolution = resolve(this.#ctx, findMarket(this.#ctx, market), winningOutcome);
    this.#gateway?.publishMarketLifecycle(resolution.conditionId, {
      type: "market_resolved",
      resolution: resolution.winningOutcome,
      payouts: resolution.payouts,
    });
    return resolution;
  }

  /** Freezes (on) or unfreezes the platform and pushes platform_status (see placement-gate.ts). */
  freezePlatform(on: boolean): { platformFrozen: boolean } {
    this.#ctx.faults.platformFrozen = on;
    this.#gateway?.publishPlatformStatus();
    return { platformFrozen: on };
  }

  /**
   * Clears every injected fault (failures, hangs, latencies, feed faults, freeze). Key, partner
   * and market changes are state, not faults, and stay: undo them with their own inverse.
   */
  reset(): AdminState {
    if (clearFaults(this.#ctx.faults)) this.#gateway?.publishPlatformStatus();
    return this.state();
  }

  /** Everything injected right now, for /__admin/state and test assertions. */
  state(): AdminState {
    return adminState(this.#ctx, this.#gateway?.openSockets() ?? 0);
  }

  #feedTarget(tokenId: string): string {
    return tokenId === "*" ? tokenId : this.#token(tokenId);
  }

  #token(tokenId: string): string {
    const t = nonEmpty("tokenId", tokenId);
    if (this.#ctx.markets.byToken(t) === undefined) {
      throw new AdminError(404, "unknown_token", `no token ${t}`, { tokenId: t });
    }
    return t;
  }

  #key(keyId: string) {
    const key = this.#ctx.directory.keys.get(nonEmpty("keyId", keyId));
    if (key === undefined) throw new AdminError(404, "unknown_key", `no key ${keyId}`, { keyId });
    return key;
  }

  #partner(partnerId: string) {
    const partner = this.#ctx.directory.partner(nonEmpty("partnerId", partnerId));
    if (partner === undefined) {
      throw new AdminError(404, "unknown_partner", `no partner ${partnerId}`, { partnerId });
    }
    return partner;
  }

  #keysOf(partnerId: string): number {
    return this.#ctx.directory.keys.all().filter((k) => k.partnerId === partnerId).length;
  }
}

function rejectCode(code: unknown): RejectCode {
  if (!(REJECT_CODES as readonly unknown[]).includes(code)) {
    throw new AdminError(400, "invalid_argument", `code must be one of ${REJECT_CODES.join(", ")}`, {
      field: "code",
    });
  }
  return code as RejectCode;
}
