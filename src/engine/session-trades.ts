import { TradePagingOrder } from "../exchange/assumptions.js";
import type { TradeRecord } from "../exchange/types.js";
import { refusedCursor } from "../execution/history-search.js";
import type { ReconcileSource } from "../execution/reconcile-run.js";
import type { TradePaging } from "../execution/trade-resume.js";

/** Older trades the backfill still needs (restored fills whose fee is awaited), and how far back. */
export interface OlderTrades {
  /** Paging goes on until a page reaches this instant (≤ sinceMs). */
  readonly pageBackToMs: number;
  /** An older trade kept for the backfill. */
  readonly keep: (t: TradeRecord) => boolean;
}

/** Where a paging starts (TradeResume), and who hears of a kept cursor the exchange refused. */
export interface TradesFrom {
  readonly paging: TradePaging;
  /** The kept cursor was refused (refusedCursor): the paging reads the history from its start. */
  readonly refused: (cursor: string, error: unknown) => void;
}

/**
 * The exchange as runReconcile reads it, with the trade history cut at `sinceMs`: older trades are
 * dropped (except those `older.keep` asks for) and paging stops at the first page that reaches
 * `older.pageBackToMs`, by default `sinceMs`, if the paging runs newest first (TradePagingOrder:
 * the spec shows no order; a paging running oldest first follows its cursors). A paging starts at
 * the read without a cursor: at the history's start, or where `from.paging` says (a history served
 * oldest first: TradeResume), each page handed to it as read; a kept cursor the exchange refuses
 * (a 4xx but 429, 401, 403) is dropped and the history read from its start.
 */
export function sessionTrades(
  source: ReconcileSource,
  sinceMs: number,
  older?: OlderTrades,
  from?: TradesFrom,
): ReconcileSource {
  const horizon = older === undefined ? sinceMs : Math.min(sinceMs, older.pageBackToMs);
  let order = new TradePagingOrder();
  const read = async (opts: { limit?: number; cursor?: string }) => {
    const kept = opts.cursor === undefined ? from?.paging.cursor : undefined;
    if (kept === undefined) return { page: await source.trades(opts), cursor: opts.cursor };
    try {
      return { page: await source.trades({ ...opts, cursor: kept }), cursor: kept };
    } catch (e) {
      if (from === undefined || !refusedCursor(e)) throw e;
      from.refused(kept, e);
      from.paging.refused();
      return { page: await source.trades(opts), cursor: undefined };
    }
  };
  return {
    openOrders: () => source.openOrders(),
    order: (id) => source.order(id),
    ordersByClientId: (ids, window, resume) => source.ordersByClientId(ids, window, resume),
    ...orderFillsOf(source),
    trades: async (opts) => {
      if (opts.cursor === undefined) order = new TradePagingOrder();
      const { page, cursor } = await read(opts);
      // An unreadable createdAt is kept: the backfill reports it as invalid rather than losing it here.
      const keep = page.trades.filter((t) => !(Date.parse(t.createdAt) < sinceMs) || older?.keep(t) === true);
      const stamps = page.trades.map((t) => Date.parse(t.createdAt));
      from?.paging.page(cursor, stamps, page.nextCursor);
      // Only a paging running newest first has nothing newer behind the page (TradePagingOrder).
      const newestFirst = order.newestFirst(stamps);
      const reached = newestFirst && stamps.some((ms) => ms < horizon);
      return { trades: keep, nextCursor: reached ? null : page.nextCursor };
    },
  };
}

/** The optional orderFills read of `source`, as a spreadable part (absent when it has none). */
export function orderFillsOf(source: ReconcileSource): Pick<ReconcileSource, "orderFills"> {
  const read = source.orderFills;
  return read === undefined ? {} : { orderFills: (id: string) => read.call(source, id) };
}
