import type { Database, Statement } from "better-sqlite3";
import type { Fill } from "../core/trading.js";
import type { EngineEvent } from "../engine/engine-events.js";
import type { CancelReason } from "../execution/intents.js";
import type { FeeAmount, TokenAccount } from "../execution/inventory-math.js";
import type { NewOrder } from "../execution/order-store.js";
import { accountColumns, feeValuePico } from "./codec.js";
import { CLOSED_OUTCOME, ENDING_CANCELS } from "./may-rest.js";

/**
 * A time as whole milliseconds for an INTEGER column. Fills are floored where they enter the engine;
 * this is the safety net, so that a fractional time from any other path can never make a STRICT
 * table refuse a money row (the whole batch, fill and account, would roll back).
 */
function wholeMs(ms: number): number {
  return Math.floor(ms);
}

/** A token the run may trade, for readable reports (slug) and for market totals. */
export interface JournalToken {
  readonly tokenId: string;
  readonly marketId: string;
  readonly slug: string | undefined;
  readonly outcome: string;
}

/** An order intent: what the engine asked the exchange for (the order store's terms), under its clientOrderId. */
export interface IntentRecord extends NewOrder {
  /**
   * True when it was written to the exchange: the only intents the recorder journals. False rows are
   * in files written before schema 3, which journaled intents the queue dropped unsent (now counted
   * in `unsent`).
   */
  readonly sent: boolean;
  readonly atMs: number;
}

/** The answer to a send: a placement, a cancel or a cancel-all. */
export interface OutcomeRecord {
  readonly op: "place" | "cancel" | "cancel_all";
  readonly clientOrderId: string | undefined;
  readonly marketId: string | undefined;
  /**
   * accepted | rejected | ambiguous (placements), done | covered | failed | ambiguous (cancels), and
   * `closed` (a cancel row with no request: a later start found an earlier run's order no longer open,
   * gone-orders.ts). Files written before schema 3 also hold `dropped` placements and `not_sent` cancels.
   */
  readonly outcome: string;
  readonly orderId: string | undefined;
  /**
   * The exchange's code of a reject or failure (before schema 3: also why a placement was dropped);
   * for `closed`, the order's final status on the exchange; for an `accepted` placement journaled
   * after the fact, `resolved`, and `never_placed` for one found never placed (placement-answers.ts).
   */
  readonly code: string | undefined;
  readonly latencyMs: number | undefined;
  readonly atMs: number;
  /** Why a cancel or cancel-all was asked for (intents.ts CancelReason); absent for placements. */
  readonly reason?: CancelReason | undefined;
}

export type AccountReason = "restore" | "fill" | "reconcile" | "snapshot" | "stop";

/**
 * How many intents (placements) or cancels of one market never needed a request, for one reason,
 * within one UTC hour of a run: the queue superseded, shed or cancelled them before sending.
 */
export interface UnsentRecord {
  readonly hourMs: number;
  readonly op: "place" | "cancel";
  /** "" when the event does not name it (a cancel that needed no request). */
  readonly marketId: string;
  readonly reason: string;
  readonly n: number;
  readonly firstAtMs: number;
  readonly lastAtMs: number;
}

/** Totals of one PnL snapshot. */
export interface PnlRecord {
  readonly atMs: number;
  readonly reason: "snapshot" | "stop";
  readonly pnlMicro: bigint;
  readonly realisedPico: bigint;
  readonly feesPico: bigint;
  readonly unrealisedPico: bigint;
  readonly openOrders: number;
  /** The kill switch's peak − PnL (USDC micro-units); absent when the source does not say. */
  readonly drawdownMicro?: bigint | undefined;
}

/** A trip or a re-arm of the drawdown kill switch (USDC micro-units): the engine's event, as journaled. */
export type KillSwitchRecord = Omit<Extract<EngineEvent, { type: "kill_switch" }>, "type">;

/** A market's settlement (status, payouts once known): the engine's event, as journaled. */
export type SettlementRecord = Omit<Extract<EngineEvent, { type: "market_settlement" }>, "type">;

/** A traded market's new slug, learned from the market list: the engine's event, as journaled. */
export type MarketSlugRecord = Omit<Extract<EngineEvent, { type: "market_slug" }>, "type">;

/** SQLite's `synchronous` level FULL (NORMAL is 1). */
const FULL = 2;

