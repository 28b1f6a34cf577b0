import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockHarness, WALLET } from "./harness.js";

/**
 * Spec, "Signed order payload": feeRateBps must equal the market's feeTakerBps verbatim; the
 * platform rebuilds the struct with it, so an order signed with another fee fails `bad_signature`
 * ("the usual cause is feeRateBps not equal to the market's feeTakerBps"). The mock used to build the canonical struct from an optional body `feeRateBps` when one was sent,
 * so an order signed at a lower fee was accepted as long as the body named that fee (found by
 * review); the market's fee is now always used.
 */

let h: MockHarness;
beforeAll(async () => {
  h = await MockHarness.start();
});
afterAll(() => h.close());

const place = (body: unknown) => h.fetch("/api/orders/place", { key: h.keys.trader, body });

describe("mock placement: feeRateBps must be the market's feeTakerBps", () => {
  it("control: body feeRateBps equal to the market's (200 on ARG-WIN) is accepted", async () => {
    const body = await h.order(WALLET.mm, "ARG-WIN", { side: "buy", price: "0.1", quantity: "1" });
    const res = await place({ ...body, feeRateBps: 200 });
    expect([res.status, res.body.status]).toEqual([201, "OPEN"]);
  });

  it("an order signed with feeRateBps 100 on a 200 bps market is refused bad_signature even when the body says 100", async () => {
    expect(h.market("ARG-WIN").feeTakerBps).toBe(200);
    const body = await h.order(WALLET.mm, "ARG-WIN", {
      side: "buy",
      price: "0.1",
      quantity: "1",
      feeTakerBps: 100,
    });
    const res = await place({ ...body, feeRateBps: 100 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: "REJECTED",
      code: "bad_signature",
      details: { platform_canonical_struct: { feeRateBps: "200" } },
    });
  });
});
