import type { MmConfig } from "../config/types.js";
import type { Clock } from "../core/clock.js";
import type { TradingEngine } from "../engine/engine.js";
import type { StopCount } from "../engine/engine-api.js";
import type { ExchangeHttpClient } from "../exchange/client.js";
import type { ExchangeError } from "../exchange/exchange-error.js";
import {
  missingScope,
  publicReadScopeRefused,
  scopeMissing,
  scopeRefusalText,
} from "../exchange/scope-refusal.js";
import type { GatewayFatalError } from "../gateway/errors.js";
import type { Logger } from "../observability/logger.js";
import type { DaemonReporter } from "./daemon-log.js";
import type { Feeds } from "./feeds.js";
import type { DaemonJournal } from "./journal.js";
import { DAEMON_EXIT, type DaemonOutcome } from "./outcome.js";

/** What one run's stop path needs. */
export interface RunParts {
  readonly config: MmConfig;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly engine: TradingEngine;
  readonly client: ExchangeHttpClient;
  readonly reporter: DaemonReporter;
  /** Closed once the engine has stopped (its `stopped` event writes the last snapshot) and the gateways closed. */
  readonly journal: DaemonJournal | undefined;
  readonly onStopping: ((reason: string) => void) | undefined;
}

/**
 * The stop path of one daemon run: whoever asks (a signal, a fatal close), the engine cancels every
 * quote within 80% of shutdown.timeoutMs, then the gateways and the HTTP pool close; `done`
 * resolves once with the outcome (exit 0 only when nothing is left open; 3 after a fatal close).
 */
export class DaemonRun {
  feeds: Feeds | undefined;
  readonly done: Promise<DaemonOutcome>;
  readonly #p: RunParts;
  #resolve: (o: DaemonOutcome) => void = () => undefined;
  #stopping: Promise<DaemonOutcome> | undefined;
  #refusal: GatewayFatalError | ExchangeError | undefined;
  #abandoned = false;
  /** Public reads refused for a scope, warned of (publicReadScopeRefused). */
  readonly #publicRefusals = new Set<string>();

  constructor(parts: RunParts) {
    this.#p = parts;
    this.done = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  /**
   * A gateway refused the key for good: cancel what we can, then stop with exit code 3. Logged for
   * each gateway that closes, even once stopping (which gateways the exchange closed is news).
   */
  fatal(err: GatewayFatalError): void {
    const { code, gateway, closeCode } = err;
    this.#refused(
      err,
      code,
      { code, gateway, closeCode },
      `the exchange closed /ws/${gateway} for good (${code})`,
    );
  }

