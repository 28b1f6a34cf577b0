import { devSigningDomainWarning } from "../config/dev-signing-domain.js";
import { requireApiKey } from "../config/secrets.js";
import type { MmConfig } from "../config/types.js";
import type { Clock } from "../core/clock.js";
import { MmError } from "../core/errors.js";
import { LiveClock } from "../core/live-clock.js";
import { createEngine, type TradingEngine } from "../engine/engine.js";
import type { EngineEvent } from "../engine/engine-events.js";
import { HttpExchange } from "../engine/http-exchange.js";
import { intentSigner } from "../engine/intent-signer.js";
import { renewLeadMs } from "../engine/order-renewal.js";
import { SignedOrders } from "../engine/signature-check.js";
import type { ExchangeHttpClient } from "../exchange/client.js";
import { ClockSkewWatch } from "../exchange/clock-skew.js";
import type { OrderQueueMetrics } from "../execution/order-queue-types.js";
import { instrumentExchange } from "../observability/instrument-exchange.js";
import type { Logger } from "../observability/logger.js";
import type { Metrics } from "../observability/metrics.js";
import { parseRiskConfig } from "../risk/config.js";
import { RiskGuard } from "../risk/guard.js";
import { DaemonReporter } from "./daemon-log.js";
import { DaemonRun } from "./daemon-run.js";
import { exchangeClient, keylessClient, userWalletOf } from "./exchange.js";
import { Feeds, type FeedTuning } from "./feeds.js";
import { type DaemonJournal, journalAccount, openDaemonJournal } from "./journal.js";
import type { JournalSettings } from "./journal-settings.js";
import { journaledSlugs } from "./journaled-slugs.js";
import type { QuotedMarkets } from "./markets.js";
import { withExpiry } from "./order-expiry.js";
import { type DaemonOutcome, refusedStart } from "./outcome.js";
import { actOnSignerWallet, checkSignerWallet } from "./signer-wallet.js";
import { claimStart, type StartClaim } from "./start-claim.js";
import { engineStartError } from "./start-errors.js";
import { marketsAtStart } from "./start-markets.js";
import { requireStartSettings } from "./start-settings.js";

export interface DaemonOptions {
  readonly logger: Logger;
  /** Default: the wall clock. */
  readonly clock?: Clock;
  /** Receives every engine event after the daemon's own logging (metrics, tests, benchmarks). */
  readonly listener?: (event: EngineEvent) => void;
  /** Every raw /ws/market push with its receive time (latency probes). */
  readonly onMarketFrame?: (frame: Record<string, unknown>, recvTs: number) => void;
  /** Told when the daemon begins to stop, whoever asked (the lifecycle bounds the stop from then). */
  readonly onStopping?: (reason: string) => void;
  /**
   * Aborted when a stop is requested while the daemon starts (SIGTERM during a slow start-up): the
   * engine is not started, or stops where its start has got to, so nothing is quoted after the
   * request; the caller then stops the daemon it gets.
   */
  readonly stopRequested?: AbortSignal;
  /** Order-queue metric hooks (depth, waits, 429s, shedding). */
  readonly queueMetrics?: OrderQueueMetrics;
  /** Prometheus metrics to feed: exchange calls, engine events, books, gateways, rate limits. */
  readonly metrics?: Metrics;
  /** BookTracker timings (stall detector, snapshot timeout); default the live ones (tests shorten them). */
  readonly feedTuning?: FeedTuning;
  /**
   * The journal to restore from and record into (runJournalSettings / paperJournalSettings); none
   * when absent. The daemon opens it, and closes it once stopped.
   */
  readonly journal?: JournalSettings;
  /**
   * The start's claim (claimStart on `journal`), when the caller took it before: the daemon owns it
   * from here, and releases its lock when the start fails. Default: taken here, before any request.
   */
  readonly claim?: StartClaim;
  /**
   * The rate budget's arrival-jitter allowance, ms (RateBudgetOptions.marginMs; default 50 ms, the
   * network's spread): how much later than our send the exchange may count a request. Paper's is
   * PAPER_RATE_MARGIN_MS (its mock counts in this event loop).
   */
  readonly rateMarginMs?: number;
}

/** A running daemon. */
export interface Daemon {
  readonly engine: TradingEngine;
  readonly markets: QuotedMarkets;
  /** Session tag of this run's clientOrderIds. */
  readonly session: string;
  /** The gateways: `feeds.market.tracker` holds every book and its state (readiness, metrics). */
  readonly feeds: Feeds;
  /** The HTTP client (rate-limit state, breaker, server clock). */
  readonly client: ExchangeHttpClient;
  /**
   * The open journal (its file, this run's id, what it restored, and when the restored orders found
   * gone from the exchange are journaled closed), when one was configured.
   */
  readonly journal: Pick<DaemonJournal, "path" | "run" | "restore" | "goneClosed"> | undefined;
  /**
   * Stops quoting, cancels every quote (within shutdown.timeoutMs) and closes every connection.
   * Idempotent; resolves with the outcome (exit code 0 when nothing is left open).
   */
  stop(reason: string): Promise<DaemonOutcome>;
  /** Resolves once the daemon has stopped, on request or because the exchange refused the key. */
  readonly done: Promise<DaemonOutcome>;
}

