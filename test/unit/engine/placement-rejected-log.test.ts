import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

/*
 * A rejected placement's warn line carries the exchange's own words, not only its code: an operator
 * whose configured tick disagrees with the market's saw `invalid_amounts` over and over, then a
 * wallet-wide error-rate halt, with nothing saying which price or why.
 */
describe("engine: a rejected placement's log line", () => {
  it("names the exchange's message, status and the order's side, price and size", async () => {
    const h = new Harness();
    const [token] = h.tokens(1);
    h.crowdQuote(token, "0.48", "0.52");
    h.exchange.scriptPlace({ kind: "reject", code: "invalid_amounts" });
    await h.engine.start();
    await h.run();
    const line = h.logs.records().find((r) => r.msg === "placement rejected");
    expect(line).toMatchObject({
      level: 40,
      tokenId: token,
      code: "invalid_amounts",
      httpStatus: 400,
      exchangeMessage: "invalid_amounts",
    });
    expect(["buy", "sell"]).toContain(line?.side);
    expect(typeof line?.priceMicro).toBe("number");
    expect(line?.sizeMicro).toMatch(/^\d+$/);
  });
});
