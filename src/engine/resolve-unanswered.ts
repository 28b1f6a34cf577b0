import type { Order } from "../exchange/types.js";
import { HISTORY_SLACK_MS, type ReconcileSource } from "../execution/reconcile-run.js";
import type { EngineCore } from "./engine-core.js";

/**
 * Looks up, by clientOrderId in the order history (any status), the placements earlier runs sent
 * without a definite answer (EngineRestore.unanswered), before the start-up reconcile searches the
 * restored orders' trades. Why: such an order (a run killed with the request on the wire, or an
 * ambiguous answer the run's reconciler resolved without the journal learning the orderId) may have
 * rested and filled while mm was down; found, it joins the restored orders (RestoredFees.addOrders),
 * so that fill is applied like any restored order's, and is recognised as ours if still open.
 * Each answer is reported (`placement_resolved`) for the journal: found, or not found once
 * `unknownGraceMs` has passed since it was sent (it never reached the book). One not found sooner
 * may still surface in the history: left for the next start. A failed read is logged and changes
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
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const u of unanswered.values()) {
    from = Math.min(from, u.atMs);
    to = Math.max(to, u.atMs);
  }
  let found: Order[];
  try {
    // Moved onto the exchange's clock and widened, as the reconcile's own history search (sentWindow).
    found = await source.ordersByClientId([...unanswered.keys()], {
      fromMs: from + offsetMs - HISTORY_SLACK_MS,
      toMs: to + offsetMs + HISTORY_SLACK_MS,
    });
  } catch (err) {
    core.log.warn(
      { err, placements: unanswered.size },
      "earlier runs' unanswered placements: the order history could not be read; left for the next start",
    );
    return false;
  }
  const byCid = new Map<string, Order>();
  for (const o of found) {
    if (o.clientOrderId !== undefined && unanswered.has(o.clientOrderId)) byCid.set(o.clientOrderId, o);
  }
  const now = core.clock.now();
  const added: { orderId: string; clientOrderId: string; tokenId: string; placedAtMs: number }[] = [];
  let neverPlaced = 0;
  for (const [clientOrderId, u] of unanswered) {
    const o = byCid.get(clientOrderId);
    if (o !== undefined) {
      added.push({ orderId: o.id, clientOrderId, tokenId: u.tokenId, placedAtMs: u.atMs });
    } else if (now - u.atMs < core.options.unknownGraceMs) {
      continue;
    } else {
      neverPlaced++;
    }
    core.emit({
      type: "placement_resolved",
      atMs: now,
      clientOrderId,
      orderId: o?.id,
      marketId: o?.marketId,
      status: o?.status,
    });
  }
  core.restored.addOrders(added);
  core.log.info(
    { placements: unanswered.size, found: added.length, neverPlaced },
    `earlier runs' unanswered placements: ${added.length} found on the exchange, ${neverPlaced} never placed`,
  );
  return true;
}