/**
 * Starts the trading daemon against the configured exchange: HTTP client (keep-alive), order
 * builder over the wallet key, the selected markets' tokens, gateway feeds (books, lifecycle,
 * platform status, own fills and orders), the risk guard and the engine; subscribes, then starts
 * the engine (start-up reconcile: cancel or adopt the wallet's open orders). A gateway closing for
 * good (4401 revoked/expired/suspended, 1008) stops the daemon: it cancels what it still can and
 * `done` resolves with exit code 3 naming the reason.
 * Throws ConfigError (missing secrets, no or unknown markets, another daemon of the account live on
 * the journal: refused before any request, see lockDaemonJournal; a private key of another wallet
 * than the API key's, before the journal opens: checkSignerWallet), StartReadError when the markets or
 * a later start-up read (positions, open orders, the start-up reconcile's) cannot be read (it names
 * exchange.baseUrl and the URL read), StartStoppedError when a stop was requested before or during
 * the market reads or the key's wallet read (nothing opened), the exchange's error when a start-up
 * call is refused with 401 (it names the key's problem), or the gateway's fatal error; everything
 * opened is closed first, the journal's run ended with reason `start failed: <code>` (when such a
 * refusal began the run's own stop meanwhile, by that stop, which journals it: the refusal is then
 * what is thrown, once it has ended, as a RefusedStartError carrying the orders that stop left
 * resting when it left any).
 * @example
 * const d = await startDaemon(config, { logger });
 * process.once("SIGTERM", () => void d.stop("SIGTERM"));
 * const { exitCode } = await d.done;
 */
