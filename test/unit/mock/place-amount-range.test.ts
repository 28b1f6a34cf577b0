import { afterAll, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Address } from "../../../src/core/types.js";
import { buildMockContext } from "../../../src/mock/build-context.js";
import { HttpProblem } from "../../../src/mock/http/problem.js";
import { parsePlacementBody } from "../../../src/mock/http/routes/place-body.js";
import { canonicalOrder } from "../../../src/mock/http/routes/place-signature.js";
import { routeDeps } from "../../../src/mock/http/routes/shared.js";
import { defaultScenarioPath, loadScenario } from "../../../src/mock/scenario/load.js";

// Regression (found by test/fuzz/mock-http.test.ts): a placement whose quantity made an amount
// exceed uint256 got through the struct builder and crashed the signature check's encoder, so
// the mock answered 500 with an empty body. It is 400 invalid_amounts in the placement envelope.
describe("placement amounts beyond uint256", () => {
  const scenario = loadScenario(defaultScenarioPath());
  const ctx = buildMockContext({ scenario, clock: new SimClock(Date.parse("2026-06-01T00:00:00Z")) });
  const deps = routeDeps(ctx);
  afterAll(() => ctx.venue.dispose());
  const market = scenario.markets[0];
  if (market === undefined) throw new Error("the default scenario has no market");
  const wallet = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" as Address;
  const body = (quantity: string) =>
    parsePlacementBody({
      marketId: market.id,
      side: "buy",
      outcome: "YES",
      price: "0.05",
      quantity,
      nonce: "1",
      expiry: 0,
      maker: wallet,
      signature: `0x${"ab".repeat(65)}`,
    });
  const outcome = { label: "YES", tokenId: market.yesTokenId };

  it("refuses 400 invalid_amounts when an amount does not fit a uint256", () => {
    let thrown: unknown;
    try {
      canonicalOrder(deps, body("9".repeat(72)), market, outcome, wallet);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(HttpProblem);
    expect(thrown).toMatchObject({ status: 400, code: "invalid_amounts", envelope: "placement" });
    expect((thrown as HttpProblem).details).toMatchObject({ field: "takerAmount", reason: "out_of_range" });
  });

  it("still builds the largest quantity that fits", () => {
    const max = ((1n << 256n) - 1n) / 1_000_000n; // takerAmount = qty in wei, below 2^256
    const order = canonicalOrder(deps, body(max.toString()), market, outcome, wallet);
    expect(order.struct.takerAmount).toBe(max * 1_000_000n);
  });
});
