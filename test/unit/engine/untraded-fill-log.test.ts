import { describe, expect, it } from "vitest";
import type { Fill } from "../../../src/core/trading.js";
import { Harness, T0 } from "./support/harness.js";

/*
 * A user_fill on a token this run does not trade (an earlier run's order filled before its orphan
 * cancel landed, another process on the wallet). Before fix8-fills2 the engine emitted `fill` and the
 * daemon's reporter wrote the operator's line "fill: buy 7.123456 @ 0.437 <token> (position …)". Now
 * the only line is the engine's info "fill on a token this run does not trade: handed to the journal",
 * and it carries tradeId, orderId, tokenId and side but neither the price nor the size. With
 * `journal.enabled: "false"` (README) that line is the only trace of the wallet's change: the
 * operator cannot tell how much was bought or at what price.
 */
describe("the log line of a fill on a token this run does not trade", () => {
  it("names the fill's size and price (the only record of it without a journal)", async () => {
    const h = new Harness();
    await h.engine.start();
    await h.run(100);
    const foreign: Fill = {
      tradeId: "t-foreign",
      orderId: "o-foreign",
      clientOrderId: undefined,
      tokenId: "424242",
      side: "buy",
      priceMicro: 437_000,
      sizeMicro: 7_123_456n,
      tsMs: T0 + 50,
    };
    h.engine.onFill(foreign);
    await h.run(100);
    const line = h.logs.records().find((r) => r.tradeId === "t-foreign");
    expect(line).toBeDefined();
    const text = JSON.stringify(line);
    expect(text.includes("7123456") || text.includes("7.123456")).toBe(true);
    expect(text.includes("437000") || text.includes("0.437")).toBe(true);
  });
});