export async function startDaemon(config: MmConfig, opts: DaemonOptions): Promise<Daemon> {
  const clock = opts.clock ?? new LiveClock();
  const logger = opts.logger;
  requireStartSettings(config);
  const devDomain = devSigningDomainWarning(config);
  if (devDomain !== undefined) logger.warn({ settings: devDomain.settings }, devDomain.message);
  const apiKey = requireApiKey(config);
  // Before any request: a second daemon on this account and journal is refused untouched (exit 2).
  // `mm run` takes the claim earlier, before its metrics server, and hands it over.
  const { builder, session, lock } = opts.claim ?? claimStart(config, opts.journal, clock);
  const client = releasingOnThrow(() => exchangeClient(config, clock, logger), lock);
  // From the first answer on (the market reads): a host clock seconds off is told, once a crossing.
  const skew = new ClockSkewWatch(logger.child({ component: "exchange" }));
  client.serverClock.onSample((offsetMs) => skew.check(offsetMs));
  let feeds: Feeds | undefined;
  let journal: DaemonJournal | undefined;
  let daemonRun: DaemonRun | undefined;
  let built: TradingEngine | undefined;
  let keyless: ExchangeHttpClient | undefined;
  try {
    // A stop requested during these reads cuts them: StartStoppedError, nothing opened yet. Read
    // without the key when the exchange refuses them to it for a scope (they are public reads); the
    // running market reads then go keyless too (the key would be refused there all run).
    // A configured slug that is a 404 may be a market an earlier run saw take a new slug, and one
    // found may be another market's than the one traded under it before: the journal knows
    // (journaledSlugs, read-only, before the run's open).
    const account = journalAccount(config.exchange.baseUrl, builder.maker);
    const start = await marketsAtStart(
      client,
      config,
      logger,
      opts.stopRequested,
      () => keylessClient(config, clock, logger),
      journaledSlugs(opts.journal, account),
    );
    const markets = start.markets;
    keyless = start.keyless;
    // Is the signing key the API key's wallet? Before the journal opens (a wrong key would start a
    // new account there) and before any order is sent; after the market reads, which name a wrong
    // exchange.baseUrl first. A stop requested meanwhile ends the start as one during the market
    // reads does (StartStoppedError, nothing opened): it must not journal an empty run.
    actOnSignerWallet(await checkSignerWallet(client.withdrawals, config, opts.stopRequested), logger);
    const reporter = new DaemonReporter(logger, markets, clock);
    journal =
      opts.journal === undefined
        ? undefined
        : openDaemonJournal(opts.journal, {
            account,
            session,
            tokens: markets.tokens.map((t) => ({ ...t, slug: markets.slugOf(t.marketId) })),
            clock,
            logger: logger.child({ component: "journal" }),
            ...(lock === undefined ? {} : { lock }),
            ...(markets.slugsTaken === undefined ? {} : { slugsTaken: markets.slugsTaken }),
          });
    const recorder = journal?.recorder;
    const exchange =
      opts.metrics === undefined
        ? new HttpExchange(client, keyless)
        : instrumentExchange(new HttpExchange(client, keyless), opts.metrics);
    // Each order as signed, to compare a bad_signature's platform_canonical_struct with.
    const signedOrders = new SignedOrders();
    const engine = createEngine({
      clock,
      exchange,
      // Expiries on the exchange's clock, which judges them (order-expiry.ts).
      sign: intentSigner(
        withExpiry(builder, config.signing.orderExpirySeconds, () => client.serverClock.serverNow()),
        markets.tokens,
        { signed: signedOrders },
      ),
      signedOrders,
      markets: markets.tokens,
      strategyFor: (m) => markets.strategyFor(m),
      risk: new RiskGuard(parseRiskConfig(config.risk)),
      logger: logger.child({ component: "engine" }),
      options: {
        session,
        tolerance: {
          priceTicks: config.engine.priceToleranceTicks,
          sizeFraction: config.engine.sizeTolerance,
        },
        startupPolicy: config.reconcile.onStart,
        reconcileIntervalMs: config.reconcile.intervalMs,
        reconcileDriftSettleMs: config.reconcile.driftSettleMs,
        marketRecheckMs: config.engine.marketRecheckMs,
        requoteIntervalMs: config.engine.requoteIntervalMs,
        strategySlowMs: config.engine.strategySlowMs,
        // Quotes are replaced before the expiry the signer gives them (order-renewal.ts).
        orderExpirySeconds: config.signing.orderExpirySeconds,
        orderRenewLeadMs: renewLeadMs(config.exchange.requestTimeoutMs),
        rateLimitPerMin: config.queue.rateLimitPerMin,
        queue: {
          concurrency: config.queue.concurrency,
          ipLimitFactor: config.queue.ipLimitFactor,
          ...(opts.rateMarginMs === undefined ? {} : { marginMs: opts.rateMarginMs }),
        },
        ...(journal === undefined ? {} : { restore: journal.restore }),
      },
      listener: (e) => {
        // First: the intent of a placement must be on disk before anything else can fail.
        recorder?.onEvent(e);
        reporter.onEvent(e);
        if (e.type === "market_settled") feeds?.retireBooks(e.marketId, e.tokenIds);
        opts.metrics?.listener(e);
        opts.listener?.(e);
      },
      rateLimitState: (endpoint) => client.rateLimit(endpoint),
      ...queueMetricsOf(opts),
    });
    built = engine;
    recorder?.attach(engine);
    const run = new DaemonRun({
      config,
      clock,
      logger,
      engine,
      client,
      reporter,
      journal,
      onStopping: opts.onStopping,
    });
    daemonRun = run;
    // Its market reads go on until the run's stop has closed the rest.
    void run.done.then(() => keyless?.close());
    feeds = new Feeds({
      wsUrl: config.exchange.wsUrl,
      subscriptionCheckMs: config.exchange.wsSubscriptionCheckMs,
      apiKey: apiKey.value,
      userWallet: userWalletOf(config),
      clock,
      logger: logger.child({ component: "gateway" }),
      markets,
      engine,
      onFatal: (err) => run.fatal(err),
      ...(opts.onMarketFrame === undefined ? {} : { onMarketFrame: opts.onMarketFrame }),
      ...(opts.feedTuning === undefined ? {} : { tuning: opts.feedTuning }),
    });
    run.feeds = feeds;
    // A key refused over REST while running (revoked, expired, suspended, or lacking a scope such as
    // orders:write) is as final as at start.
    client.onUnauthorized((err) => run.unauthorized(err));
    if (opts.metrics !== undefined) watch(opts.metrics, { markets, feeds, client, engine });
    reporter.announce(config, session, builder.maker);
    // A stop requested while the gateways connect (one unreachable reconnects for ever) closes them
    // and ends their start: startEngine then sees the request and stops the run, engine unstarted.
    await feeds.start(opts.stopRequested);
    // A start-up read that fails (a 200 that is not the exchange's answer, an outage) is named as
    // the markets read's failure is: exchange.baseUrl, the URL read and the cause, never unnamed.
    await startEngine(engine, run, opts.stopRequested, logger).catch((err: unknown) => {
      throw engineStartError(err, config.exchange.baseUrl);
    });
    // Not for a daemon already stopping (a fatal close or a request during start): nothing would
    // clear the status line's timer again.
    if (!run.stopping) reporter.started(engine);
    // Restored orders the exchange no longer holds open are journaled closed, in the background: a
    // start-up (and a stop requested meanwhile) never waits for these reads.
    if (!run.stopping) void journal?.closeGoneOrders(exchange);
    return {
      engine,
      markets,
      session,
      feeds,
      client,
      journal,
      stop: (reason) => run.stop(reason),
      done: run.done,
    };
  } catch (err) {
    if (daemonRun?.stopping === true) {
      // The run's own stop (a fatal close or a refused key during the start, a stop request) is
      // under way: it cancels, journals the stop, then closes the gateways, journal and client
      // itself. Closing them here would cut its reads and leave the run row without its stop.
      const { resting } = await daemonRun.done;
      // Orders it could not cancel (an earlier run's, with a key lacking orders:write) are told.
      throw refusedStart(daemonRun.refusal ?? err, resting);
    }
    // A key refused while the feeds close (a request of the start answered 401 late) is kept, not
    // stopped on: this catch closes everything, and the refusal is what the start failed with.
    daemonRun?.abandon();
    await feeds?.close().catch(() => undefined);
    const failure = daemonRun?.refusal ?? err;
    // Nothing stopped this run, so no `stopped` event ends its row: without its end it would read as
    // a killed run. The start quoted nothing, but it may hold orders it adopted: counted as open.
    journal?.end(startFailedReason(failure), built?.status().openOrders ?? 0);
    // The journal's close released it; a start that failed before the journal opened releases it here.
    lock?.release();
    client.close();
    keyless?.close();
    throw failure;
  }
}

