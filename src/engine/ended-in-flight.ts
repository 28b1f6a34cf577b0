import type { QueueReport } from "../execution/order-queue-types.js";
import type { TrackedOrder } from "../execution/order-state.js";

/**
 * Placements that user_orders said ended (`order_cancelled`) while their answer was still on its
 * way. The spec orders neither the push nor the answer: an order the exchange ends right after
 * taking it (an operator's cancel, a market paused with its orders cancelled, an expiry) can be
 * pushed ended before mm hears it was placed. Its answer (OPEN) then makes it `open`, and without
 * this note the push, which came while it was `placing`, was forgotten: mm held it resting, its
 * level dark, until the periodic reconcile (30 s by default). Noted here, the answer brings the
 * reconcile the push would have brought had it come after it.
 *
 * Bounded: a placement is noted only once sent, and every sent placement is answered (accepted,
 * rejected or ambiguous) or reported dropped, which takes its note away.
 */
export class EndedInFlight {
  readonly #ended = new Set<string>();

  /** An order_cancelled named `o`: noted when its placement is sent and unanswered. */
  note(o: TrackedOrder): void {
    if (o.state === "placing" && !o.queued) this.#ended.add(o.clientOrderId);
  }

  /**
   * A queue report, after the engine applied it: true when it answers a noted placement that is now
   * held `open` (reconcile soon: the exchange said it ended).
   * @example if (ended.answered(r, (cid) => store.get(cid))) scheduler.soon("order_ended");
   */
  answered(r: QueueReport, get: (clientOrderId: string) => TrackedOrder | undefined): boolean {
    if (r.kind !== "place" && r.kind !== "place_dropped") return false;
    const cid = r.intent.clientOrderId;
    return this.#ended.delete(cid) && get(cid)?.state === "open";
  }

  /** Placements noted and not yet answered (tests). */
  get size(): number {
    return this.#ended.size;
  }
}
