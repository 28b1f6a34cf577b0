import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { Harness } from "./support/harness.js";

/**
 * A wallet-wide gate (drawdown kill switch, platform frozen, error-rate halt) is enforced by ONE
 * wallet cancel-all (enforceDecision → om.killAll). When that cancel-all does not take effect, every
 * token in its scope is requoted (engine-reports.ts), so each gated step cancels its quotes one by
 * one, a quiet market's included.
 */

async function quoting(h: Harness, markets: number): Promise<void> {
  for (let i = 1; i <= markets; i++) h.crowdQuote(h.tokens(i)[0], "0.48", "0.52");
  await h.engine.start();
  await h.run();
}

function refuseCancelAll(h: Harness, outcome: "rejected" | "ambiguous"): void {
  h.exchange.cancelAll = async () => {
    h.exchange.calls.push({ op: "cancel_all", atMs: h.clock.now(), arg: "refused" });
    throw new ExchangeError({
      code: outcome === "rejected" ? "not_implemented" : "request_timeout",
      message: outcome === "rejected" ? "Feature disabled" : "no answer within the timeout",
      outcome,
      endpoint: "POST /api/orders/cancel-all",
      ...(outcome === "rejected" ? { httpStatus: 501 } : {}),
    });
  };
}

describe("engine lifecycle: a wallet gate whose cancel-all does not take effect", () => {
  it("kill switch with cancel-all refused (501): the quiet market's quotes are still cancelled", async () => {
    const h = new Harness({ markets: 2, risk: { killSwitch: { maxDrawdown: "1" } } });
    const [a] = h.tokens(1);
    const [b] = h.tokens(2);
    await quoting(h, 2);
    expect(h.botQuotes(b)).toHaveLength(2);
    refuseCancelAll(h, "rejected");
    h.take(a, "sell", "0.47", "110"); // we buy 10 at 0.47
    h.crowdQuote(a, "0.48", "0.52");
    await h.run();
    h.crowdQuote(a, "0.30", "0.34"); // sweeps our bid too: long 20 at 0.47, marked at 0.32 → −3 USDC
    await h.run();
    expect(h.engine.status().killSwitch).toBe(true);
    expect(h.exchange.of("cancel_all").length).toBeGreaterThan(0);
    await h.run(60_000); // two periodic reconciles
    // Market 2's book never moved: its bid and ask rest for as long as the switch stays tripped.
    expect(h.botQuotes(b)).toEqual([]);
  });

  it("platform frozen, cancel-all answered ambiguously and not executed: no quote is left resting", async () => {
    const h = new Harness({ markets: 2 });
    await quoting(h, 2);
    expect(h.botQuotes()).toHaveLength(4);
    refuseCancelAll(h, "ambiguous");
    h.engine.onPlatformStatus(true);
    await h.run(60_000); // the reconcile the ambiguity asks for, and two periodic ones
    expect(h.engine.status().killSwitch).toBe(false);
    expect(h.botQuotes()).toEqual([]);
  });
});