/**
 * `build()`'s result; when it throws, `lock` is released first: taken before the start's try, it
 * would otherwise stay held for the rest of the process (an embedding program, a test, starting
 * again on the same journal would be refused as a second daemon on the account).
 */
function releasingOnThrow<T>(build: () => T, lock: { release(): void } | undefined): T {
  try {
    return build();
  } catch (err) {
    lock?.release();
    throw err;
  }
}

/** The journaled stop reason of a start that failed with `err`: its stable code, else its class. */
function startFailedReason(err: unknown): string {
  const code = err instanceof MmError ? err.code : err instanceof Error ? err.name : "error";
  return `start failed: ${code}`;
}

/** The queue hooks: the explicit ones, else the metrics' own. */
function queueMetricsOf(opts: DaemonOptions): { queueMetrics?: OrderQueueMetrics } {
  const q = opts.queueMetrics ?? opts.metrics?.queueMetrics;
  return q === undefined ? {} : { queueMetrics: q };
}

/**
 * Points the metrics at everything they sample: markets, books, both gateways, rate limits, the
 * exchange's clock, the engine.
 */
function watch(
  metrics: Metrics,
  parts: { markets: QuotedMarkets; feeds: Feeds; client: ExchangeHttpClient; engine: TradingEngine },
): void {
  metrics.registerMarkets(parts.markets.tokens, (id) => parts.markets.slugOf(id));
  metrics.watchBookTracker(parts.feeds.market.tracker);
  metrics.watchGateway("market", parts.feeds.market.client);
  metrics.watchGateway("user", parts.feeds.user);
  metrics.watchRateLimits(parts.client.rateLimits);
  metrics.watchServerClock(parts.client.serverClock);
  metrics.watchRateBudget(parts.engine.rateBudget);
  metrics.watchEngine(parts.engine);
}

// Starts the engine, unless a stop was requested already: then the run stops at once, the engine
// never started. A request during its start stops the run there (engine.start then ends without
// enabling quoting), and the daemon is handed over at once: the start-up reads still in flight (the
// baseline, the start-up reconcile, slow on a slow exchange) must not hold the stop's outcome past
// shutdown.timeoutMs. The abandoned start ends on its own; its error, once stopping, is only logged.
async function startEngine(
  engine: TradingEngine,
  run: DaemonRun,
  stopRequested: AbortSignal | undefined,
  logger: Logger,
): Promise<void> {
  const onRequest = () => void run.stop(String(stopRequested?.reason ?? "stop requested"));
  if (stopRequested?.aborted === true) {
    onRequest();
    return;
  }
  let onAbort = onRequest;
  const requested = new Promise<"requested">((resolve) => {
    onAbort = () => {
      onRequest();
      resolve("requested");
    };
  });
  stopRequested?.addEventListener("abort", onAbort, { once: true });
  const starting = engine.start();
  try {
    const first = await Promise.race([starting.then(() => "started" as const), requested]);
    if (first === "requested") {
      starting.catch((err: unknown) =>
        logger.debug({ err }, "the engine's start, cut short by the stop, failed"),
      );
    }
  } finally {
    stopRequested?.removeEventListener("abort", onAbort);
  }
}
