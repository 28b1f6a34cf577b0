import { describe, expect, it } from "vitest";
import { TradingEngine } from "../../../src/engine/engine.js";
import type { EngineLike } from "../../../src/observability/metrics.js";

describe("metrics ← engine", () => {
  it("the engine offers every read the metrics make (positions and PnL come from its accounts)", () => {
    // Compile-time: every optional read of EngineLike must exist on the engine, so renaming one (say
    // accounts) cannot silently leave the position and PnL gauges at zero.
    const asWatched = (e: TradingEngine): Required<EngineLike> => e;
    expect(asWatched).toBeTypeOf("function");
    expect(TradingEngine.prototype.accounts).toBeTypeOf("function");
    expect(TradingEngine.prototype.liveOrders).toBeTypeOf("function");
  });
});
