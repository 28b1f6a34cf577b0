import { expect } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { zeroGatewayCounters } from "../../../src/gateway/counters.js";
import { GatewayError } from "../../../src/gateway/errors.js";
import { SubscriptionLayout } from "../../../src/gateway/layout.js";
import { SubscriptionSync } from "../../../src/gateway/sync.js";
import { type RejectedIds, type RestoredIds, SubscribeWaiters } from "../../../src/gateway/waiters.js";

export interface Sent {
  readonly cmd: string;
  readonly params: Record<string, unknown>;
  /** Sent reply-optional (unanswered, it would time out alone). */
  readonly optional: boolean;
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
  const lost: { channel: string; ids: readonly string[] }[] = [];
  const listWrong: number[] = [];
  const held: { channel: string; ids: readonly string[] }[] = [];
  const clock = new SimClock(0);
  const counters = zeroGatewayCounters();
  let open = true;
  const sync = new SubscriptionSync({
    layout,
    waiters,
    counters,
    clock,
    // Delays 400, 800, 1_600, 2_000 ms (jitter 1: the full exponential delay).
    backoff: { baseMs: 400, factor: 2, maxMs: 2_000, resetAfterMs: 60_000 },
    random: () => 1,
    isOpen: () => open,
    send: (_link, cmd, params, opts) =>
      new Promise((resolve, reject) =>
        sent.push({ cmd, params, optional: opts?.replyOptional === true, reply: resolve, fail: reject }),
      ),
    onRejected: (r) => rejected.push(r),
    onRestored: (r) => restored.push(r),
    onAccepted: () => undefined,
    onLost: (channel, ids) => lost.push({ channel, ids }),
    onHeld: (channel, ids) => held.push({ channel, ids }),
    onListWrong: (link) => listWrong.push(link),
  });
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return {
    layout,
    waiters,
    sync,
    sent,
    rejected,
    restored,
    lost,
    held,
    listWrong,
    clock,
    counters,
    flush,
    setOpen: (v: boolean) => (open = v),
  };
}

/** `ids` of token_book subscribed on link 0 and accepted as sid 1 (commands sent so far: the subscribe). */
export async function subscribedBook(h: ReturnType<typeof harness>, ids: string[]): Promise<void> {
  h.layout.place("token_book", ids);
  void h.sync.request(0);
  await h.flush();
  h.sent[0]?.reply({ type: "subscribed", accepted: [{ sid: 1, channel: "token_book", ids }], rejected: [] });
  await h.flush();
}

/**
 * `h` holding token_book 1 as sid 1, checked against an empty list: the unsubscribe of that orphan
 * sid (orphans.ts) is h.sent[2].
 */
export async function orphaned(h: ReturnType<typeof harness>): Promise<void> {
  await subscribedBook(h, ["1"]);
  void h.sync.audit(0);
  await h.flush();
  h.sent[1]?.reply({ type: "subscriptions", subscriptions: [] });
  await h.flush();
  expect(h.sent[2]).toMatchObject({ cmd: "unsubscribe", params: { sid: 1 } });
}

/** What an unanswered reply-optional unsubscribe fails with (the connection's command timeout). */
export const unsubscribeTimeout = () =>
  new GatewayError("command_timeout", "unsubscribe: no reply within 10000 ms");
