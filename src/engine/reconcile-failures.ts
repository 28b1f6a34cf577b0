import { monotonicNow } from "../core/clock.js";
import { MmError } from "../core/errors.js";
import { ExchangeError } from "../exchange/exchange-error.js";
import type { EngineCore } from "./engine-core.js";
import type { ReconcileReason } from "./engine-events.js";
import type { ReconcileFailure } from "./engine-reconcile.js";

/**
 * What kind of failure a reconcile met, for telling a new failure from a repeat: an exchange error's
 * code and route (a 401 `wallet_mismatch` on GET /api/me/positions), another mm error's code, else
 * the error's class name. Neither message nor request id: they differ at every repeat.
 * @example failureKind(new MmError("engine_start_failed", "…")) // "engine_start_failed"
 */
export function failureKind(err: unknown): string {
  if (err instanceof ExchangeError) return `${err.code} ${err.endpoint}`;
  if (err instanceof MmError) return err.code;
  if (err instanceof Error) return err.name;
  return typeof err;
}

/**
 * The log lines and events of failed reconciles. Every failure is reported (`reconcile_failed`:
 * mm_reconcile_runs_total{result="failed"} counts each run), but a failure that lasts is said at
 * warn once per kind (failureKind) while the streak lasts, its repeats at debug (`repeat`): the scheduler
 * retries it (backing off to the periodic pace), and a warning at each buried the log (a 401
 * refusing one read was warned every 2 s, ~1,800 lines an hour). The first run that succeeds after
 * a warned streak is said at info, with how many runs failed and for how long. Once the engine is
 * stopping, a failure is expected (the stop closes the client under a read): debug.
 */
export class ReconcileFailures {
  readonly #core: Pick<EngineCore, "clock" | "log" | "emit">;
  readonly #stopping: () => boolean;
  /** Kinds warned of in the current streak. */
  readonly #warned = new Set<string>();
  /** The current streak: failed runs and when the first failed (monotonic); undefined once one succeeds. */
  #streak: { failures: number; sinceMs: number } | undefined;

  constructor(core: Pick<EngineCore, "clock" | "log" | "emit">, stopping: () => boolean) {
    this.#core = core;
    this.#stopping = stopping;
  }

  /** A run triggered by `reason` failed with `err` (`failure`: the scheduler's streak and retry). */
  failed(reason: ReconcileReason, err: unknown, failure: ReconcileFailure): void {
    const { clock, log, emit } = this.#core;
    this.#streak ??= { failures: 0, sinceMs: monotonicNow(clock) };
    this.#streak.failures++;
    const kind = failureKind(err);
    const fields = { err, reason, kind, failures: failure.failures, retryInMs: failure.retryInMs };
    if (this.#stopping()) log.debug(fields, "reconcile failed");
    else if (this.#warned.has(kind)) log.debug({ ...fields, repeat: true }, "reconcile failed");
    else {
      this.#warned.add(kind);
      log.warn(fields, "reconcile failed");
    }
    emit({ type: "reconcile_failed", atMs: clock.now(), reason, error: err });
  }

  /** A run succeeded: the streak (if any) ends, said at info when it was warned of. */
  succeeded(reason: ReconcileReason): void {
    const streak = this.#streak;
    this.#streak = undefined;
    const warned = this.#warned.size > 0;
    this.#warned.clear();
    if (streak === undefined || !warned) return;
    this.#core.log.info(
      {
        reason,
        failures: streak.failures,
        failingForMs: monotonicNow(this.#core.clock) - streak.sinceMs,
      },
      "reconcile succeeded again",
    );
  }
}
