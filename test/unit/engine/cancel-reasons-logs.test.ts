import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { type CancelReasonsRig, cancelReasonsRigs } from "./support/cancel-reasons-rig.js";

/*
 * A failed or ambiguous cancel of one of our own orders logs one line with its clientOrderId, code
 * and reason (review 22: only the orphan cancel, the cancel-all and the shutdown sweep had one,
 * though the README said the cancel's warn line carries its reason). A cancel that lost the race
 * against a fill (not_cancellable: each fill crossing a requote makes one) is an info line; any
 * other failure, and an unanswered cancel whose order may still rest, a warn.
 */

const INFO = 30;
const WARN = 40;

const newRig = cancelReasonsRigs();

/** A rig quoting token 1's yes at 0.47/0.53, its answers 50 ms on. */
async function quoting(): Promise<{ r: CancelReasonsRig; yes: string }> {
  const r = newRig({ latencyMs: 50 });
  const yes = await r.startQuoting();
  expect(r.h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  return { r, yes };
}

const cancelLines = (r: CancelReasonsRig) =>
  r.h.logs.records().filter((l) => typeof l.msg === "string" && l.msg.startsWith("cancel "));

describe("the log line of a failed cancel of our own order", () => {
  it("a cancel the fill beat: one info line with its reason, no warn", async () => {
    const { r, yes } = await quoting();
    r.h.crowdQuote(yes, "0.44", "0.48"); // requote: both cancels leave, answered 50 ms on
    await r.h.run(10);
    r.h.take(yes, "sell", "0.47", "10"); // our bid fills before its cancel lands
    await r.h.run(2_000);
    const failed = r.h.eventsOf("cancel_outcome").filter((e) => e.outcome === "failed");
    expect(failed.map((e) => e.reason)).toEqual(["requote"]);
    expect(r.journaled("cancel")).toContain("requote");
    const lines = cancelLines(r);
    expect(lines).toEqual([
      expect.objectContaining({
        level: INFO,
        msg: "cancel found the order gone",
        clientOrderId: failed[0]?.clientOrderId,
        code: "not_cancellable",
        outcome: "failed",
        reason: "requote",
      }),
    ]);
  });

  it("an unanswered cancel: one warn line with its reason", async () => {
    const { r, yes } = await quoting();
    const cancel = r.h.exchange.cancel.bind(r.h.exchange);
    let lost = 0;
    r.h.exchange.cancel = async (orderId) => {
      if (lost++ > 0) return cancel(orderId);
      await cancel(orderId);
      throw new ExchangeError({
        code: "request_timeout",
        message: "no answer within the timeout",
        outcome: "ambiguous",
        endpoint: "POST /api/orders/cancel",
      });
    };
    r.h.crowdQuote(yes, "0.44", "0.48");
    await r.h.run(2_000);
    const ambiguous = r.h.eventsOf("cancel_outcome").filter((e) => e.outcome === "ambiguous");
    expect(ambiguous.map((e) => e.reason)).toEqual(["requote"]);
    expect(cancelLines(r)).toEqual([
      expect.objectContaining({
        level: WARN,
        msg: "cancel ambiguous",
        clientOrderId: ambiguous[0]?.clientOrderId,
        code: "request_timeout",
        reason: "requote",
      }),
    ]);
  });
});
