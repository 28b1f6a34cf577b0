import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Registry } from "prom-client";
import { type Daemon, startDaemon } from "../../src/app/daemon.js";
import type { FeedTuning } from "../../src/app/feeds.js";
import { loadConfig } from "../../src/config/load.js";
import { LiveClock } from "../../src/core/live-clock.js";
import type { EngineEvent } from "../../src/engine/engine-events.js";
import type { MockExchange } from "../../src/mock/mock-exchange.js";
import type { MarketScenario, Scenario } from "../../src/mock/scenario/types.js";
import { createMetrics, type Metrics } from "../../src/observability/metrics.js";
import {
  daemonEnv,
  market,
  memoryLogger,
  SCENARIO,
  seedMarket,
  startMock,
  WALLET,
  waitFor,
} from "../integration/daemon/support.js";
import type { CollectingStream } from "../support/collecting-stream.js";
import { reconcilesAfter, recordStaleSpans } from "./bot-log.js";
import {
  checkInventory,
  checkNoDuplicates,
  checkNoOrphans,
  checkNoStaleQuotes,
  type StaleSpan,
  type Verdict,
} from "./invariants.js";
import { type LoopStall, watchLoopStall } from "./loop-stall.js";
import { recordVenue, type VenueLog } from "./venue-log.js";
import { startWireTap, type WireTap } from "./wire-tap.js";

export const ARG = market("arg-vs-fra-final-arg-win");
export const FRA = market("arg-vs-fra-final-fra-win");

/**
 * Time in this suite is REAL time, shortened by configuration, not a SimClock: the bot, the mock
 * exchange and the sockets between them run on their own event loops' I/O, which a test cannot
 * pause between simulated steps, so a SimClock would race real frames against jumps of simulated
 * time. Instead every period the invariants wait for is configured short:
 * - reconcile.intervalMs 1000 (the schema's minimum): "zero orphans 30 s after recovery" means
 *   "after the periodic reconcile that follows recovery" (30 s is the default interval); the checks
 *   wait for two reconciles completed after recovery (the first may have begun before it), i.e. at
 *   most ~2 s;
 * - reconcile.driftSettleMs 1000 (one such period): a redemption's drift moves a settled market's
 *   baseline at the next reconcile, as it would 30 s later with the defaults;
 * - exchange.requestTimeoutMs 1500: an unanswered placement turns ambiguous in 1.5 s, not 10 s;
 * - circuitBreaker.openMs 1000 and the error-rate cool-down 1000: a storm that trips them costs a
 *   second, not a minute (the behaviour is the same, only shorter).
 */
export const FAST_ENV: Readonly<Record<string, string>> = {
  MM_RECONCILE_INTERVAL_MS: "1000",
  MM_RECONCILE_DRIFT_SETTLE_MS: "1000",
  MM_EXCHANGE_REQUEST_TIMEOUT_MS: "1500",
  MM_CIRCUIT_BREAKER_OPEN_MS: "1000",
  MM_RISK: JSON.stringify({ errorRate: { coolDownMs: 1000 } }),
  MM_SHUTDOWN_TIMEOUT_MS: "3000",
};

/** Grace for pulling a quote off a book that turned stale: the cancel's round trip, with room for a loaded box. */
export const STALE_GRACE_MS = 1_500;

/**
 * Deadline of a wait for something the bot reaches on its own (quotes answered, pulled, back after a
 * recovery): generous, since on a loaded 2-core box (load average ~14) every hop of bot, tap and mock
 * shares one starved event loop. It bounds the wait only; how fast the bot must be is pinned where it
 * matters by the invariants (STALE_GRACE_MS) and by a scenario's own assertions.
 */
export const WAIT_MS = 12_000;

export interface WorldOptions {
  readonly markets?: readonly MarketScenario[];
  readonly scenario?: Scenario;
}

export interface DaemonRunOptions {
  readonly env?: Record<string, string>;
  readonly feedTuning?: FeedTuning;
}

