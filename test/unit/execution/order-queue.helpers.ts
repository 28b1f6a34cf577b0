import { SimClock } from "../../../src/core/sim-clock.js";
import type { PlaceOrderRequest, Side } from "../../../src/core/types.js";
import type { CancelAllIntent, CancelIntent, PlaceIntent } from "../../../src/execution/intents.js";
import { OrderQueue } from "../../../src/execution/order-queue.js";
import type { OrderQueueOptions, QueueReport } from "../../../src/execution/order-queue-types.js";
import { RateBudget, type RateBudgetOptions } from "../../../src/execution/rate-budget.js";
import { FakeExchangePort, type FakePortOptions } from "./order-queue.fake-port.js";

/** A placement intent; `key` picks (tokenId, side, level) = (`t${key}`, buy, 0). */
export function place(
  coid: string,
  o: { token?: string; market?: string; side?: Side; level?: number; urgency?: number; price?: number } = {},
): PlaceIntent {
  return {
    kind: "place",
    tokenId: o.token ?? "t1",
    marketId: o.market ?? "m1",
    clientOrderId: coid,
    quote: {
      side: o.side ?? "buy",
      level: o.level ?? 0,
      priceMicro: o.price ?? 500_000,
      sizeMicro: 10_000_000n,
    },
    urgencyTicks: o.urgency ?? 5,
  };
}

export function cancel(coid: string, orderId: string | undefined, market = "m1"): CancelIntent {
  return { kind: "cancel", tokenId: "t1", marketId: market, clientOrderId: coid, orderId, reason: "requote" };
}

export function cancelAll(marketId: string | undefined): CancelAllIntent {
  return { kind: "cancel_all", marketId, reason: marketId === undefined ? "kill_switch" : "market_not_open" };
}

/** The engine's OrderBuilder stand-in: a deterministic request per intent (the fake never checks signatures). */
export function testSign(intent: PlaceIntent): PlaceOrderRequest {
  return {
    marketId: intent.marketId,
    side: intent.quote.side,
    outcome: "YES",
    price: (intent.quote.priceMicro / 1e6).toFixed(2),
    quantity: "10",
    nonce: "1",
    expiry: 0,
    maker: "0x0000000000000000000000000000000000000001",
    signature: "0x00",
    clientOrderId: intent.clientOrderId,
  };
}

/** Lets every pending promise continuation run (the queue and the fake are promise chains). */
export async function settle(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Advances simulated time to `end`, firing each timer and letting the promise chains it wakes run. */
export async function runUntil(clock: SimClock, end: number): Promise<void> {
  await settle();
  for (;;) {
    const next = clock.nextDeadline();
    if (next === undefined || next > end) break;
    clock.advanceTo(next);
    await settle();
  }
  clock.advanceTo(end);
  await settle();
}

export interface Rig {
  clock: SimClock;
  port: FakeExchangePort;
  budget: RateBudget;
  queue: OrderQueue;
  reports: QueueReport[];
  /** Reports of one kind. */
  of<K extends QueueReport["kind"]>(kind: K): Extract<QueueReport, { kind: K }>[];
}

/** A queue over the fake port on a SimClock at t = 0, with header sync wired like the daemon wires it. */
export function rig(
  o: {
    port?: Omit<FakePortOptions, "clock">;
    budget?: Partial<RateBudgetOptions>;
    queue?: Partial<Omit<OrderQueueOptions, "clock" | "port" | "budget" | "onReport">>;
    /** Builds the signer from the rig's clock (for signers that take simulated time). */
    signer?: (clock: SimClock) => OrderQueueOptions["sign"];
  } = {},
): Rig {
  const clock = new SimClock(0);
  const port = new FakeExchangePort({ clock, ...o.port });
  const budget = new RateBudget({ rateLimitPerMin: 600, ...o.budget });
  const reports: QueueReport[] = [];
  const queue = new OrderQueue({
    clock,
    port,
    budget,
    sign: o.signer?.(clock) ?? testSign,
    onReport: (r) => reports.push(r),
    rateLimitState: (e) => port.rateLimit(e),
    ...o.queue,
  });
  const of = <K extends QueueReport["kind"]>(kind: K) =>
    reports.filter((r): r is Extract<QueueReport, { kind: K }> => r.kind === kind);
  return { clock, port, budget, queue, reports, of };
}
