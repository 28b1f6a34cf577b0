import type { Clock } from "../core/clock.js";
import { ValidationError } from "../core/errors.js";
import type { BookEvent } from "./events.js";
import type { LevelBuffer } from "./level-buffer.js";
import type { LinkOf } from "./liveness.js";

/**
 * What a crossed book (best bid ≥ best ask) does to the tracker:
 * - "resync" (live, paper): the book is flagged not quotable, deltas are ignored and a snapshot is
 *   requested, retried with back-off while the snapshots come back crossed;
 * - "flag" (replay of a capture without a snapshot source, e.g. an imported Polymarket file): the
 *   book is flagged not quotable while crossed and a snapshot is requested once per crossing, but
 *   deltas keep being applied, so the book follows the capture and uncrosses when the capture does.
 */
export type CrossedPolicy = "resync" | "flag";

/** Exponential back-off of snapshot re-requests: base × factor^(attempt−1), capped at max. */
export interface BackoffConfig {
  readonly baseMs: number;
  readonly factor: number;
  readonly maxMs: number;
}

/**
 * Stall detection. A book is stale when EITHER its connection has shown no liveness (the caller's
 * onConnectionAlive, or onLinkAlive for the book's own link, e.g. from pong frames) for
 * `livenessTimeoutMs` — every book of that link, no snapshot request (reconnecting is the
 * gateway's job) — OR the connection is alive, the book has a rate
 * estimate (at least `minSamples` inter-arrival times) and its age exceeds
 * max(k × EWMA of its own inter-arrival times, floorMs): then a snapshot is requested. A quiet
 * market has a long typical interval (or no estimate yet), so it is never judged by a busy
 * market's yardstick; a snapshot that confirms the book unchanged feeds the silence into the
 * estimate, so a market that has genuinely gone quiet is probed less and less often.
 */
export interface StallConfig {
  readonly enabled: boolean;
  readonly k: number;
  readonly floorMs: number;
  /** EWMA weight of the newest inter-arrival time, in (0, 1]. */
  readonly alpha: number;
  readonly minSamples: number;
  /** How often books are checked (detection latency). */
  readonly checkEveryMs: number;
  readonly livenessTimeoutMs: number;
}

/** BookTracker settings. */
export interface TrackerConfig {
  readonly crossed: CrossedPolicy;
  /** How long to wait for a requested (or subscription) snapshot before asking again. */
  readonly snapshotTimeoutMs: number;
  readonly backoff: BackoffConfig;
  readonly stall: StallConfig;
}

/** Settings as a caller may give them: any subset. */
export interface TrackerOptions {
  readonly crossed?: CrossedPolicy;
  readonly snapshotTimeoutMs?: number;
  readonly backoff?: Partial<BackoffConfig>;
  readonly stall?: Partial<StallConfig>;
}

/**
 * Defaults. The stall numbers were checked against the real Polymarket capture in
 * shared/data (3,829 messages over 123 h, median gap 0.19 s, 99th percentile 28 s): with
 * k = 20, floor 60 s they raise 3 alarms over the whole capture, one of them its 67-hour hole.
 */
export const DEFAULT_TRACKER_CONFIG: TrackerConfig = {
  crossed: "resync",
  snapshotTimeoutMs: 10_000,
  backoff: { baseMs: 500, factor: 2, maxMs: 30_000 },
  stall: {
    enabled: true,
    k: 20,
    floorMs: 60_000,
    alpha: 0.1,
    minSamples: 20,
    checkEveryMs: 1_000,
    livenessTimeoutMs: 30_000,
  },
};

/**
 * Defaults overlaid with `opts`, validated (ValidationError `invalid_tracker_config`).
 * @example trackerConfig({ crossed: "flag", stall: { enabled: false } })
 */
export function trackerConfig(opts: TrackerOptions = {}): TrackerConfig {
  const d = DEFAULT_TRACKER_CONFIG;
  const cfg: TrackerConfig = {
    crossed: opts.crossed ?? d.crossed,
    snapshotTimeoutMs: opts.snapshotTimeoutMs ?? d.snapshotTimeoutMs,
    backoff: { ...d.backoff, ...opts.backoff },
    stall: { ...d.stall, ...opts.stall },
  };
  const bad = (field: string, rule: string): never => {
    throw new ValidationError("invalid_tracker_config", `tracker ${field} must be ${rule}`, { field });
  };
  if (cfg.crossed !== "resync" && cfg.crossed !== "flag") bad("crossed", '"resync" or "flag"');
  positive(cfg.snapshotTimeoutMs) || bad("snapshotTimeoutMs", "> 0");
  positive(cfg.backoff.baseMs) || bad("backoff.baseMs", "> 0");
  cfg.backoff.factor >= 1 || bad("backoff.factor", ">= 1");
  cfg.backoff.maxMs >= cfg.backoff.baseMs || bad("backoff.maxMs", ">= backoff.baseMs");
  positive(cfg.stall.k) || bad("stall.k", "> 0");
  cfg.stall.floorMs >= 0 || bad("stall.floorMs", ">= 0");
  (cfg.stall.alpha > 0 && cfg.stall.alpha <= 1) || bad("stall.alpha", "in (0, 1]");
  Number.isInteger(cfg.stall.minSamples) && cfg.stall.minSamples >= 1 ? 0 : bad("stall.minSamples", ">= 1");
  positive(cfg.stall.checkEveryMs) || bad("stall.checkEveryMs", "> 0");
  positive(cfg.stall.livenessTimeoutMs) || bad("stall.livenessTimeoutMs", "> 0");
  return cfg;
}

/** Delay before re-request number `attempt + 1` after `attempt` failed ones (attempt ≥ 1). */
export function backoffDelay(attempt: number, b: BackoffConfig): number {
  return Math.min(b.baseMs * b.factor ** (Math.max(1, attempt) - 1), b.maxMs);
}

function positive(v: number): boolean {
  return Number.isFinite(v) && v > 0;
}

/** How the tracker asks for a fresh book: the gateway sends get_book_snapshot; a replay may record it. */
export interface SnapshotPort {
  /**
   * Asks for a snapshot of `tokenId`; returns whether the request went out. False when nothing
   * was sent (the token's subscription is not live, e.g. its connection is down): the tracker then
   * counts no request and waits for the resubscribe's snapshot instead of timing out.
   */
  requestSnapshot(tokenId: string): boolean;
}

/** What a BookTracker needs. */
export interface BookTrackerOptions {
  readonly clock: Clock;
  readonly port: SnapshotPort;
  readonly config?: TrackerOptions;
  /**
   * The link (connection) each token's subscription lives on now, when books are spread over
   * several: each book is then judged by its own link's liveness (onLinkAlive). Without it the
   * tracker has one connection (onConnectionAlive), as in a replay.
   */
  readonly linkOf?: LinkOf;
  /**
   * The entries of a frame already parsed by whoever hands it over, or undefined to have the
   * tracker parse them (live and paper give none). A backtest's simulated exchange parses every
   * frame with the same entries.ts a feed latency before the tracker sees it: handing that result
   * on spares parsing the same price and size strings twice. Only a frame whose entries parsed
   * cleanly may be answered, and only with exactly what entries.ts made of that frame's lists.
   */
  readonly parsed?: (e: BookEvent) => LevelBuffer | undefined;
}
