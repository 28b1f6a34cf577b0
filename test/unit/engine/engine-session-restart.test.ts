import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createEngine, type TradingEngine } from "../../../src/engine/engine.js";
import { parseRiskConfig } from "../../../src/risk/config.js";
import { RiskGuard } from "../../../src/risk/guard.js";
import { parseStrategyConfig } from "../../../strategies/registry.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { BANDS, Harness } from "./support/harness.js";
import { testSign } from "./support/sign.js";

/**
 * `engine.session` (MM_ENGINE_SESSION) may be set to a fixed tag. The exchange deduplicates on
 * clientOrderId (mm-<session>-<token>-<side><level>-<seq>) and answers a repeat with the FIRST
 * placement's stored result: no new order. A restarted bot under the same tag must therefore never
 * mint the ids of the run before: the sequence starts from the clock (engine-wiring.ts firstSeqAt).
 */
function secondRun(h: Harness): TradingEngine {
  const strategy = parseStrategyConfig(BANDS);
  const engine = createEngine({
    clock: h.clock,
    exchange: h.exchange,
    sign: async (i) => testSign(i, h.markets),
    markets: h.markets,
    strategyFor: () => strategy,
    risk: new RiskGuard(parseRiskConfig({})),
    logger: pino({ level: "silent" }, collectingStream()),
    options: { session: "t1", reconcileIntervalMs: 30_000 }, // the same configured tag as the first run
  });
  h.tracker.onState((s) => engine.onBookState(s));
  h.tracker.onBook((b) => engine.onBook(b.tokenId, b));
  for (const m of h.markets) {
    const st = h.tracker.state(m.tokenId);
    const book = h.tracker.book(m.tokenId);
    if (st !== undefined) engine.onBookState(st);
    if (book !== undefined) engine.onBook(m.tokenId, book);
  }
  return engine;
}

describe("engine lifecycle: a restart under a configured session tag", () => {
  it("quotes again after the restart (its placements are new orders, not the last run's)", async () => {
    const h = new Harness(); // session "t1", as engine.session would fix it
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    const stopping = h.engine.stop("sigterm", 5_000);
    await h.run(1_000);
    expect(await stopping).toEqual({ openOrders: 0 });
    expect(h.botQuotes(yes)).toEqual([]);

    const again = secondRun(h);
    await again.start();
    await h.run(100); // well before the periodic reconcile
    // The second run believes both quotes rest...
    expect(again.liveOrders().filter((o) => o.state === "open")).toHaveLength(2);
    // ...and they must actually rest on the exchange.
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });
});
