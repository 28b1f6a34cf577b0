import type { Order } from "../exchange/types.js";
import { clusterWindow, sendClusters } from "../execution/history-search.js";
import type { ReconcileSource } from "../execution/reconcile-run.js";
import type { EngineCore } from "./engine-core.js";
import type { EngineEvent } from "./engine-events.js";

/**
 * Looks up, by clientOrderId in the order history (any status), the placements earlier runs sent
 * without a definite answer (EngineRestore.unanswered), before the start-up reconcile searches the
 * restored orders' trades. Why: such an order (a run killed with the request on the wire, or an
 * ambiguous answer the run's reconciler resolved without the journal learning the orderId) may have
 * rested and filled while mm was down; found, it joins the restored orders (RestoredFees.addOrders),
 * so that fill is applied like any restored order's, and is recognised as ours if still open.
 * The history is searched around each cluster of send times (sendClusters), each window paged to
 * its end. The answers are reported together (`placements_resolved`) for the journal: found, or not found once
 * `unknownGraceMs` has passed since it was sent (it never reached the book) by a search that read
 * its whole window. One not found sooner, or by a search its page bound cut short, may still be in
 * the history: left for the next start. A failed read is logged and changes
 * nothing (the next start tries again); returns false then, true once looked up (or nothing to do).
 * @example if (await resolveUnanswered(core, source, offsetMs)) memory.unansweredDone = true;
 */
export async function resolveUnanswered(
  core: EngineCore,
  source: Pick<ReconcileSource, "ordersByClientId">,
  offsetMs: number,
): Promise<boolean> {
  const unanswered = core.options.restore.unanswered;
  if (unanswered === undefined || unanswered.size === 0) return true;
  const byCid = new Map<string, Order>();
  // Placements a search cut short (ClientIdSearch.complete false) did not find: they may be there.
  const unsure = new Set<string>();
  try {
    for (const c of sendClusters([...unanswered].map(([id, u]) => [id, u.atMs] as const))) {
      // Moved onto the exchange's clock and widened, as the reconcile's own history search (searchSent).
      const res = await source.ordersByClientId(c.ids, clusterWindow(c, offsetMs));
      for (const o of res.orders) {
        if (o.clientOrderId !== undefined && unanswered.has(o.clientOrderId)) byCid.set(o.clientOrderId, o);
      }
      if (!res.complete) for (const id of c.ids) unsure.add(id);
    }
  } catch (err) {
    core.log.warn(
      { err, placements: unanswered.size },
      "earlier runs' unanswered placements: the order history could not be read; left for the next start",
    );
    return false;
  }
  const now = core.clock.now();
  const added: { orderId: string; clientOrderId: string; tokenId: string; placedAtMs: number }[] = [];
  const answers: Extract<EngineEvent, { type: "placements_resolved" }>["placements"][number][] = [];
  let neverPlaced = 0;
  let left = 0;
  for (const [clientOrderId, u] of unanswered) {
    const o = byCid.get(clientOrderId);
    if (o !== undefined) {
      added.push({ orderId: o.id, clientOrderId, tokenId: u.tokenId, placedAtMs: u.atMs });
    } else if (unsure.has(clientOrderId) || now - u.atMs < core.options.unknownGraceMs) {
      // Not found proves nothing yet (history unread, or sent too recently): the next start looks again.
      if (unsure.has(clientOrderId)) left++;
      continue;
    } else {
      neverPlaced++;
    }
    answers.push({ clientOrderId, orderId: o?.id, marketId: o?.marketId, status: o?.status });
  }
  if (answers.length > 0) core.emit({ type: "placements_resolved", atMs: now, placements: answers });
  core.restored.addOrders(added);
  core.log.info(
    { placements: unanswered.size, found: added.length, neverPlaced },
    `earlier runs' unanswered placements: ${added.length} found on the exchange, ${neverPlaced} never placed`,
  );
  if (left > 0) {
    core.log.warn(
      { placements: left },
      "earlier runs' unanswered placements: the order history around their send times was longer than the search reads; those not found are left for the next start",
    );
  }
  return true;
}