  /**
   * The REST API answered 401 (the key refused, as at start-up), or 403 `api_key_scope_missing`
   * (the key lacks a scope the request needs: a placement without orders:write): stop as for a
   * fatal close, exit 3, the stop's reason naming the scope and the request. Ignored once a stop has
   * begun: every request still in flight is answered alike. A scope refusal of one of the spec's
   * public reads (a market's record, the platform status) stops nothing: the spec needs no scope
   * there, and the run does without that read (publicReadScopeRefused); it is warned of once per
   * endpoint. (At start, the market reads refused so are made again without the key, and so are the
   * running market reads after such a start: marketsAtStart.)
   */
  unauthorized(err: ExchangeError): void {
    if (this.#stopping !== undefined || (this.#abandoned && this.#refusal !== undefined)) return;
    const { code, endpoint, httpStatus: status } = err;
    if (publicReadScopeRefused(err)) {
      this.#publicReadRefused(err);
      return;
    }
    if (scopeMissing(err)) {
      const requiredScope = missingScope(err);
      this.#refused(
        err,
        scopeRefusalText(err),
        { code, endpoint, status, requiredScope },
        `the API key lacks ${requiredScope ?? "a scope"}, which ${endpoint} needs (${code})`,
      );
      return;
    }
    this.#refused(
      err,
      code,
      { code, endpoint, status },
      `the exchange refused the API key (${code} on ${endpoint})`,
    );
  }

  /** A public read refused for a scope: warned of once per endpoint, nothing stopped. */
  #publicReadRefused(err: ExchangeError): void {
    const { code, endpoint, httpStatus: status } = err;
    if (this.#publicRefusals.has(endpoint)) return;
    this.#publicRefusals.add(endpoint);
    const requiredScope = missingScope(err);
    this.#p.logger.warn(
      { code, endpoint, status, requiredScope },
      `the exchange refused ${endpoint} for a scope the API key lacks (${code}${requiredScope === undefined ? "" : `: ${requiredScope}`}), though the spec makes it a public read: not stopping; that read fails until the key has the scope`,
    );
  }

  stop(reason: string): Promise<DaemonOutcome> {
    return this.#stop(reason, undefined);
  }

  /** Whether a stop has begun (requested, or a fatal close). */
  get stopping(): boolean {
    return this.#stopping !== undefined;
  }

  /**
   * The refusal (fatal close or REST 401) that began this run's stop, if one did: a start that
   * fails meanwhile throws it, whatever its own error (a gateway closed under it), so exit 3 holds.
   */
  get refusal(): GatewayFatalError | ExchangeError | undefined {
    return this.#refusal;
  }

  /**
   * The start failed and its catch tears down what it opened (daemon.ts): from now on a refusal is
   * only logged and kept, so the start's error becomes it (exit 3). A stop of its own would race
   * the catch, cancelling through a client it closes and ending the run row twice.
   */
  abandon(): void {
    this.#abandoned = true;
  }

  /**
   * The key refused for good (`err`; `code`: the stop's reason): logged with `fields`, then the stop
   * with exit code 3.
   */
  #refused(
    err: GatewayFatalError | ExchangeError,
    code: string,
    fields: Record<string, unknown>,
    what: string,
  ): void {
    if (this.#abandoned && this.#stopping === undefined) {
      this.#p.logger.error(fields, `${what} while a failed start closes`);
      this.#refusal ??= err;
      return;
    }
    this.#p.logger.error(fields, `${what}: cancelling what can still be cancelled and stopping`);
    if (this.#stopping === undefined) this.#refusal = err;
    void this.#stop(code, { exitCode: DAEMON_EXIT.fatal, reason: code });
  }

  #stop(reason: string, fixed: DaemonOutcome | undefined): Promise<DaemonOutcome> {
    const { config, clock, logger, engine, client, reporter, journal, onStopping } = this.#p;
    this.#stopping ??= (async () => {
      onStopping?.(reason);
      // The engine gets 80% of the budget; the rest is a deliberate reserve for what must follow
      // the cancels before the lifecycle's bound at shutdown.timeoutMs cuts the stop (exit 1,
      // "the stop overran"): closing the gateways (a WebSocket close handshake each), the journal's
      // stop row and the HTTP pool. README (When cancel-all does not work) says so.
      const budget = Math.max(100, Math.floor(config.shutdown.timeoutMs * 0.8));
      let open = -1;
      let left: StopCount | undefined;
      try {
        left = await engine.stop(reason, budget);
        open = left.openOrders;
      } catch (err) {
        logger.error({ err }, "stop: cancelling the quotes failed");
      }
      reporter.close();
      await this.feeds?.close().catch((err: unknown) => logger.warn({ err }, "closing the gateways failed"));
      // After the gateways: a fill still arriving while they close is journaled too.
      journal?.close();
      client.close();
      const outcome =
        (await withResting(fixed, left, journal)) ??
        (open === 0
          ? { exitCode: DAEMON_EXIT.ok, reason }
          : {
              exitCode: DAEMON_EXIT.failed,
              reason: open < 0 ? "the stop failed" : `${open} order(s) may still be open`,
            });
      logger.info({ ...outcome, atMs: clock.now() }, `stopped (${outcome.reason})`);
      this.#resolve(outcome);
      return outcome;
    })();
    return this.#stopping;
  }
}

/**
 * A refused key's outcome (`fixed`) with what its stop left resting: the engine's count (the
 * exchange's open-orders list, or its belief) and, when only believed, the journal's orders of
 * earlier runs that may rest too: those restored at the start, less those journaled closed since
 * (found gone after the start-up reconcile) and those the engine holds or held (adopted, or seen to
 * end, pruned since included: its own count has them). Unchanged when mm knows of none; undefined
 * for an ordinary stop.
 */
async function withResting(
  fixed: DaemonOutcome | undefined,
  left: StopCount | undefined,
  journal: DaemonJournal | undefined,
): Promise<DaemonOutcome | undefined> {
  if (fixed === undefined || left === undefined) return fixed;
  const believed = left.believed === true;
  let journaled = 0;
  if (believed && journal !== undefined) {
    // A gone check still reading (the stop came right after the start) is not waited for: none
    // counted closed, the alarm erring on the side of orders that may rest.
    const gone = await Promise.race([journal.goneOrders, Promise.resolve(new Set<string>())]);
    for (const id of journal.restore.orders.keys()) {
      if (!gone.has(id) && left.held?.has(id) !== true) journaled++;
    }
  }
  if (left.openOrders === 0 && journaled === 0) return fixed;
  return { ...fixed, resting: { open: left.openOrders, believed, journaled } };
}
