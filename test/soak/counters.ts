import type { EngineEvent } from "../../src/engine/engine-events.js";

/** Running totals of what the bot did, from its engine events, its log and the process. */
export interface SoakTotals {
  /** Placements written to the exchange (place_sent). */
  placesSent: number;
  placesAccepted: number;
  /** Placements the exchange refused, by code (post-only crosses, insufficient funds…). */
  placesRejected: number;
  /** Placements whose outcome was unknown (timeout after sending). */
  ambiguous: number;
  /** Cancels the exchange confirmed, or covered by a cancel-all. */
  cancels: number;
  /** Cancels that needed no request: the placement was dropped in the queue before it was sent. */
  cancelsNotSent: number;
  /**
   * Cancel intents reported failed or ambiguous (e.g. the order had just filled). Several intents for
   * one order share a request, so this counts more than the failed requests do.
   */
  cancelsFailed: number;
  fills: number;
  /** Fills found by a REST backfill rather than the stream. */
  fillsBackfilled: number;
  reconciles: number;
  reconcilesFailed: number;
  /** Log lines at error level or above. */
  loggedErrors: number;
  /** Log lines at warn level. */
  loggedWarnings: number;
  /** Metrics scrapes that did not answer 200. */
  scrapeFailures: number;
  /** 'uncaughtException' and 'unhandledRejection' seen by the process. */
  unhandled: number;
}

/**
 * The report's error count: exchange requests that did not succeed (refused, retryable, ambiguous or
 * broken, from the bot's own request metrics: see failedCalls), failed reconciles, log lines at error
 * level and failed scrapes. Everything here was handled; unhandled errors are counted apart.
 */
export function errorsOf(t: SoakTotals, calls: Record<string, number>): number {
  return failedCalls(calls) + t.reconcilesFailed + t.loggedErrors + t.scrapeFailures;
}

/** Requests whose outcome was neither `ok` nor `accepted`, from exchangeCalls' "METHOD /route outcome" keys. */
export function failedCalls(calls: Record<string, number>): number {
  let n = 0;
  for (const [key, count] of Object.entries(calls)) {
    if (key.startsWith("429 on ")) continue; // the same requests, counted again by operation
    if (!/ (ok|accepted)$/.test(key)) n += count;
  }
  return n;
}

/** Rejections by code, beyond the totals. */
export type RejectCodes = Map<string, number>;

/** Counts engine events, log lines and unhandled errors; read `totals` at any time. */
export class SoakCounters {
  readonly totals: SoakTotals = {
    placesSent: 0,
    placesAccepted: 0,
    placesRejected: 0,
    ambiguous: 0,
    cancels: 0,
    cancelsNotSent: 0,
    cancelsFailed: 0,
    fills: 0,
    fillsBackfilled: 0,
    reconciles: 0,
    reconcilesFailed: 0,
    loggedErrors: 0,
    loggedWarnings: 0,
    scrapeFailures: 0,
    unhandled: 0,
  };
  readonly rejectCodes: RejectCodes = new Map();
  /** The first few unhandled errors and error log lines, for the report. */
  readonly firstErrors: string[] = [];

  /** The engine listener (DaemonOptions.listener). */
  readonly onEvent = (e: EngineEvent): void => {
    const t = this.totals;
    switch (e.type) {
      case "place_sent":
        t.placesSent++;
        return;
      case "place_outcome":
        if (e.outcome === "accepted") t.placesAccepted++;
        else if (e.outcome === "rejected") {
          t.placesRejected++;
          const code = e.code ?? "unknown";
          this.rejectCodes.set(code, (this.rejectCodes.get(code) ?? 0) + 1);
        } else t.ambiguous++;
        return;
      case "cancel_outcome":
        if (e.outcome === "failed" || e.outcome === "ambiguous") t.cancelsFailed++;
        else if (e.outcome === "not_sent") t.cancelsNotSent++;
        else t.cancels++;
        return;
      case "fill":
        t.fills++;
        if (e.source === "backfill") t.fillsBackfilled++;
        return;
      case "reconcile":
        t.reconciles++;
        return;
      case "reconcile_failed":
        t.reconcilesFailed++;
        this.#note(`reconcile failed: ${String((e.error as Error)?.message ?? e.error)}`);
        return;
      default:
        return;
    }
  };

  /** A pino destination that keeps nothing but counts warnings and errors (pino levels 40, ≥ 50). */
  readonly logSink = {
    write: (line: string): void => {
      const at = line.indexOf('"level":');
      const level = at < 0 ? 0 : Number.parseInt(line.slice(at + 8, at + 11), 10);
      if (level >= 50) {
        this.totals.loggedErrors++;
        this.#note(line.trim().slice(0, 400));
      } else if (level >= 40) this.totals.loggedWarnings++;
    },
  };

  /**
   * Counts the process's uncaught exceptions and unhandled rejections instead of crashing, so the run
   * reports them; returns the uninstall.
   */
  watchProcess(): () => void {
    const onError = (err: unknown) => {
      this.totals.unhandled++;
      this.#note(`unhandled: ${String((err as Error)?.stack ?? err)}`);
    };
    process.on("uncaughtException", onError);
    process.on("unhandledRejection", onError);
    return () => {
      process.off("uncaughtException", onError);
      process.off("unhandledRejection", onError);
    };
  }

  #note(text: string): void {
    if (this.firstErrors.length < 10) this.firstErrors.push(text);
  }
}
