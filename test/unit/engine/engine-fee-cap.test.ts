import { describe, expect, it } from "vitest";
import { assertFeeBps } from "../../../src/core/fees.js";
import type { PlaceOrderRequest } from "../../../src/core/types.js";
import type { MarketRecordStatus } from "../../../src/engine/ports.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import { badSignature } from "./support/fee-fakes.js";
import { Harness, type HarnessOptions } from "./support/harness.js";
import { testSign } from "./support/sign.js";

/*
 * A market whose feeTakerBps is above the spec's cap (1000) cannot be traded: every order is signed
 * with its fee verbatim and local signing refuses it `fee_too_high`. Those failures counted towards
 * the wallet-wide error-rate halt (one per 1.5 s), so one such market stopped quoting on every
 * market, again after each cool-down (review22). It is held instead (fee-cap.ts): not quoted,
 * warned once, gated `market_unquotable`.
 */

/** A harness whose signer checks the fee as the real one does (assertFeeBps: `fee_too_high`). */
function feeChecked(o: HarnessOptions): Harness {
  return new Harness({
    ...o,
    sign: (markets) => async (i, market) => {
      assertFeeBps(market?.feeTakerBps ?? 0);
      return testSign(i, markets);
    },
  });
}

const signFailures = (h: Harness) =>
  h.logs.records().filter((r) => r.msg === "placement not sent: signing failed").length;
const halted = (h: Harness) => h.logs.records().some((r) => r.msg === "risk: error_rate_halt");
const feeWarnings = (h: Harness) =>
  h.logs.records().filter((r) => String(r.msg).startsWith("market's feeTakerBps 1500 is above the cap"));
const unquotable = (h: Harness) =>
  h
    .eventsOf("decision")
    .filter((e) => e.decision.reason === "market_unquotable" && e.decision.scope === "market");

describe("engine: a market whose feeTakerBps is above the cap", () => {
  it("listed so at start: held (warned once, never signed), while the other markets quote on", async () => {
    const h = feeChecked({ markets: 2, fee: (i) => (i === 1 ? 1500 : 0) });
    const [a, aNo] = h.tokens(1);
    const [b] = h.tokens(2);
    for (const t of [a, aNo, b]) h.crowdQuote(t, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    // Its book keeps moving for 60 s: each move would have been a placement failing to sign.
    for (let i = 0; i < 30; i++) {
      h.crowdQuote(a, i % 2 === 0 ? "0.47" : "0.48", "0.52");
      await h.run(2_000);
    }
    expect(h.botQuotes(a)).toEqual([]);
    expect(h.botQuotes(aNo)).toEqual([]);
    expect(signFailures(h)).toBe(0);
    expect(halted(h)).toBe(false);
    expect(h.botQuotes(b)).toHaveLength(2);
    expect(feeWarnings(h)).toHaveLength(1);
    expect(feeWarnings(h)[0]).toMatchObject({ level: 40, marketId: "m1", feeTakerBps: 1500 });
    expect(unquotable(h)).toHaveLength(1);
    expect(unquotable(h)[0]?.decision).toMatchObject({ marketId: "m1", detail: { status: "FEE_TOO_HIGH" } });
  });

  it("read so after a bad_signature: its quotes are pulled and it is held, the halt never trips", async () => {
    const h = feeChecked({ markets: 2 });
    const [a] = h.tokens(1);
    const [b] = h.tokens(2);
    let fee = 0;
    // The exchange refuses a placement not signed with the market's fee now; its record says that fee.
    const place = h.exchange.place.bind(h.exchange);
    h.exchange.place = async (req: PlaceOrderRequest): Promise<PlaceOrderOutcome> => {
      return fee === 0 || req.marketId !== "m1" ? place(req) : badSignature();
    };
    h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => ({ status: "OPEN", feeTakerBps: fee });
    for (const t of [a, b]) h.crowdQuote(t, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(a)).toHaveLength(2);
    fee = 1500;
    for (let i = 0; i < 30; i++) {
      h.crowdQuote(a, i % 2 === 0 ? "0.47" : "0.48", "0.52");
      await h.run(2_000);
    }
    expect(h.botQuotes(a)).toEqual([]);
    expect(signFailures(h)).toBe(0);
    expect(halted(h)).toBe(false);
    expect(feeWarnings(h)).toHaveLength(1);
    expect(unquotable(h)).toHaveLength(1);
    expect(h.botQuotes(b)).toHaveLength(2);
  });
});
