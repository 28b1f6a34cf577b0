import type { TimerId } from "../core/clock.js";
import type { EngineEvent } from "../engine/engine-events.js";
import type { TokenAccount } from "../execution/inventory-math.js";
import { AdoptedEnds } from "./adopted-ends.js";
import { sameAccount } from "./codec.js";
import { ForeignFills } from "./foreign-fills.js";
import { DAEMON_BUSY_TIMEOUT_MS, LockWait } from "./lock-wait.js";
import { PlacementAnswers } from "./placement-answers.js";
import type { JournalRecorderOptions, JournalSource } from "./recorder-options.js";
import { UnsentCounts } from "./unsent.js";
import type { AccountReason } from "./writer.js";

export type { JournalRecorderOptions, JournalSource } from "./recorder-options.js";

/** A failed write is logged at most this often (a full disk would otherwise flood the log). */
const ERROR_LOG_EVERY_MS = 10_000;
/**
 * Counts of unsent intents wait at most this long before they are written (also at each snapshot and
 * at stop): a crash loses at most these seconds of counts of requests that were never made.
 */
export const UNSENT_FLUSH_MS = 5_000;

/**
 * Writes the engine's events into the journal, synchronously, each as it happens, so that what the
 * engine did before a crash is on disk when the process dies:
 * - place_sent → the intent (before the request leaves: the listener runs before the send);
 *   place / cancel / cancel-all outcomes of requests made (a cancel's with why it was asked for); the answer found after the fact of a
 *   placement answered ambiguously (at a reconcile: `placements_answered`, or found live) or of an earlier run's placement sent without a
 *   definite answer (`placements_resolved`, at start): PlacementAnswers;
 * - place_dropped, and a cancel that needed no request (`not_sent`) → counted per UTC hour, market and
 *   reason (UnsentCounts), written every UNSENT_FLUSH_MS: nothing reached the exchange;
 * - fill → the fill (once per tradeId + orderId, whichever of WebSocket and backfill comes first) and
 *   the token's account after it; restored_fill (a fill on a token this run does not trade: an
 *   earlier run's order, from the start-up search or the stream, or another process's) → the same,
 *   from the journal's own account of that token, its `restore` row first (ForeignFills); fee → the
 *   fill's fee and the token's account after it (when it changed);
 * - kill_switch → the trip or re-arm of the drawdown kill switch (restore starts the next run tripped
 *   when the account's last one is a trip); drawdown (the armed switch's drawdown rose by 1% of the
 *   limit) → a PnL snapshot at once, which carries it to the next run; payout_reads_started → its
 *   row (the next run's day of payout reads goes on from it); market_settlement → the market's
 *   status and payouts (`mm paper` settles its fresh mock from them: paper-settlements.ts);
 *   market_slug → the market's new slug (the next start finds it by a slug it has left: market-slugs.ts);
 * - reconcile → the accounts it changed (fees, corrections); stopped → a last snapshot and the run's end;
 * - started, reconcile, stopped → an earlier run's order this run adopted that has ended since
 *   (AdoptedEnds) is journaled closed, so the journal's open orders follow the exchange's;
 * - every `snapshotIntervalMs`: the accounts whose figures or mark moved, and the PnL totals with
 *   the kill switch's drawdown (the next run starts with it used: restore.carriedDrawdown).
 * A failed write never reaches the engine: it is counted and logged (rate-limited; a kill-switch trip
 * also at once, since a restart would not know of it), and trading goes on, since the exchange, not
 * the journal, is the authority on orders and positions.
 * @example const rec = new JournalRecorder({ writer, run, clock, logger, snapshotIntervalMs: 60_000 });
 * const engine = createEngine({ …, listener: (e) => rec.onEvent(e) }); rec.attach(engine);
 */
