import { PLATFORM_READ_DEADLINE_MS } from "../engine/platform-watch.js";
import { DEFAULT_CANCEL_SLOTS, type QueueOp } from "../execution/order-queue-types.js";
import { RateBudget } from "../execution/rate-budget.js";
import { parseRiskConfig } from "../risk/config.js";
import type { ConfigIssue } from "./errors.js";
import type { RawConfig } from "./schema.js";

/**
 * How long before its count an error's answer may have come: the platform watch holds a 503
 * `exchange_unavailable` / `circuit_open` answer until a status read says whether the platform is
 * frozen; an answer arriving while one read is out waits for the next, and each read is given up on
 * after PLATFORM_READ_DEADLINE_MS, so two deadlines at most.
 */
const HOLD_MS = 2 * PLATFORM_READ_DEADLINE_MS;

const OPS: readonly { op: QueueOp; name: string }[] = [
  { op: "place", name: "placements" },
  { op: "cancel", name: "cancels" },
  { op: "cancel_all", name: "cancel-alls" },
];

/**
 * The most sends of `op` the order queue's rate budget (the same RateBudget the engine builds)
 * allows in any interval of `spanMs`. Each bucket holds at most `limit` sends in any interval of its
 * window (plus a margin), so `limit × ⌈span / window⌉` bounds it; an op spends every bucket that
 * applies to it (placements: the wallet's 50/s and the IP's 1000/60 s), so the tightest one counts.
 */
function mostSends(budget: RateBudget, op: QueueOp, spanMs: number): number {
  let most = Number.POSITIVE_INFINITY;
  for (const b of budget.buckets(op)) most = Math.min(most, b.limit * Math.ceil(spanMs / b.windowMs));
  return most;
}

/**
 * A `risk.errorRate.maxErrors` the order requests can never exceed within `windowMs`: the halt
 * trips on more than maxErrors counted errors in the window, and each counted error is the final
 * answer to one placement, cancel or cancel-all the order queue sent (a reject, a failed cancel, an
 * ambiguous answer, a 503 the platform status does not explain), each spending one token of the
 * rate budget built from queue.rateLimitPerMin and queue.ipLimitFactor. Answers counted in a window
 * come from requests sent in it or in the HOLD_MS before, or already in flight then
 * (queue.concurrency placements and DEFAULT_CANCEL_SLOTS cancels at most), so above that sum the
 * halt can never trip: a safety that is silently off. The engine counts one error per request sent:
 * a failed cancel-all counts once however many market cancel-alls it absorbed, a cancel once
 * however many duplicates it carried, and a cancel with no orderId or a cancel-all failed unsent
 * not at all (FailedRequest.requestError, AmbiguousRequest.requestError, engine-reports.ts). It
 * also counts a placement whose signing failed, which spends no token: such errors come on top of
 * the requests' and only make the halt easier to reach, so the bound still says whether failing
 * requests alone can trip it. Refused only above the bound: a maxErrors below it that a steady
 * error stream cannot reach is left alone (a burst can).
 * @example errorRateReachIssues(raw) // [{ field: "risk.errorRate.maxErrors", message: "must be ≤ 1144 …" }]
 */
export function errorRateReachIssues(raw: RawConfig): ConfigIssue[] {
  const { maxErrors, windowMs } = parseRiskConfig(raw.risk).errorRate;
  const { rateLimitPerMin, ipLimitFactor, concurrency } = raw.queue;
  const budget = new RateBudget({ rateLimitPerMin, ipLimitFactor });
  const spanMs = windowMs + HOLD_MS;
  const sends = OPS.map((o) => ({ ...o, most: mostSends(budget, o.op, spanMs) }));
  const sent = sends.reduce((sum, s) => sum + s.most, 0);
  const inFlight = concurrency + DEFAULT_CANCEL_SLOTS;
  const reach = sent + inFlight;
  if (maxErrors < reach) return [];
  return [
    {
      field: "risk.errorRate.maxErrors",
      message:
        `must be ≤ ${reach - 1} for failing order requests to ever trip the halt, got ${maxErrors}: it trips on more than maxErrors ` +
        `order errors within risk.errorRate.windowMs (${windowMs} ms), each the answer to one order request, ` +
        `and at queue.rateLimitPerMin ${rateLimitPerMin} and queue.ipLimitFactor ${ipLimitFactor} the order ` +
        `queue sends at most ${sent} of them (${sends.map((s) => `${s.most} ${s.name}`).join(", ")}) in those ` +
        `${windowMs} ms and the ${HOLD_MS} ms before (answers the platform-status check may hold), with ` +
        `${inFlight} more in flight (queue.concurrency ${concurrency} + ${DEFAULT_CANCEL_SLOTS} cancel slots); ` +
        "lower maxErrors or lengthen windowMs",
    },
  ];
}
