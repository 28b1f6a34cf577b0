import { ENDED_IN_RUN } from "./may-rest.js";
import type { JournalWriter } from "./writer.js";

/** What AdoptedEnds reads from the engine: the orders it holds live (TradingEngine.liveOrders). */
export interface LiveOrders {
  liveOrders?(): readonly { readonly orderId: string | undefined; readonly clientOrderId?: string }[];
}

/**
 * The orders an earlier run left (the journal's restore) that this run adopted, until each ends.
 *
 * Why: a placement stays MAY_REST until a cancel row ends it or its journaled fills add up to its
 * size. An adopted order that ends during the run without a cancel of its own (cancelled by someone
 * else or by a cancel-all — the stop's among them —, expired, or filled by fills no run journaled)
 * kept it, so the journal went on offering it to every later start as possibly resting, while the
 * exchange had closed it. The engine's order store follows the exchange (its reconciles resolve
 * orders gone from the open list; a cancel-all's answer ends what it covered): an adopted order it no
 * longer holds live has ended, and is journaled closed (code ENDED_IN_RUN) in the current run.
 *
 * Only orders live at `watch` (the engine's `started`: after the start-up reconcile adopted them and
 * searched for their fills made while mm was down) are followed; the others are the start's check of
 * gone orders' (gone-orders.ts), and both write through JournalWriter.closed, which writes one row
 * per order at most.
 * @example const ends = new AdoptedEnds(restore.orders); ends.watch(engine); ends.closeEnded(engine, writer, run, now);
 */
export class AdoptedEnds {
  readonly #restored: Map<string, string>;
  readonly #watched = new Map<string, string>();

  /** @param restored orders earlier runs may have left resting: exchange orderId → clientOrderId. */
  constructor(restored: ReadonlyMap<string, string>) {
    this.#restored = new Map(restored);
  }

  /** One more order an earlier run left (an unanswered placement found at start), before `watch`. */
  add(orderId: string, clientOrderId: string): void {
    this.#restored.set(orderId, clientOrderId);
  }

  /** Orders followed (adopted, not seen ended yet). */
  get watching(): number {
    return this.#watched.size;
  }

  /** Starts following the restored orders `source` holds live now (the ones this run adopted). */
  watch(source: LiveOrders | undefined): void {
    if (this.#restored.size === 0 || source?.liveOrders === undefined) return;
    for (const o of source.liveOrders()) {
      const cid = o.orderId === undefined ? undefined : this.#restored.get(o.orderId);
      if (o.orderId !== undefined && cid !== undefined) this.#watched.set(o.orderId, cid);
    }
  }

  /**
   * Journals closed (in run `run`, at `atMs`) every followed order `source` no longer holds live, and
   * stops following it. Returns how many rows were written.
   */
  closeEnded(source: LiveOrders, writer: JournalWriter, run: number, atMs: number): number {
    if (this.#watched.size === 0 || source.liveOrders === undefined) return 0;
    const live = new Set<string>();
    for (const o of source.liveOrders()) if (o.orderId !== undefined) live.add(o.orderId);
    let n = 0;
    for (const [orderId, clientOrderId] of this.#watched) {
      if (live.has(orderId)) continue;
      this.#watched.delete(orderId);
      const wrote = writer.closed(run, {
        clientOrderId,
        orderId,
        marketId: undefined,
        code: ENDED_IN_RUN,
        atMs,
      });
      if (wrote) n++;
    }
    return n;
  }
}
