import { describe, expect, it } from "vitest";
import type { ConfiguredStrategy } from "../../../strategies/registry.js";
import { churn, startedWith, TWO_QUOTES } from "./support/strategy-steps.js";

/*
 * A strategy that fails on some book states and not others (it throws on a one-sided or a too-wide
 * book, say) fails and succeeds by turns as the book flips. Each success ended the failing episode
 * and each failure began a new one, so every flip wrote `strategy failed: no quote` at error with
 * its stack and every flip back `strategy recovered`: the flood the throttle was there to stop,
 * at the quoting rate, per token.
 */
describe("engine: a strategy failing every other step", () => {
  it("logs a handful of lines a minute, not two per flip", async () => {
    let calls = 0;
    const s: ConfiguredStrategy = {
      name: "flappy",
      params: {},
      quote: () => {
        calls++;
        if (calls > 5 && calls % 2 === 0) throw new Error("book one-sided");
        return [...TWO_QUOTES];
      },
    };
    const { h, yes } = await startedWith(s);
    await churn(h, yes, 200);
    const failures = h.eventsOf("strategy_failed").length;
    expect(failures).toBeGreaterThanOrEqual(90); // every failure still counted
    const lines = h.logs
      .records()
      .filter((r) => typeof r.msg === "string" && r.msg.startsWith("strategy ") && r.tokenId === yes);
    // The first failure, the first recovery, the relapse after it; then counted (a line a minute).
    expect(lines.map((r) => r.msg)).toEqual([
      "strategy failed: no quote",
      "strategy recovered",
      "strategy failed: no quote",
    ]);
  });
});
