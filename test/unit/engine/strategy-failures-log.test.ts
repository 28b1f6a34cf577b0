import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import type { ConfiguredStrategy } from "../../../strategies/registry.js";
import type { StrategyContext } from "../../../strategies/types.js";
import { Harness } from "./support/harness.js";
import { churn, logsNamed, startedWith, TWO_QUOTES } from "./support/strategy-steps.js";

/*
 * A strategy that throws on every quoting step (or returns something that is not an array of
 * quotes) logged `strategy failed: no quote` at error on every step: a book that changes ten times
 * a second on a few hundred tokens wrote thousands of identical error lines a second, burying
 * everything else in the log. The first failure of a token (and of each new error message) is
 * what an operator needs, then a count: repeats are suppressed, summed up once a minute while they
 * go on, and a line says when the strategy quotes again. Every failure is still counted
 * (mm_strategy_failures_total, from the strategy_failed event) and still withdraws the token's quotes.
 */

/** Quotes 0.47 / 0.53 until `fault` is set; then throws it, or returns it when it is not an Error. */
function failing(): ConfiguredStrategy & { fault: unknown; calls: number } {
  const s = {
    name: "flaky",
    params: {},
    fault: undefined as unknown,
    calls: 0,
    quote(_ctx: StrategyContext): DesiredQuote[] {
      s.calls++;
      if (s.fault instanceof Error) throw s.fault;
      if (s.fault !== undefined) return s.fault as DesiredQuote[];
      return [...TWO_QUOTES];
    },
  };
  return s;
}

describe("engine: a strategy failing on every step", () => {
  it("logs the first failure and each new message once, counts the rest, sums up each minute, says when it recovers", async () => {
    const s = failing();
    const { h, yes } = await startedWith(s);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    s.fault = new Error("model not fitted");
    const before = s.calls;
    await churn(h, yes, 30);
    const failedCalls = s.calls - before;
    expect(failedCalls).toBeGreaterThanOrEqual(30);
    expect(h.botQuotes(yes)).toEqual([]); // withdrawn, as before
    let failed = logsNamed(h, "strategy failed: no quote");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 50, tokenId: yes, strategy: "flaky" });
    expect((failed[0]?.err as { message?: string } | undefined)?.message).toBe("model not fitted");
    expect((failed[0]?.err as { stack?: string } | undefined)?.stack).toContain("model not fitted");
    // Every failure counted, by strategy and reason.
    const events = h.eventsOf("strategy_failed");
    expect(events).toHaveLength(failedCalls);
    expect(events.every((e) => e.tokenId === yes && e.strategy === "flaky" && e.reason === "threw")).toBe(
      true,
    );

    // A new message is news: logged once too.
    s.fault = "not an array";
    await churn(h, yes, 5);
    failed = logsNamed(h, "strategy failed: no quote");
    expect(failed).toHaveLength(2);
    expect((failed[1]?.err as { code?: string } | undefined)?.code).toBe("strategy_output_invalid");
    expect(h.eventsOf("strategy_failed").at(-1)?.reason).toBe("output_invalid");

    // Still failing a minute on: one summary line with the count since the last line.
    await churn(h, yes, 260, 250); // 65 s
    const still = logsNamed(h, "strategy still failing: no quote");
    expect(still.length).toBeGreaterThanOrEqual(1);
    expect(still.length).toBeLessThanOrEqual(2);
    expect(still[0]).toMatchObject({ level: 50, tokenId: yes, strategy: "flaky" });
    expect(Number(still[0]?.suppressed)).toBeGreaterThan(200);
    expect(logsNamed(h, "strategy failed: no quote")).toHaveLength(2);

    // Quotes again: one line, with the episode's count.
    const total = h.eventsOf("strategy_failed").length;
    s.fault = undefined;
    await churn(h, yes, 3);
    const recovered = logsNamed(h, "strategy recovered");
    expect(recovered).toHaveLength(1);
    expect(recovered[0]).toMatchObject({ level: 30, tokenId: yes, strategy: "flaky", failures: total });
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    // A later failure starts a new episode: logged again.
    s.fault = new Error("model not fitted");
    await churn(h, yes, 3);
    expect(logsNamed(h, "strategy failed: no quote")).toHaveLength(3);
  });

  it("logs each token's first failure: one token's failures do not hide another's", async () => {
    const s = failing();
    const h = new Harness({ configured: s, markets: 2 });
    const all = [...h.tokens(1), ...h.tokens(2)];
    for (const t of all) h.crowdQuote(t, "0.40", "0.60");
    await h.engine.start();
    await h.run(1000);
    s.fault = new Error("boom");
    for (let i = 0; i < 5; i++) {
      for (const t of all) h.crowdQuote(t, i % 2 === 0 ? "0.41" : "0.40", "0.60");
      await h.run(100);
    }
    const failed = logsNamed(h, "strategy failed: no quote");
    expect(failed.map((r) => r.tokenId).sort()).toEqual([...all].sort());
  });

  it("a message that changes every step (a price in it) is logged at most 4 times per episode", async () => {
    const s = failing();
    const { h, yes } = await startedWith(s);
    let n = 0;
    const quote = s.quote;
    s.quote = (ctx) => {
      quote(ctx);
      throw new Error(`no fit at step ${n++}`);
    };
    await churn(h, yes, 20);
    expect(n).toBeGreaterThanOrEqual(20);
    expect(logsNamed(h, "strategy failed: no quote")).toHaveLength(4);
    expect(h.eventsOf("strategy_failed")).toHaveLength(n);
  });
});
