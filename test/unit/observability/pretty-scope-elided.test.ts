import { describe, expect, it } from "vitest";
import { prettyFields } from "../../../src/observability/pretty-fields.js";

describe("terminal log: a field is left out only when the message says that value", () => {
  it("shows scope=market on a market-wide market_not_open (the message only says it within the reason)", () => {
    // As src/engine/engine-decisions.ts #write logs a marketDecision (risk/guard.ts onMarketStatus):
    // a cancel-all of the whole market. The token-wide variant of the same reason shows scope=token.
    const fields = prettyFields({
      level: 40,
      msg: "risk: market_not_open",
      reason: "market_not_open",
      action: "cancel",
      scope: "market",
      marketId: "9a7b0c1d-0000-4000-8000-000000000300",
      status: "PAUSED",
    });
    expect(fields).toContain("scope=market");
  });
});
