import { pino } from "pino";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { DesiredQuote } from "../../../src/core/trading.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { OVERSIZE_SIZES_PER_TOKEN, OversizeNotice } from "../../../src/engine/oversize-notice.js";
import { createMetrics } from "../../../src/observability/metrics.js";
import { quoteDecision } from "../../../src/risk/decision.js";
import { type ConfiguredStrategy, parseStrategyConfig } from "../../../strategies/registry.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { Harness } from "./support/harness.js";

/*
 * Session 17: with `oversize: "drop"`, a strategy size above order.maxSize is never quoted. The
 * guard's standing line said so at info among its other decisions, and mm_risk_decisions_total
 * counted every quoting step; nothing at warn, and nothing an alert could read as "a size became
 * unquotable". Now: one warn line per token and size, and mm_risk_oversize_sizes_total.
 */

const NOTICE = "risk: quote size above order.maxSize is never quoted (dropped, not clipped)";

const bands = (size: string) => ({
  name: "bands",
  params: { reference: "mid", bands: [{ margin: "0.03", size }] },
});

describe("engine: a size order.maxSize drops (oversize: drop)", () => {
  it("is warned once per token and size, however many steps drop it, and a new size once more", async () => {
    let inner = parseStrategyConfig(bands("10"));
    const strategy: ConfiguredStrategy = {
      name: inner.name,
      params: inner.params,
      quote: (c) => inner.quote(c),
    };
    const h = new Harness({ configured: strategy, risk: { order: { maxSize: "5", oversize: "drop" } } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    for (let i = 0; i < 10; i++) {
      h.crowdQuote(yes, i % 2 === 0 ? "0.47" : "0.48", "0.52");
      await h.run(100);
    }
    expect(h.botQuotes(yes)).toEqual([]);
    inner = parseStrategyConfig(bands("12"));
    for (let i = 0; i < 10; i++) {
      h.crowdQuote(yes, i % 2 === 0 ? "0.47" : "0.48", "0.52");
      await h.run(100);
    }
    const warned = h.logs.records().filter((r) => r.msg === NOTICE && r.tokenId === yes);
    // The bid and the ask of one band share their size: one line per size.
    expect(warned.map((r) => [Number(r.level), r.size, r.maxSize])).toEqual([
      [40, "10", "5"],
      [40, "12", "5"],
    ]);
    expect(
      h
        .eventsOf("oversize_dropped")
        .filter((e) => e.tokenId === yes)
        .map((e) => e.size),
    ).toEqual(["10", "12"]);
  });

  it("is not warned under the clip policy (the size is quoted, clipped)", async () => {
    const h = new Harness({
      configured: parseStrategyConfig(bands("10")),
      risk: { order: { maxSize: "5" } },
    });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run(500);
    expect(h.botQuotes(yes).length).toBe(2);
    expect(h.logs.records().filter((r) => r.msg === NOTICE)).toEqual([]);
    expect(h.eventsOf("oversize_dropped")).toEqual([]);
  });
});

describe("OversizeNotice", () => {
  it("tells at most OVERSIZE_SIZES_PER_TOKEN sizes per token, and counts each in mm_risk_oversize_sizes_total", async () => {
    const sink = collectingStream();
    const registry = new Registry();
    const metrics = createMetrics({
      registry,
      maxMarketLabels: 2,
      clock: new SimClock(0),
      defaultMetrics: false,
    });
    const events: EngineEvent[] = [];
    const notice = new OversizeNotice(pino({ level: "debug" }, sink), (e) => {
      events.push(e);
      metrics.listener(e);
    });
    const q = (size: bigint): DesiredQuote => ({
      side: "buy",
      level: 0,
      priceMicro: 470_000,
      sizeMicro: size,
    });
    const drop = (size: bigint) =>
      quoteDecision("order_size_exceeded", "drop", { tokenId: "a", marketId: "m1" }, q(size), { limit: "5" });
    for (let n = 0; n < 3; n++)
      for (let s = 6n; s < 6n + BigInt(OVERSIZE_SIZES_PER_TOKEN) + 4n; s++)
        notice.see([drop(s * 1_000_000n)], n);
    expect(events).toHaveLength(OVERSIZE_SIZES_PER_TOKEN);
    expect(sink.records().filter((r) => r.msg === NOTICE)).toHaveLength(OVERSIZE_SIZES_PER_TOKEN);
    // Another token has its own sizes; a clipped quote is not told.
    notice.see(
      [quoteDecision("order_size_exceeded", "drop", { tokenId: "b", marketId: "m1" }, q(6_000_000n))],
      9,
    );
    notice.see(
      [quoteDecision("order_size_clipped", "clip", { tokenId: "c", marketId: "m1" }, q(6_000_000n))],
      9,
    );
    expect(events).toHaveLength(OVERSIZE_SIZES_PER_TOKEN + 1);
    const text = await registry.metrics();
    expect(text).toMatch(
      new RegExp(`^mm_risk_oversize_sizes_total\\{market="[^"]+"\\} ${OVERSIZE_SIZES_PER_TOKEN + 1}$`, "m"),
    );
  });
});
