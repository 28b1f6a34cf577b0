import { SETTLED_MARKET_STATUSES } from "../core/types.js";
import type { PositionDrift } from "../execution/reconcile-positions.js";
import type { EngineCore } from "./engine-core.js";
import { takeRecordFee } from "./fee-recheck.js";
import type { MarketRecordStatus } from "./ports.js";

/** What a read of a market's record said: settled (acted on), not settled, or nothing (failed). */
export type RecordVerdict = "settled" | "not_settled" | "failed";

/**
 * Reads a market's record after a sign that it may have resolved without a push (the spec says most
 * lifecycle events are not yet emitted): a placement refused `market_not_open`, or a position drift
 * on its tokens (a redemption). A settled record (RESOLVED, VOIDED) is taken as the push that never
 * came (`core.recordSettled`): the market is gated for good and settled, its tokens marked at the
 * record's payouts, so a redemption moves the baseline instead of being corrected into inventory
 * (engine-settlement.ts). Any other status changes nothing (a refusal's cool-down stays in charge:
 * market-refusals.ts), but is handed to `notSettled` when given (a refusal takes a PAUSED record as
 * the market's status: market-statuses.ts). A failed read is logged. Never rejects; a port without
 * `marketRecord` (the backtest's venue) answers "not_settled" at once.
 * @param after what prompted the read, for the log line ("the refusal", "a position drift")
 * @param notSettled called with a record that is not settled
 */
export async function readSettledRecord(
  core: EngineCore,
  marketId: string,
  after: string,
  notSettled?: (record: MarketRecordStatus) => void,
): Promise<RecordVerdict> {
  const { exchange, log, tokens } = core;
  if (exchange.marketRecord === undefined) return "not_settled";
  const slug = tokens.slugOf(marketId);
  try {
    const record = await exchange.marketRecord({ marketId, slug });
    // The record also says the market's fee now: a changed one is taken whatever prompted the read.
    takeRecordFee(core, marketId, record.feeTakerBps, `after ${after}`);
    if (!SETTLED_MARKET_STATUSES.has(record.status)) {
      log.debug({ marketId, slug, status: record.status, after }, "market's record: not settled");
      notSettled?.(record);
      return "not_settled";
    }
    core.recordSettled(marketId, record, after);
    return "settled";
  } catch (err) {
    log.warn({ err, marketId, slug, after }, "market's record unreadable");
    return "failed";
  }
}

/** After this many failed reads of one drift's market, the drift is corrected anyway. */
export const RECORD_READS_BEFORE_CORRECTING = 3;

/** One market's record reads for its drifts, each drift keyed by its token and figures. */
interface MarketReads {
  /** Drifts a read made for them answered "not settled": correctable. */
  readonly cleared: Set<string>;
  /** Failed reads per drift. */
  readonly failures: Map<string, number>;
  /** A read is out. */
  pending: boolean;
}

/**
 * Holds back the position check's corrections on a market not known settled, of a token the
 * exchange says the wallet holds none of (a redemption's signature), until a read of the market's
 * record, made for that very drift, has answered "not settled". Such a drift may be a silent
 * resolution's redemption: corrected into inventory, the tokens would go below their baseline (the
 * wallet's gross up, other markets reduce-only), and a later read's payouts would then pin that
 * corrected short, a phantom PnL the kill switch watches. A drift seen for the first time, or
 * changed, starts a read (one per market at a time); a failed read is retried at the next check, and
 * after RECORD_READS_BEFORE_CORRECTING failures the drift is corrected anyway (a record that cannot
 * be read must not hold a missed fill's correction for ever). Drifts are keyed per token, so another
 * token's passing drift does not hold one already cleared. A port without `marketRecord` holds
 * nothing back. A correction is only ever a drift seen alike in consecutive checks and older than
 * the settlement window (reconcileDriftSettleMs), so a read that answers within that delays none.
 * Once stopped (engine stop), no read starts: a reconcile still running when the stop began would
 * send one whose answer the stopped engine drops (MarketStatuses takes no record after its stop). Its drifts stay held, as while a read is out.
 */
export class DriftRecordGate {
  readonly #markets = new Map<string, MarketReads>();
  #stopped = false;

  /** Engine stop: later checks start no read (their drifts stay held). */
  stop(): void {
    this.#stopped = true;
  }

  /**
   * The tokens whose corrections must wait, given this check's drifts (starting the reads they
   * need). Tokens of markets already known settled need no read.
   */
  held(core: EngineCore, drifts: readonly PositionDrift[]): Set<string> {
    const byMarket = new Map<string, { tokenId: string; key: string }[]>();
    for (const d of drifts) {
      // A redemption leaves the wallet none of the token: other drifts (a fill not settled yet,
      // a missed one) are not read for, or every passing drift would cost a request.
      if (d.remoteMicro !== 0n || core.positions.settled(d.tokenId)) continue;
      const marketId = core.tokens.get(d.tokenId)?.market.marketId;
      if (marketId === undefined) continue;
      const list = byMarket.get(marketId) ?? [];
      list.push({ tokenId: d.tokenId, key: `${d.tokenId}:${d.localMicro}:${d.remoteMicro}` });
      byMarket.set(marketId, list);
    }
    for (const m of this.#markets.keys()) if (!byMarket.has(m)) this.#markets.delete(m);
    const held = new Set<string>();
    if (core.exchange.marketRecord === undefined) return held;
    for (const [marketId, list] of byMarket) {
      const reads = this.#markets.get(marketId) ?? {
        cleared: new Set(),
        failures: new Map(),
        pending: false,
      };
      this.#markets.set(marketId, reads);
      // Only the drifts seen now are remembered.
      const keys = new Set(list.map((x) => x.key));
      for (const k of reads.cleared) if (!keys.has(k)) reads.cleared.delete(k);
      for (const k of reads.failures.keys()) if (!keys.has(k)) reads.failures.delete(k);
      const waiting = list.filter(
        (x) => !reads.cleared.has(x.key) && (reads.failures.get(x.key) ?? 0) < RECORD_READS_BEFORE_CORRECTING,
      );
      for (const x of waiting) held.add(x.tokenId);
      if (waiting.length === 0 || reads.pending || this.#stopped) continue;
      reads.pending = true;
      const asked = waiting.map((x) => x.key);
      void readSettledRecord(core, marketId, "a position drift").then((v) => {
        reads.pending = false;
        for (const k of asked) {
          if (v === "not_settled") reads.cleared.add(k);
          else if (v === "failed") reads.failures.set(k, (reads.failures.get(k) ?? 0) + 1);
        }
      });
    }
    return held;
  }
}