export type RigOptions = WorldOptions & DaemonRunOptions;

/**
 * One scenario's exchange side: the mock (flow off, admin on), the wire tap in front of its HTTP
 * API, and the venue's order log. It outlives the bot runs of a scenario (crash and restart, key
 * replaced), so its recorders see every run.
 */
export interface World {
  readonly mock: MockExchange;
  readonly tap: WireTap;
  readonly venue: VenueLog;
  readonly scenario: Scenario;
  readonly markets: readonly MarketScenario[];
  /** Every token quoted (YES and NO of each market). */
  readonly tokens: readonly string[];
  /** POST /__admin/<action> over HTTP; resolves with the answer, throws unless 200. */
  admin(action: string, body?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** True when every token in `tokenIds` (default all) has at least `perToken` quotes resting. */
  quoting(tokenIds?: readonly string[], perToken?: number): boolean;
  /**
   * The MM_* environment of a bot run against this world (through the tap), `extra` on top. A CLI
   * run journals into the world's private folder (restarts restore from it, as on one host), never
   * into the user's default journal that other runs share.
   */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

/** One bot run in process on a World, with its recorders. */
export interface Rig extends World {
  readonly daemon: Daemon;
  /** The run's Prometheus metrics (its own registry), as `mm run` serves them on /metrics. */
  readonly metrics: Metrics;
  readonly logs: CollectingStream;
  /** The wallet's share balances when this run started, micro-shares (its inventory baseline). */
  readonly baseline: ReadonlyMap<string, bigint>;
  readonly events: readonly EngineEvent[];
  readonly spans: readonly StaleSpan[];
  readonly placeSent: readonly { tokenId: string; at: number }[];
  /** This process's event-loop stalls during the run (the stale-quote invariant's allowance). */
  readonly stall: LoopStall;
  /** Waits for `n` successful reconciles that complete after now (see reconcilesAfter). */
  reconciles(n: number, ms?: number): Promise<void>;
  /** Orphans, duplicates (every run of the world), inventory and stale quotes of this run, as of now. */
  verdicts(): Verdict[];
  /** Stops this run (idempotent); close() also closes the world. */
  stop(): Promise<void>;
}

/** Share balances of the paper wallet, tokenId → micro-shares. */
export function venuePositions(mock: MockExchange): Map<string, bigint> {
  return new Map(mock.context.venue.positions(WALLET).map((p) => [p.tokenId, p.balance]));
}

/** A World with each market seeded YES 0.50/0.60 (NO mirrored) by the other trader. */
export async function startWorld(opts: WorldOptions = {}): Promise<World> {
  const markets = opts.markets ?? [ARG];
  const scenario = opts.scenario ?? SCENARIO;
  const mock = await startMock(scenario);
  let tap: WireTap | undefined;
  try {
    for (const m of markets) seedMarket(mock, m, "0.50", "0.60");
    tap = await startWireTap(mock.httpUrl);
  } catch (err) {
    await mock.close();
    throw err;
  }
  const venue = recordVenue(mock, WALLET);
  const tokens = markets.flatMap((m) => [m.yesTokenId, m.noTokenId]);
  const wire = tap;
  const dir = await mkdtemp(join(tmpdir(), "mm-fault-")).catch(async (err: unknown) => {
    venue.stop();
    await wire.close();
    await mock.close();
    throw err;
  });
  return {
    mock,
    tap: wire,
    venue,
    scenario,
    markets,
    tokens,
    admin: (action, body = {}) => adminCall(mock, action, body),
    quoting: (tokenIds = tokens, perToken = 4) =>
      tokenIds.every((t) => venue.open().filter((o) => o.tokenId === t).length >= perToken),
    env: (extra = {}) =>
      daemonEnv(
        mock,
        markets.map((m) => m.slug),
        {
          ...FAST_ENV,
          MM_EXCHANGE_BASE_URL: wire.url,
          MM_JOURNAL_PATH: join(dir, "journal.sqlite"),
          ...extra,
        },
        scenario,
      ),
    close: async () => {
      venue.stop();
      await wire.close();
      await mock.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts the daemon in process on `world`, quoting its markets through the tap (WebSockets go
 * straight to the mock), with the recorders attached. Resolves once every token has four quotes and
 * the bot holds each of its orders answered (see answered()): a fault is injected on a known state.
 */
export async function runDaemon(world: World, opts: DaemonRunOptions = {}): Promise<Rig> {
  const baseline = venuePositions(world.mock);
  const events: EngineEvent[] = [];
  const placeSent: { tokenId: string; at: number }[] = [];
  const { logger, sink } = memoryLogger("info");
  // With metrics, as `mm run` and `mm paper` always are: the engine then trades through the
  // instrumented exchange port (a member that wrapper dropped once went unseen here).
  const metrics = createMetrics({ registry: new Registry(), clock: new LiveClock(), defaultMetrics: false });
  const daemon = await startDaemon(loadConfig({ env: world.env(opts.env) }), {
    logger,
    metrics,
    listener: (e) => {
      events.push(e);
      if (e.type === "place_sent") placeSent.push({ tokenId: e.tokenId, at: Date.now() });
    },
    ...(opts.feedTuning === undefined ? {} : { feedTuning: opts.feedTuning }),
  });
  const spans = recordStaleSpans(daemon, world.tokens);
  const stall: LoopStall = watchLoopStall();
  const stop = async () => {
    stall.stop();
    await daemon.stop("scenario over");
    metrics.close();
  };
  const rig: Rig = {
    ...world,
    daemon,
    metrics,
    logs: sink,
    baseline,
    events,
    spans,
    placeSent,
    stall,
    reconciles: (n, ms = 6_000) => reconcilesAfter(events, n, ms),
    verdicts: () => [
      checkNoOrphans(world.venue.open(), daemon.engine.liveOrders()),
      checkNoDuplicates(world.venue.orders.values(), world.tap.requests),
      checkInventory(world.tokens, baseline, (t) => daemon.engine.positionOf(t), venuePositions(world.mock)),
      checkNoStaleQuotes(
        spans,
        world.venue.orders.values(),
        placeSent,
        STALE_GRACE_MS,
        Date.now(),
        stall.within,
      ),
    ],
    stop,
    close: async () => {
      await stop();
      await world.close();
    },
  };
  try {
    await waitFor(
      () => rig.quoting() && answered(world, daemon),
      WAIT_MS,
      "the first quotes on every token, each answered",
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return rig;
}

/**
 * True when every order the bot tracks is open with its orderId (none placing, cancelling or
 * unknown) and every order of the wallet open on the mock is one of them. Why: on a loaded box the
 * first placements' answers can take longer than the 1.5 s request timeout, and the bot then holds
 * them unknown, with no orderId to cancel by, until a reconcile finds them (about a second later); a
 * fault injected meanwhile would test that race, not the fault.
 */
function answered(world: World, daemon: Daemon): boolean {
  const live = daemon.engine.liveOrders();
  if (!live.every((o) => o.state === "open" && o.orderId !== undefined)) return false;
  const ids = new Set(live.map((o) => o.orderId));
  return world.venue.open().every((o) => ids.has(o.orderId));
}

/** A World and one daemon run on it; close() ends both. */
export async function startRig(opts: RigOptions = {}): Promise<Rig> {
  const world = await startWorld(opts);
  try {
    return await runDaemon(world, opts);
  } catch (err) {
    await world.close();
    throw err;
  }
}

/** POST /__admin/<action> on the mock over real HTTP (loopback), as an operator or CI would. */
export async function adminCall(
  mock: MockExchange,
  action: string,
  body: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const res = await fetch(`${mock.httpUrl}/__admin/${action}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200)
    throw new Error(`/__admin/${action} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Resolves after `ms` of real time. */
export function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
