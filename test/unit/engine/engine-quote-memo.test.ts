import { describe, expect, it } from "vitest";
import { type ConfiguredStrategy, parseStrategyConfig } from "../../../strategies/registry.js";
import type { StrategyContext } from "../../../strategies/types.js";
import { BANDS, Harness, type HarnessOptions } from "./support/harness.js";

/*
 * A quoting step whose inputs did not change since the token's last step, when that step sent
 * nothing, is skipped (QuoteMemo): the strategy is not called again. These tests watch the
 * strategy's calls while the book changes in ways the strategy did or did not read.
 */

interface Counting extends ConfiguredStrategy {
  calls: number;
}

function counting(read?: (ctx: StrategyContext) => void): Counting {
  const inner = parseStrategyConfig(BANDS);
  const s: Counting = {
    name: inner.name,
    params: inner.params,
    calls: 0,
    quote(ctx) {
      s.calls++;
      read?.(ctx);
      return inner.quote(ctx);
    },
  };
  return s;
}

async function started(
  strategy: Counting,
  risk?: unknown,
  options?: HarnessOptions["options"],
): Promise<{ h: Harness; yes: string }> {
  const h = new Harness({
    configured: strategy,
    ...(risk === undefined ? {} : { risk }),
    ...(options === undefined ? {} : { options }),
  });
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.48", "0.52");
  await h.engine.start();
  await h.run();
  return { h, yes };
}

describe("engine: quoting steps whose inputs did not change are skipped", () => {
  it("does not call a mid-reading strategy again for changes away from the touch or of its sizes", async () => {
    const s = counting();
    const { h, yes } = await started(s);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    const before = s.calls;
    const steps = h.exchange.calls.length;
    h.crowdOrder(yes, "buy", "0.40"); // a deeper level
    await h.run();
    h.crowdOrder(yes, "sell", "0.52"); // more size at the best ask: bands reads prices only
    await h.run();
    expect(s.calls).toBe(before);
    expect(h.exchange.calls.length).toBe(steps);
    h.crowdOrder(yes, "buy", "0.49"); // the best bid moves: mid 0.50 → 0.505
    await h.run();
    expect(s.calls).toBeGreaterThan(before); // and again as the requote's answers change our orders
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.54 10"]);
  });

  it("calls a microprice strategy again when a best size changes", async () => {
    const s = counting((ctx) => ctx.book.microprice());
    const { h, yes } = await started(s);
    const before = s.calls;
    h.crowdOrder(yes, "buy", "0.40");
    await h.run();
    expect(s.calls).toBe(before);
    h.crowdOrder(yes, "sell", "0.52");
    await h.run();
    expect(s.calls).toBe(before + 1);
  });

  it("calls a strategy that reads depth on every book change", async () => {
    const s = counting((ctx) => ctx.book.depthAt("bid", 400_000));
    const { h, yes } = await started(s);
    const before = s.calls;
    h.crowdOrder(yes, "buy", "0.40");
    await h.run();
    h.crowdOrder(yes, "buy", "0.39");
    await h.run();
    expect(s.calls).toBe(before + 2);
  });

  it("calls a strategy that reads the clock again once time has passed", async () => {
    const s = counting((ctx) => ctx.nowMs);
    // Events alone: the time-driven requote (requote-timer.test.ts) would step it at the second too.
    const { h, yes } = await started(s, undefined, { requoteIntervalMs: 0 });
    const before = s.calls;
    h.crowdOrder(yes, "buy", "0.40");
    await h.run(); // same clock time as the last step: skipped
    expect(s.calls).toBe(before);
    await h.run(1_000);
    h.crowdOrder(yes, "buy", "0.39");
    await h.run();
    expect(s.calls).toBe(before + 1);
  });

  it("calls it again after the token's orders changed, and reports a skipped step's decisions again", async () => {
    // Orders clipped to 5 shares: every step that quotes takes two clip decisions.
    const s = counting();
    const { h, yes } = await started(s, { order: { maxSize: "5" } });
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 5", "sell 0.53 5"]);
    const decisions = h.eventsOf("decision").length;
    const before = s.calls;
    h.crowdOrder(yes, "buy", "0.40");
    await h.run();
    expect(s.calls).toBe(before);
    expect(h.eventsOf("decision").length).toBe(decisions + 2);
    h.take(yes, "sell", "0.47", "102"); // through the crowd's 0.48 to part of our 0.47 bid: the token's orders changed
    await h.run();
    expect(s.calls).toBeGreaterThan(before);
  });

  it("runs again when the market moves behind our own best quote (the memo reads the book without our orders)", async () => {
    const s = counting();
    const h = new Harness({ configured: s });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.44", "0.56");
    await h.engine.start();
    await h.run();
    // Our quotes are the book's best levels: its touch is 0.47 / 0.53 whatever the crowd does behind.
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    const before = s.calls;
    h.crowdOrder(yes, "buy", "0.46"); // the market without us: 0.46 / 0.56, mid 0.51
    await h.run();
    expect(s.calls).toBeGreaterThan(before);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.48 10", "sell 0.54 10"]);
  });
});
