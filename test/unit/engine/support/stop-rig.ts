import { expect } from "vitest";
import { ExchangeError, type ExchangeErrorInit } from "../../../../src/exchange/exchange-error.js";
import { Harness } from "./harness.js";

/*
 * Set-ups of the engine stop tests (engine-stop-*.test.ts): a started harness with its quotes
 * resting, and an exchange that refuses the stop's requests.
 */

/** The stop's requests: a cancel, a cancel-all, the open-orders read. */
export type StopOp = "cancel" | "cancel_all" | "open_orders";

/** Three bands: six quotes in one market, enough for the queue to prefer one cancel-all to their cancels. */
export const THREE_BANDS = {
  name: "bands",
  params: {
    reference: "mid",
    bands: [
      { margin: "0.03", size: "10" },
      { margin: "0.05", size: "10" },
      { margin: "0.07", size: "10" },
    ],
  },
};

/**
 * A started harness quoting a bid and an ask (per band) on one token, all resting on the venue
 * (the default strategy's two quotes checked).
 */
export async function started(strategy?: unknown): Promise<{ h: Harness; yes: string }> {
  const h = new Harness(strategy === undefined ? {} : { strategy });
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.48", "0.52");
  await h.engine.start();
  await h.run(100);
  if (strategy === undefined) expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  return { h, yes };
}

const ENDPOINTS: Record<StopOp, string> = {
  cancel: "POST /api/orders/cancel",
  cancel_all: "POST /api/orders/cancel-all",
  open_orders: "GET /api/orders/open",
};

const FAKE_METHOD = { cancel: "cancel", cancel_all: "cancelAll", open_orders: "openOrders" } as const;

/**
 * Makes the exchange refuse each of `ops` for good (outcome rejected) with `refusal`'s code,
 * status, message and details, recording each refused call as `<op>_refused`.
 */
export function refuse(
  h: Harness,
  ops: readonly StopOp[],
  refusal: Pick<ExchangeErrorInit, "code" | "message" | "httpStatus" | "details">,
): void {
  for (const op of ops) {
    h.exchange[FAKE_METHOD[op]] = async () => {
      h.exchange.calls.push({ op: `${op}_refused`, atMs: h.clock.now(), arg: "" });
      throw new ExchangeError({ ...refusal, outcome: "rejected", endpoint: ENDPOINTS[op] });
    };
  }
}
