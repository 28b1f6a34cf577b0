/**
 * The `outcome` of a `cancel` row that sent no request: a later run's start found the order no longer
 * open on the exchange (gone-orders.ts); `code` holds the exchange's final status (FILLED, CANCELLED,
 * EXPIRED…, or `not_found`). Like a cancel answered done, it ends the placement's MAY_REST.
 */
export const CLOSED_OUTCOME = "closed";

/**
 * The `code` of a CLOSED_OUTCOME row the run that adopted the order wrote when the order ended while
 * it ran without a cancel of its own (filled, cancelled by someone else or by a cancel-all, expired:
 * its reconcile with the exchange ended it in the order store). The exchange's own status is not read.
 */
export const ENDED_IN_RUN = "ended";

/**
 * The outcomes of a `cancel` row that end a placement's MAY_REST: a cancel answered done, one covered
 * by a cancel-all, or the order found no longer open (CLOSED_OUTCOME).
 */
export const ENDING_CANCELS = `('done', 'covered', '${CLOSED_OUTCOME}')`;

/**
 * SQL condition: the `outcomes` row `o` (its run `r`) is a placement the exchange accepted and may
 * still hold — no cancel of it was answered done or covered by a cancel-all, no later start found it
 * gone from the exchange (CLOSED_OUTCOME), and the fills journaled for its order (by the same
 * account) do not add up to its size. A run that stopped cleanly left
 * nothing resting, so callers add their own run condition. Restore offers these orders to the
 * start-up reconcile (recognised as ours); retention never deletes them, nor their intents, so
 * pruning can never change what a restart restores.
 *
 * A fully filled order cannot rest, and it is by far the commonest placement without a cancel (the
 * soak: ~1,300 of 1,330 in five minutes), so leaving those out keeps both the restored map and the
 * rows retention must keep small. An order whose intent is missing (the store had lost it) has no
 * known size: it stays.
 * @example db.prepare(`SELECT o.order_id FROM outcomes o JOIN runs r ON r.run_id = o.run_id WHERE ${MAY_REST}`)
 */
export const MAY_REST = `(
  o.op = 'place' AND o.outcome = 'accepted' AND o.order_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM outcomes c WHERE c.client_order_id = o.client_order_id
                  AND c.op = 'cancel' AND c.outcome IN ${ENDING_CANCELS})
  AND coalesce((SELECT sum(f.size_micro) FROM fills f JOIN runs fr ON fr.run_id = f.run_id
                WHERE f.order_id = o.order_id AND fr.account = r.account), 0)
      < coalesce((SELECT max(i.size_micro) FROM intents i
                  WHERE i.client_order_id = o.client_order_id AND i.run_id = o.run_id AND i.sent = 1),
                 9223372036854775807)
)`;

/** SQL condition: the run `r` did not stop cleanly (killed, still running, or left orders open). */
export const UNCLEAN_RUN = "(r.stopped_at_ms IS NULL OR r.open_at_stop <> 0)";

/**
 * SQL condition: the `intents` row `i` is a placement sent without a definite answer journaled — none
 * (the run was killed with it on the wire) or only `ambiguous` (a timeout, a 5xx) — that no cancel
 * row ends. It may have reached the book, rested and filled, and the journal does not know its
 * orderId: restore offers it by clientOrderId (JournalRestore.unanswered) for the start-up reconcile
 * to look up, which then journals the answer (an `accepted` row with the orderId, or `rejected`
 * `never_placed`). Retention keeps them, in a run that did not stop cleanly, until answered (prune.ts:
 * an intent goes with the last row that answered it, so one left unanswered never had an answer):
 * a start that could not search their whole window leaves them for the next, however much later.
 * @example db.prepare(`SELECT i.client_order_id FROM intents i JOIN runs r ON r.run_id = i.run_id WHERE ${UNANSWERED}`)
 */
export const UNANSWERED = `(
  i.sent = 1
  AND NOT EXISTS (SELECT 1 FROM outcomes p WHERE p.client_order_id = i.client_order_id
                  AND p.op = 'place' AND p.outcome IN ('accepted', 'rejected'))
  AND NOT EXISTS (SELECT 1 FROM outcomes c WHERE c.client_order_id = i.client_order_id
                  AND c.op = 'cancel' AND c.outcome IN ${ENDING_CANCELS})
)`;

/** The `code` of the `rejected` place row journaled for an unanswered placement the exchange never had. */
export const NEVER_PLACED = "never_placed";
