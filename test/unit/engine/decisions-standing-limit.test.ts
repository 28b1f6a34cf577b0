import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import { DecisionLog } from "../../../src/engine/engine-decisions.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { quoteDecision, tokenDecision } from "../../../src/risk/decision.js";
import { type ConfiguredStrategy, parseStrategyConfig } from "../../../strategies/registry.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { CROWD, Harness } from "./support/harness.js";

/*
 * A risk limit below the strategy's order size drops the same quotes on every step: the decision
 * stands, and the log must say so once — not once per step the book happened to be one-sided
 * (nothing desired, so nothing judged) — while the listener still receives every decision.
 */

const SMALL = { order: { maxSize: "0.5" } };

const bands = (size: string) => ({
  name: "bands",
  params: { reference: "mid", bands: [{ margin: "0.03", size }] },
});

/** The info lines of the limit and of its end, for one token. */
function lines(h: Harness, tokenId: string): string[] {
  return h.logs
    .records()
    .filter((r) => Number(r.level) >= 30 && r.tokenId === tokenId)
    .map((r) => String(r.msg))
    .filter((m) => m === "risk: order_size_exceeded" || m === "risk: cleared");
}

describe("engine: a limit that keeps dropping the same quotes is logged once", () => {
  it("over 20 book updates, some of them one-sided moments, logs the dropped quotes once and no clearing", async () => {
    const h = new Harness({ risk: SMALL });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes)).toEqual([]);
    const decisionsBefore = h.eventsOf("decision").length;
    for (let i = 0; i < 20; i++) {
      if (i % 4 === 1) {
        // The crowd cancels its ask before re-placing it: the book is one-sided for a moment.
        for (const o of h.venue.openOrders(CROWD)) {
          if (o.tokenId === yes && o.side === "sell") h.venue.cancel(CROWD, o.id);
        }
        await h.run(100);
        h.crowdOrder(yes, "sell", "0.52", "100");
      } else {
        h.crowdQuote(yes, i % 2 === 0 ? "0.47" : "0.48", "0.52");
      }
      await h.run(100);
    }
    // bands quotes a bid and an ask of 10: both dropped, each logged once, never cleared.
    expect(lines(h, yes)).toEqual(["risk: order_size_exceeded", "risk: order_size_exceeded"]);
    // The listener keeps receiving every step's decisions (metrics count them).
    expect(h.eventsOf("decision").length).toBeGreaterThan(decisionsBefore + 20);
  });

  it("logs the clearing once when the limit really stops applying (the strategy's size fits)", async () => {
    // A strategy whose band size the test switches: 10 shares (above maxSize 5, dropped), then 2.
    let inner = parseStrategyConfig(bands("10"));
    const strategy: ConfiguredStrategy = {
      name: inner.name,
      params: inner.params,
      quote: (ctx) => inner.quote(ctx),
    };
    const h = new Harness({ configured: strategy, risk: { order: { maxSize: "5", oversize: "drop" } } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    for (let i = 0; i < 6; i++) {
      h.crowdQuote(yes, i % 2 === 0 ? "0.47" : "0.48", "0.52");
      await h.run(100);
    }
    expect(h.botQuotes(yes)).toEqual([]);
    inner = parseStrategyConfig(bands("2"));
    for (let i = 0; i < 6; i++) {
      h.crowdQuote(yes, i % 2 === 0 ? "0.47" : "0.48", "0.52");
      await h.run(100);
    }
    expect(h.botQuotes(yes).length).toBe(2);
    expect(lines(h, yes)).toEqual([
      "risk: order_size_exceeded",
      "risk: order_size_exceeded",
      "risk: cleared",
    ]);
  });
});

describe("DecisionLog: a step that judged no quote", () => {
  it("keeps a standing quote limit, but ends a standing gate (a gate is judged without quotes)", () => {
    const sink = collectingStream();
    const events: EngineEvent[] = [];
    const log = new DecisionLog(
      pino({ level: "debug" }, sink),
      (e) => events.push(e),
      () => true,
    );
    const q: DesiredQuote = { side: "buy", level: 0, priceMicro: 470_000, sizeMicro: 10_000_000n };
    const limit = quoteDecision("order_size_exceeded", "drop", { tokenId: "a", marketId: "m1" }, q);
    log.step("a", [limit], 1);
    log.step("a", [], 2, false);
    log.step("a", [limit], 3);
    log.step("a", [tokenDecision("book_crossed", "a", "m1")], 4);
    log.step("a", [], 5, false);
    log.step("a", [], 6, false);
    // The standing lines; the size's one-off warn (OversizeNotice) is apart and told once.
    const shown = sink
      .records()
      .filter((r) => Number(r.level) >= 30 && !String(r.msg).includes("never quoted"))
      .map((r) => String(r.msg));
    expect(shown).toEqual(["risk: order_size_exceeded", "risk: book_crossed", "risk: cleared"]);
    expect(events.filter((e) => e.type === "decision")).toHaveLength(3);
    expect(events.filter((e) => e.type === "oversize_dropped")).toHaveLength(1);
  });
});