/**
 * Every write into the journal, as prepared statements. Each call is its own transaction (SQLite
 * autocommit), so what a call wrote is durable when it returns; `batch` groups several calls into
 * one. Amounts are bound as bigint/integers, pico figures as decimal text.
 * @example const w = new JournalWriter(db); const run = w.beginRun({ account, session, atMs, tokens });
 */
export class JournalWriter {
  readonly #db: Database;
  readonly #s: Record<
    | "run"
    | "token"
    | "intent"
    | "outcome"
    | "closed"
    | "unsent"
    | "fill"
    | "fee"
    | "account"
    | "pnl"
    | "kill"
    | "payoutReads"
    | "settlement"
    | "slug"
    | "tokenSlug"
    | "end",
    Statement
  >;

  constructor(db: Database) {
    this.#db = db;
    this.#s = {
      run: db.prepare(
        "INSERT INTO runs (account, session, started_at_ms) VALUES (@account, @session, @atMs) RETURNING run_id",
      ),
      token: db.prepare(
        `INSERT INTO tokens (token_id, market_id, slug, outcome) VALUES (@tokenId, @marketId, @slug, @outcome)
         ON CONFLICT (token_id) DO UPDATE SET market_id = excluded.market_id,
           slug = coalesce(excluded.slug, tokens.slug), outcome = excluded.outcome`,
      ),
      intent: db.prepare(
        `INSERT INTO intents (run_id, client_order_id, token_id, market_id, side, level, price_micro, size_micro, sent, at_ms)
         VALUES (@run, @clientOrderId, @tokenId, @marketId, @side, @level, @priceMicro, @sizeMicro, @sent, @atMs)`,
      ),
      outcome: db.prepare(
        `INSERT INTO outcomes (run_id, op, client_order_id, market_id, outcome, order_id, code, latency_ms, at_ms, reason)
         VALUES (@run, @op, @clientOrderId, @marketId, @outcome, @orderId, @code, @latencyMs, @atMs, @reason)`,
      ),
      closed: db.prepare(
        `INSERT INTO outcomes (run_id, op, client_order_id, market_id, outcome, order_id, code, latency_ms, at_ms)
         SELECT @run, 'cancel', @clientOrderId, @marketId, '${CLOSED_OUTCOME}', @orderId, @code, NULL, @atMs
         WHERE NOT EXISTS (SELECT 1 FROM outcomes c WHERE c.client_order_id = @clientOrderId
                           AND c.op = 'cancel' AND c.outcome IN ${ENDING_CANCELS})`,
      ),
      unsent: db.prepare(
        `INSERT INTO unsent (run_id, hour_ms, op, market_id, reason, n, first_at_ms, last_at_ms)
         VALUES (@run, @hourMs, @op, @marketId, @reason, @n, @firstAtMs, @lastAtMs)
         ON CONFLICT (run_id, hour_ms, op, market_id, reason) DO UPDATE SET n = n + excluded.n,
           first_at_ms = min(first_at_ms, excluded.first_at_ms), last_at_ms = max(last_at_ms, excluded.last_at_ms)`,
      ),
      fill: db.prepare(
        `INSERT OR IGNORE INTO fills (run_id, trade_id, order_id, client_order_id, token_id, side, price_micro, size_micro, ts_ms, source)
         VALUES (@run, @tradeId, @orderId, @clientOrderId, @tokenId, @side, @priceMicro, @sizeMicro, @tsMs, @source)`,
      ),
      fee: db.prepare(
        `INSERT INTO fees (trade_id, order_id, token_id, asset, amount_micro, value_pico, fill_ts_ms, at_ms)
         VALUES (@tradeId, @orderId, @tokenId, @asset, @amountMicro, @valuePico, @fillTsMs, @atMs)
         ON CONFLICT (trade_id, order_id) DO UPDATE SET asset = excluded.asset,
           amount_micro = excluded.amount_micro, value_pico = excluded.value_pico, at_ms = excluded.at_ms`,
      ),
      account: db.prepare(
        `INSERT INTO accounts (run_id, at_ms, reason, token_id, size_micro, cost_pico, realised_pico, fees_pico, fee_shares_micro, mark_micro)
         VALUES (@run, @atMs, @reason, @tokenId, @size_micro, @cost_pico, @realised_pico, @fees_pico, @fee_shares_micro, @mark)`,
      ),
      pnl: db.prepare(
        `INSERT INTO pnl (run_id, at_ms, reason, pnl_micro, realised_pico, fees_pico, unrealised_pico, open_orders, drawdown_micro)
         VALUES (@run, @atMs, @reason, @pnlMicro, @realised, @fees, @unrealised, @openOrders, @drawdown)`,
      ),
      kill: db.prepare(
        `INSERT INTO kill_switch (run_id, at_ms, action, peak_micro, pnl_micro, drawdown_micro, limit_micro)
         VALUES (@run, @atMs, @action, @peakMicro, @pnlMicro, @drawdownMicro, @limitMicro)`,
      ),
      payoutReads: db.prepare(
        "INSERT INTO payout_reads (run_id, market_id, at_ms) VALUES (@run, @marketId, @atMs)",
      ),
      settlement: db.prepare(
        `INSERT INTO settlements (run_id, at_ms, market_id, status, payouts)
         VALUES (@run, @atMs, @marketId, @status, @payouts)`,
      ),
      slug: db.prepare(
        `INSERT INTO market_slugs (run_id, at_ms, market_id, slug, previous)
         VALUES (@run, @atMs, @marketId, @slug, @previous)`,
      ),
      tokenSlug: db.prepare("UPDATE tokens SET slug = @slug WHERE market_id = @marketId"),
      end: db.prepare(
        "UPDATE runs SET stopped_at_ms = @atMs, stop_reason = @reason, open_at_stop = @openOrders WHERE run_id = @run",
      ),
    };
  }

  /** Opens a run of `account` (exchange + wallet) and records its tokens; returns the run id. */
  beginRun(r: { account: string; session: string; atMs: number; tokens: readonly JournalToken[] }): number {
    return this.batch(() => {
      const row = this.#s.run.get({ account: r.account, session: r.session, atMs: wholeMs(r.atMs) }) as {
        run_id: bigint;
      };
      for (const t of r.tokens) this.#s.token.run({ ...t, slug: t.slug ?? null });
      return Number(row.run_id);
    });
  }

  intent(run: number, i: IntentRecord): void {
    this.#s.intent.run({ ...i, run, sent: i.sent ? 1 : 0, atMs: wholeMs(i.atMs) });
  }

  outcome(run: number, o: OutcomeRecord): void {
    this.#s.outcome.run({
      run,
      op: o.op,
      clientOrderId: o.clientOrderId ?? null,
      marketId: o.marketId ?? null,
      outcome: o.outcome,
      orderId: o.orderId ?? null,
      code: o.code ?? null,
      latencyMs: o.latencyMs === undefined ? null : wholeMs(o.latencyMs),
      atMs: wholeMs(o.atMs),
      reason: o.reason ?? null,
    });
  }

  /**
   * Journals an order no longer open on the exchange as closed (a `cancel` row with outcome
   * CLOSED_OUTCOME, no request made; `code`: its final status, as far as known), unless a cancel row
   * already ends its placement (MAY_REST): the start's check of gone orders and the run that adopted
   * it may both see it end. Returns whether a row was written.
   */
  closed(
    run: number,
    c: {
      readonly clientOrderId: string;
      readonly orderId: string;
      readonly marketId: string | undefined;
      readonly code: string;
      readonly atMs: number;
    },
  ): boolean {
    const r = this.#s.closed.run({
      run,
      clientOrderId: c.clientOrderId,
      orderId: c.orderId,
      marketId: c.marketId ?? null,
      code: c.code,
      atMs: wholeMs(c.atMs),
    });
    return r.changes > 0;
  }

  /** Adds a count of unsent intents or cancels to its (run, hour, op, market, reason) row. */
  unsent(run: number, u: UnsentRecord): void {
    this.#s.unsent.run({
      run,
      hourMs: wholeMs(u.hourMs),
      op: u.op,
      marketId: u.marketId,
      reason: u.reason,
      n: u.n,
      firstAtMs: wholeMs(u.firstAtMs),
      lastAtMs: wholeMs(u.lastAtMs),
    });
  }

  /** Records a fill once: false when (tradeId, orderId) was already journaled (WebSocket and backfill). */
  fill(run: number, f: Fill, source: "stream" | "backfill"): boolean {
    const r = this.#s.fill.run({
      ...f,
      run,
      clientOrderId: f.clientOrderId ?? null,
      tsMs: wholeMs(f.tsMs),
      source,
    });
    return r.changes > 0;
  }

  /** Records (or corrects) the fee of a fill, with its value in pico-USDC as inventory books it. */
  fee(f: Fill, fee: FeeAmount, atMs: number): void {
    this.#s.fee.run({
      tradeId: f.tradeId,
      orderId: f.orderId,
      tokenId: f.tokenId,
      asset: fee.asset,
      amountMicro: fee.amountMicro,
      valuePico: feeValuePico(f.side, f.priceMicro, f.sizeMicro, fee).toString(),
      fillTsMs: wholeMs(f.tsMs),
      atMs: wholeMs(atMs),
    });
  }

  /** A token's account (relative to its run's baseline) at `atMs`, with the mark when known. */
  account(
    run: number,
    atMs: number,
    reason: AccountReason,
    tokenId: string,
    acc: TokenAccount,
    markMicro: number | undefined,
  ): void {
    this.#s.account.run({
      run,
      atMs: wholeMs(atMs),
      reason,
      tokenId,
      ...accountColumns(acc),
      mark: markMicro ?? null,
    });
  }

  pnl(run: number, p: PnlRecord): void {
    this.#s.pnl.run({
      run,
      atMs: wholeMs(p.atMs),
      reason: p.reason,
      pnlMicro: p.pnlMicro,
      realised: p.realisedPico.toString(),
      fees: p.feesPico.toString(),
      unrealised: p.unrealisedPico.toString(),
      openOrders: p.openOrders,
      drawdown: p.drawdownMicro ?? null,
    });
  }

  /**
   * A trip or re-arm of the kill switch: the account's last one decides how its next run starts. A
   * trip's commit fsyncs the WAL (synchronous FULL for it, ~1–3 ms): only the journal knows the switch,
   * and under NORMAL a power loss soon after rolled it back, so the restart quoted again. A lost
   * re-arm only starts the next run tripped.
   */
  killSwitch(run: number, k: KillSwitchRecord): void {
    const row = {
      run,
      atMs: wholeMs(k.atMs),
      action: k.action,
      peakMicro: k.peakMicro,
      pnlMicro: k.pnlMicro,
      drawdownMicro: k.drawdownMicro,
      limitMicro: k.limitMicro,
    };
    // SQLite refuses a change of safety level inside a transaction: in a batch the batch's commit decides.
    const level = Number(this.#db.pragma("synchronous", { simple: true }));
    if (k.action !== "trip" || level >= FULL || this.#db.inTransaction) {
      this.#s.kill.run(row);
      return;
    }
    this.#db.pragma("synchronous = FULL");
    try {
      this.#s.kill.run(row);
    } finally {
      this.#db.pragma(`synchronous = ${level === 1 ? "NORMAL" : level}`);
    }
  }

  /** The first read of a settled market's record for its payouts: its day of reads runs from `atMs`. */
  payoutReadsStarted(run: number, marketId: string, atMs: number): void {
    this.#s.payoutReads.run({ run, marketId, atMs: wholeMs(atMs) });
  }

  /** A market's settlement as the engine took it; payouts as JSON (outcome index → numerator). */
  settlement(run: number, x: SettlementRecord): void {
    const payouts = x.payouts === undefined ? null : JSON.stringify(x.payouts);
    this.#s.settlement.run({ run, atMs: wholeMs(x.atMs), marketId: x.marketId, status: x.status, payouts });
  }

  /**
   * A traded market's new slug (the engine's `market_slug`), and its tokens' slug with it in the
   * same commit, so that `mm report` names the market by the slug it has now.
   */
  marketSlug(run: number, x: MarketSlugRecord): void {
    this.batch(() => {
      const { marketId, slug } = x;
      this.#s.slug.run({ run, atMs: wholeMs(x.atMs), marketId, slug, previous: x.previous ?? null });
      this.#s.tokenSlug.run({ marketId, slug });
    });
  }

  /** Closes a run: when, why, and how many orders it left open (0 = a clean stop). */
  endRun(run: number, atMs: number, reason: string, openOrders: number): void {
    this.#s.end.run({ run, atMs: wholeMs(atMs), reason, openOrders });
  }

  /** How long a write waits for another connection's write lock before failing SQLITE_BUSY, ms. */
  setBusyTimeout(ms: number): void {
    this.#db.pragma(`busy_timeout = ${Math.max(0, Math.floor(ms))}`);
  }

  /** Runs `fn` in one transaction (all of it commits, or none). */
  batch<T>(fn: () => T): T {
    return this.#db.transaction(fn)();
  }
}
