import { SimClock } from "../../../src/core/sim-clock.js";
import { zeroGatewayCounters } from "../../../src/gateway/counters.js";
import { SubscriptionLayout } from "../../../src/gateway/layout.js";
import { RefusalRecheck } from "../../../src/gateway/refusal-recheck.js";
import { SubscriptionSync } from "../../../src/gateway/sync.js";
import { type RejectedIds, type RestoredIds, SubscribeWaiters } from "../../../src/gateway/waiters.js";

/** The recheck interval of the harness (the default's 5 minutes). */
export const RECHECK_MS = 300_000;

/** A command the fake link recorded, answered when the test chooses. */
export interface Sent {
  readonly cmd: string;
  readonly params: Record<string, unknown>;
  reply(r: Record<string, unknown>): void;
  fail(e: Error): void;
}

/** A hand-written fake of the link: records commands; the test answers them when it chooses. */
export function harness(limits = { maxIdsPerSubscription: 100, maxSubscriptionsPerConnection: 256 }) {
  const layout = new SubscriptionLayout(limits);
  const waiters = new SubscribeWaiters();
  const sent: Sent[] = [];
  const rejected: RejectedIds[] = [];
  const restored: RestoredIds[] = [];
  const clock = new SimClock(0);
  const counters = zeroGatewayCounters();
  let open = true;
  // As SubscriptionManager wires it: ids asked again are placed and their links synced.
  const recheck = new RefusalRecheck(clock, RECHECK_MS, (channel, ids) => {
    for (const link of layout.place(channel, ids)) void sync.request(link);
  });
  const sync = new SubscriptionSync({
    layout,
    waiters,
    counters,
    clock,
    // Delays 400, 800, 1_600, 2_000 ms (jitter 1: the full exponential delay).
    backoff: { baseMs: 400, factor: 2, maxMs: 2_000, resetAfterMs: 60_000 },
    random: () => 1,
    recheck,
    isOpen: () => open,
    send: (_link, cmd, params) =>
      new Promise((resolve, reject) => sent.push({ cmd, params, reply: resolve, fail: reject })),
    onRejected: (r) => rejected.push(r),
    onRestored: (r) => restored.push(r),
    onAccepted: () => undefined,
  });
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return {
    layout,
    waiters,
    sync,
    sent,
    rejected,
    restored,
    clock,
    counters,
    flush,
    recheck,
    setOpen: (v: boolean) => (open = v),
  };
}

/** Answers the last command with a whole-entry refusal of `code`. */
export function refuseLast(h: ReturnType<typeof harness>, code: string): void {
  const last = h.sent.at(-1);
  const entry = (last?.params.subscriptions as { channel: string; ids?: string[] }[] | undefined)?.[0];
  last?.reply({
    type: "subscribed",
    accepted: [],
    rejected: [{ channel: entry?.channel, ids: entry?.ids ?? [], code, message: "no" }],
  });
}
