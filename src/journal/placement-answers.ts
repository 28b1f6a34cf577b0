import type { SearchAnswer } from "../execution/history-search.js";
import { localStateOfRemote } from "../execution/order-state.js";
import { UNSURE_GIVEN_UP } from "../execution/reconcile-run.js";
import type { LiveOrders } from "./adopted-ends.js";
import { NEVER_PLACED } from "./may-rest.js";
import type { JournalWriter } from "./writer.js";

/** The `code` of an `accepted` place row journaled after the fact (the answer itself was ambiguous or lost). */
export const RESOLVED_CODE = "resolved";

/** One answer of a `placements_resolved` engine event, as journaled. */
export interface ResolvedPlacement {
  readonly clientOrderId: string;
  readonly orderId: string | undefined;
  readonly marketId: string | undefined;
  readonly status: string | undefined;
}

/**
 * Journals the answers placements got after the fact, so that the journal knows the orderId of every
 * order that may rest (MAY_REST) and a later restart finds its fills made while mm was down:
 * - an earlier run's placement sent without a definite answer, looked up at start
 *   (`placements_resolved`): an `accepted` row with its orderId in the run that sent it (beside its
 *   intent, where MAY_REST reads its size and token), and a closed row when the exchange says it has
 *   ended; not found, a `rejected` row NEVER_PLACED. Either way restore stops offering it as unanswered;
 * - a placement of this run answered `ambiguous`: the answer its reconcile found (on the open list by
 *   clientOrderId, or by its history search), or the orderId a user_fill naming it gave it first
 *   (`placements_answered`: `answered`); failing those, once the engine holds it live with an
 *   orderId, an `accepted` row with that id (bindLive, at a reconcile's end). One the engine no
 *   longer holds live otherwise is forgotten (it ended; if killed before, the next start looks it
 *   up by clientOrderId).
 * @example const a = new PlacementAnswers(restore.unanswered); a.ambiguous(cid); a.bindLive(engine, writer, run, now);
 */
export class PlacementAnswers {
  readonly #unanswered: ReadonlyMap<string, { readonly run: number; readonly marketId: string }>;
  readonly #ambiguous = new Map<string, string | undefined>();

  constructor(
    unanswered: ReadonlyMap<string, { readonly run: number; readonly marketId: string }> = new Map(),
  ) {
    this.#unanswered = unanswered;
  }

  /** A placement of this run (clientOrderId, market) was answered ambiguously. */
  ambiguous(clientOrderId: string, marketId: string | undefined): void {
    this.#ambiguous.set(clientOrderId, marketId);
  }

  /**
   * Journals the answers found at start for earlier runs' placements (`run`: this run, for a closed
   * row), in one transaction: one commit (an fsync) per answer made a start with thousands of them
   * wait that many before quoting.
   */
  resolved(writer: JournalWriter, run: number, atMs: number, answers: readonly ResolvedPlacement[]): void {
    writer.batch(() => {
      for (const e of answers) this.#resolvedOne(writer, run, atMs, e);
    });
  }

  /**
   * Journals (in `run`, one transaction) the answers the running reconcile's history search found for
   * this run's placements answered ambiguously (`placements_answered`), as `resolved` does for earlier
   * runs' at start: found, an `accepted` row (and a closed one when ended); never placed, a
   * `rejected` NEVER_PLACED row. Without them each stayed unanswered: retention keeps such an intent
   * while its run may have left it resting (the running run counts), so a run of weeks kept them all,
   * and a crash had the next start search every one before quoting.
   *
   * One given up (`givenUp`: cut-short searches only, never proven unplaced) gets an `ambiguous` row
   * coded UNSURE_GIVEN_UP, which leaves it unanswered (UNANSWERED counts only accepted and
   * rejected): if the run is killed, the next start still looks it up by clientOrderId, with a fresh
   * search that may read its whole window, and finds a fill it made. A clean stop lets retention
   * prune it (it was not open at the give-up, and the stop's sweep confirms nothing rests).
   */
  answered(writer: JournalWriter, run: number, atMs: number, answers: readonly SearchAnswer[]): void {
    writer.batch(() => {
      for (const e of answers) {
        const marketId = e.marketId ?? this.#ambiguous.get(e.clientOrderId);
        this.#ambiguous.delete(e.clientOrderId);
        if (!e.givenUp) {
          this.#resolvedOne(writer, run, atMs, { ...e, marketId });
          continue;
        }
        writer.outcome(run, {
          op: "place",
          clientOrderId: e.clientOrderId,
          marketId,
          outcome: "ambiguous",
          orderId: undefined,
          code: UNSURE_GIVEN_UP,
          latencyMs: undefined,
          atMs,
        });
      }
    });
  }

  #resolvedOne(writer: JournalWriter, run: number, atMs: number, e: ResolvedPlacement): void {
    const sent = this.#unanswered.get(e.clientOrderId);
    const marketId = e.marketId ?? sent?.marketId;
    const orderId = e.orderId;
    writer.outcome(sent?.run ?? run, {
      op: "place",
      clientOrderId: e.clientOrderId,
      marketId,
      outcome: orderId === undefined ? "rejected" : "accepted",
      orderId,
      code: orderId === undefined ? NEVER_PLACED : RESOLVED_CODE,
      latencyMs: undefined,
      atMs,
    });
    if (orderId !== undefined && e.status !== undefined && localStateOfRemote(e.status) !== "open") {
      writer.closed(run, {
        clientOrderId: e.clientOrderId,
        orderId,
        marketId,
        code: e.status,
        atMs,
      });
    }
  }

  /** Journals (in `run`) the orderId of each ambiguous placement `source` now holds live with one. */
  bindLive(source: LiveOrders | undefined, writer: JournalWriter, run: number, atMs: number): void {
    if (this.#ambiguous.size === 0 || source?.liveOrders === undefined) return;
    const live = new Map<string, string | undefined>();
    for (const o of source.liveOrders())
      if (o.clientOrderId !== undefined) live.set(o.clientOrderId, o.orderId);
    for (const [clientOrderId, marketId] of this.#ambiguous) {
      if (!live.has(clientOrderId)) {
        this.#ambiguous.delete(clientOrderId);
        continue;
      }
      const orderId = live.get(clientOrderId);
      if (orderId === undefined) continue;
      this.#ambiguous.delete(clientOrderId);
      writer.outcome(run, {
        op: "place",
        clientOrderId,
        marketId,
        outcome: "accepted",
        orderId,
        code: RESOLVED_CODE,
        latencyMs: undefined,
        atMs,
      });
    }
  }
}