export class JournalRecorder {
  readonly #o: JournalRecorderOptions;
  readonly #written = new Map<string, { account: TokenAccount; mark: number | undefined }>();
  #source: JournalSource | undefined;
  #timer: TimerId | undefined;
  readonly #unsent = new UnsentCounts();
  #unsentTimer: TimerId | undefined;
  #failures = 0;
  #lastErrorLogMs = Number.NEGATIVE_INFINITY;
  #closed = false;
  readonly #lock: LockWait;
  readonly #adopted: AdoptedEnds;
  readonly #foreign: ForeignFills;
  readonly #answers: PlacementAnswers;

  constructor(o: JournalRecorderOptions) {
    this.#o = o;
    this.#adopted = new AdoptedEnds(o.restoredOrders ?? new Map());
    this.#foreign = new ForeignFills(o.foreignAccounts ?? new Map());
    this.#answers = new PlacementAnswers(o.unanswered);
    this.#lock = new LockWait({
      target: o.writer,
      waitMs: o.busyTimeoutMs ?? DAEMON_BUSY_TIMEOUT_MS,
      clock: o.clock,
      logger: o.logger,
      path: o.path,
    });
    for (const [t, account] of o.restored ?? [])
      this.#written.set(t, { account, mark: o.restoredMarks?.get(t) });
  }

  /** Writes that failed so far. */
  get failures(): number {
    return this.#failures;
  }

  /** Gives the recorder the engine to read accounts from, and starts the periodic snapshots. */
  attach(source: JournalSource): void {
    this.#source = source;
    this.#arm();
  }

  /** The engine listener. Never throws. */
  onEvent(e: EngineEvent): void {
    if (this.#closed) return;
    try {
      if (this.#record(e)) this.#lock.succeeded();
    } catch (err) {
      this.#failed(err, e.type);
      // Past the rate limit: an unjournaled trip is what a restart would resume quoting from.
      if (e.type === "kill_switch" && e.action === "trip") {
        this.#o.logger.error(
          { err, drawdownMicro: String(e.drawdownMicro) },
          "kill switch trip not journaled: a restart would start with the switch armed, quoting again",
        );
      }
    }
  }

  /** Writes the accounts that changed and the PnL totals now (and the pending unsent counts). Never throws. */
  snapshot(reason: "snapshot" | "stop"): void {
    this.#flushUnsent();
    const source = this.#source;
    if (source === undefined || this.#closed) return;
    try {
      this.#o.writer.batch(() => this.#snapshot(source, reason));
      this.#lock.succeeded();
    } catch (err) {
      this.#failed(err, reason);
    }
  }

  /** Writes the pending unsent counts and stops the snapshots; later events are ignored. */
  close(): void {
    this.#flushUnsent();
    this.#closed = true;
    for (const t of [this.#timer, this.#unsentTimer]) if (t !== undefined) this.#o.clock.cancelTimer(t);
    this.#timer = undefined;
    this.#unsentTimer = undefined;
  }

  /** Writes the counts of unsent intents and cancels gathered so far; kept for later when it fails. */
  #flushUnsent(): void {
    if (this.#unsentTimer !== undefined) this.#o.clock.cancelTimer(this.#unsentTimer);
    this.#unsentTimer = undefined;
    if (this.#closed || !this.#unsent.pending) return;
    const rows = this.#unsent.drain();
    const { writer: w, run } = this.#o;
    try {
      w.batch(() => {
        for (const r of rows) w.unsent(run, r);
      });
      this.#lock.succeeded();
    } catch (err) {
      this.#unsent.putBack(rows);
      this.#failed(err, "unsent");
      this.#armUnsent();
    }
  }

  #countUnsent(op: "place" | "cancel", marketId: string, reason: string, atMs: number): void {
    this.#unsent.add(op, marketId, reason, atMs);
    this.#armUnsent();
  }

  #armUnsent(): void {
    if (this.#unsentTimer !== undefined || this.#closed) return;
    this.#unsentTimer = this.#o.clock.setTimer(UNSENT_FLUSH_MS, () => {
      this.#unsentTimer = undefined;
      this.#flushUnsent();
    });
  }

  /** Writes what `e` calls for; true when it wrote (committed) something. */
  #record(e: EngineEvent): boolean {
    const { writer: w, run } = this.#o;
    switch (e.type) {
      case "place_sent":
        if (e.order !== undefined) {
          w.intent(run, {
            clientOrderId: e.clientOrderId,
            tokenId: e.tokenId,
            ...e.order,
            sent: true,
            atMs: e.atMs,
          });
          return true;
        }
        return false;
      case "place_outcome":
        w.outcome(run, {
          op: "place",
          clientOrderId: e.intent.clientOrderId,
          marketId: e.intent.marketId,
          outcome: e.outcome,
          orderId: e.orderId,
          code: e.code,
          latencyMs: e.latencyMs,
          atMs: e.atMs,
        });
        if (e.outcome === "ambiguous") this.#answers.ambiguous(e.intent.clientOrderId, e.intent.marketId);
        return true;
      case "placements_resolved":
        this.#answers.resolved(w, run, e.atMs, e.placements);
        for (const p of e.placements)
          if (p.orderId !== undefined) this.#adopted.add(p.orderId, p.clientOrderId);
        return true;
      case "placements_answered":
        this.#answers.answered(w, run, e.atMs, e.placements);
        return true;
      case "place_dropped":
        this.#countUnsent("place", e.intent.marketId, e.reason, e.atMs);
        return false;
      case "cancel_outcome":
        // Its placement was dropped unsent or rejected (and that is journaled): nothing to cancel.
        if (e.outcome === "not_sent") {
          this.#countUnsent("cancel", "", "not_sent", e.atMs);
          return false;
        }
        w.outcome(run, {
          ...NO_ANSWER,
          op: "cancel",
          clientOrderId: e.clientOrderId,
          outcome: e.outcome,
          atMs: e.atMs,
          reason: e.reason,
        });
        return true;
      case "cancel_all_outcome":
        w.outcome(run, {
          ...NO_ANSWER,
          op: "cancel_all",
          marketId: e.marketId,
          outcome: e.outcome,
          atMs: e.atMs,
          reason: e.reason,
        });
        return true;
      case "fill":
        w.batch(() => {
          w.fill(run, e.fill, e.source);
          // Stamped with the fill's own time, so realised PnL lands on the day the trade happened.
          this.#account(e.fill.tsMs, "fill", e.fill.tokenId);
        });
        return true;
      case "restored_fill":
        // A token this run does not trade: the journal books it alone (ForeignFills); the engine
        // never applies, nor reports as `fill`, a fill on such a token.
        return this.#foreign.record(w, run, e.fill, e.fee, e.atMs);
      case "fee":
        // With the account it changed, in one commit: a fill with no fee row is then journaled
        // without its fee everywhere, which is what restore relies on (JournalRestore.feePending).
        w.batch(() => {
          w.fee(e.fill, e.fee, e.atMs);
          const source = this.#source;
          const t = e.fill.tokenId;
          if (source !== undefined)
            this.#writeIfChanged(e.atMs, "reconcile", t, source.account(t), undefined);
        });
        return true;
      case "drawdown": {
        // At once, as a PnL snapshot: the next run carries the drawdown from the newest one, and a
        // crash before the periodic snapshot must not hand it the limit again.
        const source = this.#source;
        if (source === undefined) return false;
        w.batch(() => this.#snapshot(source, "snapshot"));
        return true;
      }
      case "kill_switch":
        // At once: a crash right after a trip must still start the next run tripped.
        w.killSwitch(run, e);
        return true;
      case "payout_reads_started":
        w.payoutReadsStarted(run, e.marketId, e.atMs);
        return true;
      case "market_settlement":
        w.settlement(run, e);
        return true;
      case "market_slug":
        w.marketSlug(run, e);
        return true;
      case "started":
        // The start-up reconcile has adopted what it would (and searched for fills made while down).
        this.#adopted.watch(this.#source);
        this.#foreign.searchOver();
        return false;
      case "reconcile": {
        const source = this.#source;
        if (source === undefined) return false;
        w.batch(() => {
          for (const { tokenId, account: a, markMicro } of source.accounts())
            this.#writeIfChanged(
              e.atMs,
              "reconcile",
              tokenId,
              a,
              a.sizeMicro === 0n ? undefined : markMicro,
              false,
            );
          this.#adopted.closeEnded(source, w, run, e.atMs);
          this.#answers.bindLive(source, w, run, e.atMs);
        });
        // Often nothing changed: an empty transaction proves nothing about the lock.
        return false;
      }
      case "stopped":
        // The stop's cancel-all has ended what it cancelled: journaled closed before the run's end.
        if (this.#source !== undefined) this.#adopted.closeEnded(this.#source, w, run, e.atMs);
        this.snapshot("stop");
        w.endRun(run, e.atMs, e.reason, e.openOrders);
        return true;
      default:
        return false;
    }
  }

  #account(atMs: number, reason: AccountReason, tokenId: string): void {
    const source = this.#source;
    if (source === undefined) return;
    const account = source.account(tokenId);
    // The engine's mark now: the last one written may be hours old (a flat token's is not kept up).
    const mark = source.markOf?.(tokenId) ?? this.#written.get(tokenId)?.mark;
    this.#o.writer.account(this.#o.run, atMs, reason, tokenId, account, mark);
    this.#written.set(tokenId, { account, mark });
  }

  /**
   * Writes a token's account when it differs from the last one written, or (`markMoves`) when its
   * mark, when given, does. The row carries the mark given, else the last one written.
   */
  #writeIfChanged(
    atMs: number,
    reason: AccountReason,
    tokenId: string,
    account: TokenAccount,
    mark: number | undefined,
    markMoves = true,
  ): void {
    const last = this.#written.get(tokenId);
    const keptMark = mark ?? last?.mark;
    const same = last !== undefined && sameAccount(last.account, account);
    if (same && (!markMoves || last.mark === keptMark)) return;
    this.#o.writer.account(this.#o.run, atMs, reason, tokenId, account, keptMark);
    this.#written.set(tokenId, { account, mark: keptMark });
  }

  #snapshot(source: JournalSource, reason: "snapshot" | "stop"): void {
    const at = this.#o.clock.now();
    let realised = 0n;
    let fees = 0n;
    let unrealised = 0n;
    for (const { tokenId, account: a, markMicro } of source.accounts()) {
      realised += a.realisedPico;
      fees += a.feesPico;
      if (markMicro !== undefined && a.sizeMicro !== 0n)
        unrealised += a.sizeMicro * BigInt(markMicro) - a.costPico;
      // A flat token's mark says nothing about PnL: keep its row count down.
      this.#writeIfChanged(at, reason, tokenId, a, a.sizeMicro === 0n ? undefined : markMicro);
    }
    const { pnlMicro, openOrders, drawdownMicro } = source.status();
    this.#o.writer.pnl(this.#o.run, {
      atMs: at,
      reason,
      pnlMicro,
      realisedPico: realised,
      feesPico: fees,
      unrealisedPico: unrealised,
      openOrders,
      drawdownMicro,
    });
  }

  #arm(): void {
    const every = this.#o.snapshotIntervalMs;
    if (every <= 0 || this.#closed) return;
    this.#timer = this.#o.clock.setTimer(every, () => {
      this.#timer = undefined;
      this.snapshot("snapshot");
      this.#arm();
    });
  }

  #failed(err: unknown, what: string): void {
    this.#failures++;
    this.#lock.failed(err);
    const now = this.#o.clock.now();
    if (now - this.#lastErrorLogMs < ERROR_LOG_EVERY_MS) return;
    this.#lastErrorLogMs = now;
    this.#o.logger.error(
      { err, event: what, failures: this.#failures },
      "journal write failed: trading goes on, but this history is not on disk",
    );
  }
}

const NO_ANSWER = {
  clientOrderId: undefined,
  marketId: undefined,
  orderId: undefined,
  code: undefined,
  latencyMs: undefined,
};
