import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { Harness } from "./support/harness.js";

/*
 * The error-rate halt trips on more than maxErrors order errors in its window, and its bound (the
 * config check in src/config/error-rate-reach.ts) counts one error per order request the queue sends.
 * The engine counted one per report instead: a wallet cancel-all that stood for two kill-switch
 * decisions counted twice. (A placement whose signing failed, nothing sent, counts too: an order
 * attempt that failed; engine-sign-failures.test.ts.) A
 * cancel-all the queue substituted for a market's single cancels answers no report of an intent, and
 * its failure counted nothing (nor was it logged).
 */

/** Trips on the second counted error. */
const risk = { errorRate: { maxErrors: 1, windowMs: 30_000, coolDownMs: 60_000, ignoreCodes: [] } };

/** Three bands a side: twelve orders a market, enough cancels for the queue to fold into a cancel-all. */
const THREE_BANDS = {
  name: "bands",
  params: {
    reference: "mid",
    bands: ["0.03", "0.05", "0.07"].map((margin) => ({ margin, size: "10" })),
  },
};

const halted = (h: Harness) => h.logs.records().some((r) => r.msg === "risk: error_rate_halt");

describe("engine: error-rate counting, one error per request sent", () => {
  it("a failed wallet cancel-all that answered two wallet decisions counts once", async () => {
    const h = new Harness({ risk });
    const [a] = h.tokens();
    h.crowdQuote(a, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(a)).toHaveLength(2);
    let calls = 0;
    h.exchange.cancelAll = async () => {
      calls++;
      const limited = calls === 1;
      throw new ExchangeError({
        code: limited ? "rate_limited" : "invalid_request",
        message: limited ? "slow down" : "refused",
        outcome: limited ? "retryable" : "rejected",
        endpoint: "POST /api/orders/cancel-all",
        httpStatus: limited ? 429 : 400,
        ...(limited ? { retryAfterMs: 1_000 } : {}),
      });
    };
    h.engine.onPlatformStatus(true); // the kill switch's cancel-all: 429, held 1 s, queued again
    await h.run(100);
    h.engine.onPlatformStatus(false);
    h.engine.onPlatformStatus(true); // a second wallet cancel-all joins the one still queued
    await h.run(2_000);
    // One request answered both (later cancel-alls the queue substitutes for a market's cancels
    // answer no decision of their own).
    const wallet = h.eventsOf("cancel_all_outcome").filter((e) => e.marketId === undefined);
    expect(wallet.map((e) => e.outcome)).toEqual(["failed", "failed"]);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(halted(h)).toBe(false);
  });

  it("a cancel-all the queue substituted for a market's cancels counts once when it fails", async () => {
    // Defaults' ignoreCodes: a cancel of an order filled meanwhile is no error.
    const ignoreCodes = ["not_cancellable", "order_not_found", "order_id_unknown"];
    const h = new Harness({
      risk: { errorRate: { ...risk.errorRate, ignoreCodes } },
      strategy: THREE_BANDS,
      markets: 3,
    });
    for (let i = 1; i <= 3; i++) for (const t of h.tokens(i)) h.crowdQuote(t, "0.48", "0.52");
    await h.engine.start();
    await h.run(2_000);
    expect(h.botOrders()).toHaveLength(36);
    h.exchange.cancelAll = async () => {
      throw new ExchangeError({
        code: "invalid_request",
        message: "refused",
        outcome: "rejected",
        endpoint: "POST /api/orders/cancel-all",
        httpStatus: 400,
      });
    };
    // Every quote of every market moves: twelve cancels a market, folded into one cancel-all each.
    for (let i = 1; i <= 3; i++) for (const t of h.tokens(i)) h.crowdQuote(t, "0.45", "0.49");
    await h.run(2_000);
    const substituted = h.logs
      .records()
      .filter((r) => r.msg === "substituted cancel-all failed; its cancels go singly");
    expect(substituted.length).toBeGreaterThanOrEqual(2);
    expect(halted(h)).toBe(true); // two requests refused: more than maxErrors 1
  });
});
